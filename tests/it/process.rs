//! `leapfrog serve` as a process: it logs its port, answers, and shuts down
//! gracefully on SIGTERM and SIGINT.

use crate::common::ServerProcess;

#[test]
fn serve_stops_gracefully_on_sigterm_and_sigint() {
    for signal in ["TERM", "INT"] {
        let mut server = ServerProcess::start(&[], &[]);
        assert_eq!(server.app.get("/healthz").status, 200);
        server.signal(signal);
        let status = server.wait(20).unwrap_or_else(|| panic!("still running after SIG{signal}"));
        assert!(status.success(), "SIG{signal}: {status}");
    }
}

#[test]
fn serve_refuses_an_address_it_cannot_bind_in_one_line() {
    let out = std::process::Command::new(crate::common::leapfrog_binary())
        .args(["serve", "--bind", "256.0.0.1:80", "--database-url", "sqlite::memory:"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 256.0.0.1:80"), "{err}");
}
