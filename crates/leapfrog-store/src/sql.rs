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

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Arg::Int(v) => v.to_sql(),
            Arg::OptInt(v) => v.to_sql(),
            Arg::Text(v) => v.to_sql(),
            Arg::OptText(v) => v.to_sql(),
            Arg::Float(v) => v.to_sql(),
        }
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

    /// The numbered SQL with `args` in the order of their numbers, for a
    /// driver that binds by position (SQLite reads `$1` as a name and
    /// numbers names in the order they first appear, as here).
    ///
    /// # Errors
    ///
    /// As [`Statement::query`].
    pub fn positional<'q>(&'q self, args: &Args<'q>) -> Result<(&'q str, Vec<Arg<'q>>), StoreError> {
        self.check(args)?;
        let values = self.names.iter().map(|name| self.value(args, name)).collect::<Result<_, _>>()?;
        Ok((&self.sql, values))
    }

    /// Those of `args` this statement takes (one of several that share
    /// their arguments).
    pub fn pick<'q>(&self, args: &Args<'q>) -> Vec<(&'static str, Arg<'q>)> {
        args.iter().filter(|(name, _)| self.names.iter().any(|n| n == name)).copied().collect()
    }

    fn check(&self, args: &Args<'_>) -> Result<(), StoreError> {
        match args.iter().find(|(name, _)| !self.names.iter().any(|n| n == name)) {
            Some((name, _)) => Err(StoreError::Statement(format!("no :{name} in {}", self.sql))),
            None => Ok(()),
        }
    }

    fn value<'q>(&self, args: &Args<'q>, name: &str) -> Result<Arg<'q>, StoreError> {
        args.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| StoreError::Statement(format!("no value for :{name} in {}", self.sql)))
    }

    /// The query with `args` bound by name.
    ///
    /// # Errors
    ///
    /// [`StoreError::Statement`] when a name has no value or a value no
    /// name (a bug, caught by every test that runs the statement).
    pub fn query<'q>(&'q self, args: &Args<'q>) -> Result<Query<'q, sqlx::Any, AnyArguments>, StoreError> {
        self.check(args)?;
        let mut query = sqlx::query(sqlx::AssertSqlSafe(self.sql.as_str()));
        for name in &self.names {
            let value = self.value(args, name)?;
            query = match value {
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

/// What a change's statements run on: a sqlx transaction, or the group
/// committer's own SQLite connection ([`super::direct`]), so that one
/// function writes a change on either.
pub(super) trait Execute {
    /// Runs `statement`; the rows it changed.
    async fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> Result<u64, StoreError>;

    /// Runs `statement`; the first column of each row it returned, as text.
    async fn texts(&mut self, statement: &Statement, args: &Args<'_>) -> Result<Vec<String>, StoreError>;

    /// Runs `statement`; the first column of the one row it returned.
    async fn number(&mut self, statement: &Statement, args: &Args<'_>) -> Result<i64, StoreError>;
}

impl Execute for sqlx::Transaction<'_, sqlx::Any> {
    async fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> Result<u64, StoreError> {
        Ok(statement.query(args)?.execute(&mut **self).await?.rows_affected())
    }

    async fn texts(&mut self, statement: &Statement, args: &Args<'_>) -> Result<Vec<String>, StoreError> {
        use sqlx::Row;
        let rows = statement.query(args)?.fetch_all(&mut **self).await?;
        Ok(rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?)
    }

    async fn number(&mut self, statement: &Statement, args: &Args<'_>) -> Result<i64, StoreError> {
        use sqlx::Row;
        Ok(statement.query(args)?.fetch_one(&mut **self).await?.try_get(0)?)
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
    fn positional_arguments_are_where_sqlite_numbers_the_names() -> Result<(), Box<dyn std::error::Error>> {
        let s = Statement::new("SELECT :b || :a || :b || :c");
        let (sql, values) =
            s.positional(&[("a", Arg::Text("A")), ("c", Arg::Int(3)), ("b", Arg::Text("B"))])?;
        let conn = rusqlite::Connection::open_in_memory()?;
        let got: String = conn.query_row(sql, rusqlite::params_from_iter(values), |r| r.get(0))?;
        assert_eq!(got, "BAB3");
        Ok(())
    }

    #[test]
    fn a_missing_or_unknown_argument_is_an_error_not_a_shift() {
        let s = Statement::new("SELECT :a, :b");
        assert!(s.query(&[("a", Arg::Int(1))]).is_err());
        assert!(s.query(&[("a", Arg::Int(1)), ("b", Arg::Int(2)), ("c", Arg::Int(3))]).is_err());
        assert!(s.query(&[("b", Arg::Text("x")), ("a", Arg::Int(1))]).is_ok());
    }
}
