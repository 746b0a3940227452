//! Times an operation through `local::call` natively — the call the
//! WebAssembly and Python packages make — and prints the best of `runs`
//! in milliseconds (the packages' benchmarks compare with it).
//!
//! Usage: cargo run --release -p leapfrog-wire --example call_timed -- OPERATION '<request JSON>' [RUNS]

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (operation, body) =
        (args.next().ok_or("give an operation")?, args.next().ok_or("give its request's JSON")?);
    let runs: usize = args.next().map_or(Ok(5), |n| n.parse())?;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        leapfrog_wire::local::call(&operation, body.as_bytes()).map_err(|p| p.detail.clone())?;
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    println!("{best:.3} ms");
    Ok(())
}
