//! Statements with named arguments. SQL here names what it takes
//! (`WHERE id = :game AND version = :version`); [`Statement::new`] turns
//! the names into the numbered arguments both databases read (`$1`, one
//! number per name, however often it appears), once, and
//! [`Statement::query`] binds values by name — a name without a value, or
//! a value no name takes, is an error, never a shifted argument.

use sqlx::any::AnyArguments;
use sqlx::query::Query;

use super::StoreError;

/// A value for a named argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg<'a> {
    /// An integer.
    Int(i64),
    /// An integer or NULL.
    OptInt(Option<i64>),
    /// A text.
    Text(&'a str),
    /// A text or NULL.
    OptText(Option<&'a str>),
    /// A floating-point number.
    Float(f64),
}

impl From<i64> for Arg<'_> {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(v: Option<i64>) -> Self {
        Arg::OptInt(v)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(v)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(v: &'a String) -> Self {
        Arg::Text(v)
    }
}

impl<'a> From<&'a Option<String>> for Arg<'a> {
    fn from(v: &'a Option<String>) -> Self {
        Arg::OptText(v.as_deref())
    }
}

/// A statement whose named arguments are numbered.
#[derive(Debug, Clone)]
pub struct Statement {
    sql: String,
    /// The names, in the order of their numbers.
    names: Vec<String>,
}

/// Named arguments: each name with its value.
pub type Args<'a> = [(&'static str, Arg<'a>)];

impl Statement {
    /// Numbers the `:name`s of `sql` (a name is letters, digits and `_`
    /// after a colon; PostgreSQL's casts `::type` are left alone).
    pub fn new(sql: &str) -> Statement {
        let mut out = String::with_capacity(sql.len());
        let mut names: Vec<String> = Vec::new();
        let bytes = sql.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let cast = (i > 0 && bytes[i - 1] == b':') || bytes.get(i + 1) == Some(&b':');
            let starts = bytes.get(i + 1).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
            if c == b':' && !cast && starts {
                let end = bytes[i + 1..]
                    .iter()
                    .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                    .map_or(bytes.len(), |n| i + 1 + n);
                let name = &sql[i + 1..end];
                let number = match names.iter().position(|n| n == name) {
                    Some(k) => k + 1,
                    None => {
                        names.push(name.to_string());
                        names.len()
                    }
                };
                out.push_str(&format!("${number}"));
                i = end;
            } else {
                // The SQL is ASCII up to the names: copy byte runs whole.
                let next = bytes[i + 1..].iter().position(|b| *b == b':').map_or(bytes.len(), |n| i + 1 + n);
                out.push_str(&sql[i..next]);
                i = next;
            }
        }
        Statement { sql: out, names }
    }

    /// The numbered SQL.
    #[cfg(test)]
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The same statement after `prefix` (such as `EXPLAIN `).
    pub fn prefixed(&self, prefix: &str) -> Statement {
        Statement { sql: format!("{prefix}{}", self.sql), names: self.names.clone() }
    }

    /// The query with `args` bound by name.
    ///
    /// # Errors
    ///
    /// [`StoreError::Statement`] when a name has no value or a value no
    /// name (a bug, caught by every test that runs the statement).
    pub fn query<'q>(&'q self, args: &Args<'q>) -> Result<Query<'q, sqlx::Any, AnyArguments>, StoreError> {
        if let Some((name, _)) = args.iter().find(|(name, _)| !self.names.iter().any(|n| n == name)) {
            return Err(StoreError::Statement(format!("no :{name} in {}", self.sql)));
        }
        let mut query = sqlx::query(sqlx::AssertSqlSafe(self.sql.as_str()));
        for name in &self.names {
            let (_, value) = args
                .iter()
                .find(|(n, _)| n == name)
                .ok_or_else(|| StoreError::Statement(format!("no value for :{name} in {}", self.sql)))?;
            query = match *value {
                Arg::Int(v) => query.bind(v),
                Arg::OptInt(v) => query.bind(v),
                Arg::Text(v) => query.bind(v),
                Arg::OptText(v) => query.bind(v),
                Arg::Float(v) => query.bind(v),
            };
        }
        Ok(query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_numbers_once_each_and_casts_stay() {
        let s = Statement::new("UPDATE g SET v = :version WHERE id = :game AND v = :old AND x = :game::text");
        assert_eq!(s.sql(), "UPDATE g SET v = $1 WHERE id = $2 AND v = $3 AND x = $2::text");
        assert_eq!(s.names, ["version", "game", "old"]);
        let plain = Statement::new("SELECT 1 FROM t WHERE a = 'x'");
        assert_eq!(plain.sql(), "SELECT 1 FROM t WHERE a = 'x'");
    }

    #[test]
    fn a_missing_or_unknown_argument_is_an_error_not_a_shift() {
        let s = Statement::new("SELECT :a, :b");
        assert!(s.query(&[("a", Arg::Int(1))]).is_err());
        assert!(s.query(&[("a", Arg::Int(1)), ("b", Arg::Int(2)), ("c", Arg::Int(3))]).is_err());
        assert!(s.query(&[("b", Arg::Text("x")), ("a", Arg::Int(1))]).is_ok());
    }
}
