//! Leap Frog and kindred jump-capture games: the `leapfrog` command line.
//!
//! The rules live in the `jump-capture` crate; this crate puts them on the
//! command line.

pub mod cli;
