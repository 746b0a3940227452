//! What the whole process shares, below every layer that uses it: its
//! metrics (`meter`), the signal that it is stopping (`stopping`) and the
//! time now ([`now_ms`]).

pub mod meter;
pub mod stopping;

/// The time now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}
