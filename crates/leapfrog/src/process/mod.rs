//! What the whole process shares, below every layer that uses it: its
//! metrics (`meter`) and the signal that it is stopping (`stopping`).

pub mod meter;
pub mod stopping;
