//! The `leapfrog` command line: see `leapfrog --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    leapfrog::server::cli::main()
}
