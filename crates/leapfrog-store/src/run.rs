//! Where statements run: the database's own runtime, and the one way onto
//! it.
//!
//! Every statement of the store runs on [`RUNTIME`], each store method
//! reaching it through one of the helpers here: one statement read
//! ([`Store::rows`], [`Store::row`], [`Store::one`]) or written
//! ([`Store::execute`], [`Store::written`]), or a transaction of several
//! on the writer ([`Store::transaction`], [`Store::transaction_kept_if`]).
//! Each helper carries its statement with owned arguments across, takes
//! the connection (and on SQLite the write lock) there and measures the
//! wait for it, so that the hop is written here once, not in each method.

use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::pool::PoolConnection;
use sqlx::query::Query;
use sqlx::{Any, AnyPool, Connection};

use super::sql::{Arg, Args, Statement};
use super::{ACQUIRE_TIMEOUT, Store, StoreError};

/// The runtime every statement runs on, apart from the request workers'.
///
/// actix-web gives each worker thread a runtime of its own, and a
/// connection opened on one can only be used while that runtime lives:
/// when a stopping server's first worker finishes, connections it opened
/// fail in the others ("A Tokio 1.x context was found, but it is being
/// shutdown"), and a connection dropped outside any runtime panics in
/// sqlx's pool. On this runtime, which lives as long as the process, the
/// pool opens, uses and returns every connection; a request that goes away
/// half-way leaves its statement to finish here.
static RUNTIME: LazyLock<std::io::Result<tokio::runtime::Runtime>> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("leapfrog-db")
        .enable_all()
        .build()
});

/// Runs `work` on [`RUNTIME`] and waits for its result.
pub(super) async fn on_runtime<T: Send + 'static>(
    work: impl Future<Output = Result<T, StoreError>> + Send + 'static,
) -> Result<T, StoreError> {
    let runtime = RUNTIME.as_ref().map_err(|e| StoreError::Runtime(e.to_string()))?;
    runtime.spawn(work).await.map_err(|e| StoreError::Runtime(e.to_string()))?
}

/// A statement the store runs: one of its statics, or one built for a
/// request's filters.
pub(super) enum Sql {
    /// A static statement.
    Static(&'static Statement),
    /// A statement built for this call.
    Built(Statement),
}

impl From<&'static LazyLock<Statement>> for Sql {
    fn from(statement: &'static LazyLock<Statement>) -> Sql {
        Sql::Static(statement)
    }
}

impl From<&'static Statement> for Sql {
    fn from(statement: &'static Statement) -> Sql {
        Sql::Static(statement)
    }
}

impl From<Statement> for Sql {
    fn from(statement: Statement) -> Sql {
        Sql::Built(statement)
    }
}

/// A named argument's value, owned, so that it can cross to the runtime.
#[derive(Debug, Clone)]
enum Value {
    Int(i64),
    OptInt(Option<i64>),
    Text(String),
    OptText(Option<String>),
    Float(f64),
}

impl Value {
    fn of(arg: Arg<'_>) -> Value {
        match arg {
            Arg::Int(v) => Value::Int(v),
            Arg::OptInt(v) => Value::OptInt(v),
            Arg::Text(v) => Value::Text(v.to_string()),
            Arg::OptText(v) => Value::OptText(v.map(str::to_string)),
            Arg::Float(v) => Value::Float(v),
        }
    }

    fn arg(&self) -> Arg<'_> {
        match self {
            Value::Int(v) => Arg::Int(*v),
            Value::OptInt(v) => Arg::OptInt(*v),
            Value::Text(v) => Arg::Text(v),
            Value::OptText(v) => Arg::OptText(v.as_deref()),
            Value::Float(v) => Arg::Float(*v),
        }
    }
}

/// A statement with its arguments, owned: what crosses to the runtime.
struct Bound {
    sql: Sql,
    args: Vec<(&'static str, Value)>,
}

impl Bound {
    fn new(sql: impl Into<Sql>, args: &Args<'_>) -> Bound {
        Bound { sql: sql.into(), args: args.iter().map(|(name, arg)| (*name, Value::of(*arg))).collect() }
    }

    fn query(&self) -> Result<Query<'_, Any, AnyArguments>, StoreError> {
        let statement = match &self.sql {
            Sql::Static(s) => *s,
            Sql::Built(s) => s,
        };
        let args: Vec<_> = self.args.iter().map(|(name, value)| (*name, value.arg())).collect();
        statement.query(&args)
    }
}

/// What a row reads into: a row type, or a tuple of columns.
pub(super) trait Row: for<'r> sqlx::FromRow<'r, AnyRow> + Send + Unpin + 'static {}

impl<T> Row for T where T: for<'r> sqlx::FromRow<'r, AnyRow> + Send + Unpin + 'static {}

/// A transaction on the writer.
pub(super) type Tx<'c> = sqlx::Transaction<'c, Any>;

/// A transaction's work, borrowing the store and the transaction.
pub(super) type Work<'t, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 't>>;

impl Store {
    /// The rows `sql` reads, on a reading connection.
    pub(super) async fn rows<T: Row>(
        &self,
        sql: impl Into<Sql>,
        args: &Args<'_>,
    ) -> Result<Vec<T>, StoreError> {
        self.fetch_all(Bound::new(sql, args), false).await
    }

    /// The rows `bound` answers, on a reading connection or the writer.
    async fn fetch_all<T: Row>(&self, bound: Bound, writer: bool) -> Result<Vec<T>, StoreError> {
        self.on_db(move |s| async move {
            let rows = if writer {
                bound.query()?.fetch_all(&mut *s.write().await?).await?
            } else {
                bound.query()?.fetch_all(&mut *s.read().await?).await?
            };
            Ok(rows.iter().map(T::from_row).collect::<Result<_, _>>()?)
        })
        .await
    }

    /// The row `sql` reads, if there is one.
    pub(super) async fn row<T: Row>(
        &self,
        sql: impl Into<Sql>,
        args: &Args<'_>,
    ) -> Result<Option<T>, StoreError> {
        let bound = Bound::new(sql, args);
        self.on_db(move |s| async move {
            let row = bound.query()?.fetch_optional(&mut *s.read().await?).await?;
            Ok(row.as_ref().map(T::from_row).transpose()?)
        })
        .await
    }

    /// The one row `sql` reads (a count, say).
    pub(super) async fn one<T: Row>(&self, sql: impl Into<Sql>, args: &Args<'_>) -> Result<T, StoreError> {
        let bound = Bound::new(sql, args);
        self.on_db(move |s| async move {
            let row = bound.query()?.fetch_one(&mut *s.read().await?).await?;
            Ok(T::from_row(&row)?)
        })
        .await
    }

    /// Runs `sql` on the writer: the rows it changed.
    pub(super) async fn execute(&self, sql: impl Into<Sql>, args: &Args<'_>) -> Result<u64, StoreError> {
        let bound = Bound::new(sql, args);
        self.on_db(move |s| async move {
            Ok(bound.query()?.execute(&mut *s.write().await?).await?.rows_affected())
        })
        .await
    }

    /// Runs `sql` on the writer: the rows it returned (`RETURNING`).
    pub(super) async fn written<T: Row>(
        &self,
        sql: impl Into<Sql>,
        args: &Args<'_>,
    ) -> Result<Vec<T>, StoreError> {
        self.fetch_all(Bound::new(sql, args), true).await
    }

    /// Runs `work` in a transaction on the writer, committed when it
    /// answers, rolled back when it fails.
    pub(super) async fn transaction<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'t> FnOnce(&'t Store, &'t mut Tx<'_>) -> Work<'t, T> + Send + 'static,
    {
        self.transaction_kept_if(|_| true, work).await
    }

    /// Runs `work` in a transaction on the writer, committed when its
    /// answer passes `keep` (a lost race answers, and leaves nothing).
    pub(super) async fn transaction_kept_if<T, F>(
        &self,
        keep: fn(&T) -> bool,
        work: F,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'t> FnOnce(&'t Store, &'t mut Tx<'_>) -> Work<'t, T> + Send + 'static,
    {
        self.on_db(move |s| async move {
            let mut conn = s.write().await?;
            let mut tx = conn.begin().await?;
            let answer = work(&s, &mut tx).await?;
            if keep(&answer) {
                tx.commit().await?;
            }
            Ok(answer)
        })
        .await
    }

    /// Runs `work` with this store on the database's runtime and waits for
    /// it: the one hop, under every helper above and the store's opening,
    /// migration and closing.
    pub(super) async fn on_db<T, F, Fut>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(Store) -> Fut,
        Fut: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        on_runtime(work(self.clone())).await
    }

    /// A connection to read with; the wait for it is measured.
    pub(super) async fn read(&self) -> Result<PoolConnection<Any>, StoreError> {
        timed_acquire(&self.pool).await
    }

    /// A connection to write with, and on SQLite the write lock; the wait
    /// for them is measured.
    pub(super) async fn write(&self) -> Result<Writing, StoreError> {
        let asked = std::time::Instant::now();
        let lock = match &self.write_lock {
            // As long as the pool waits for a connection: then the same refusal.
            Some(lock) => Some(
                tokio::time::timeout(ACQUIRE_TIMEOUT, lock.clone().lock_owned())
                    .await
                    .map_err(|_| sqlx::Error::PoolTimedOut)?,
            ),
            None => None,
        };
        let conn = self.writes().acquire().await?;
        metrics::histogram!(leapfrog_process::meter::DB_WAIT).record(asked.elapsed().as_secs_f64());
        Ok(Writing { conn, _lock: lock })
    }
}

/// A connection of `pool`, the wait for it recorded.
async fn timed_acquire(pool: &AnyPool) -> Result<PoolConnection<Any>, StoreError> {
    let asked = std::time::Instant::now();
    let conn = pool.acquire().await?;
    metrics::histogram!(leapfrog_process::meter::DB_WAIT).record(asked.elapsed().as_secs_f64());
    Ok(conn)
}

/// A connection to write with, held with the write lock (on SQLite).
pub(super) struct Writing {
    conn: PoolConnection<Any>,
    _lock: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl std::ops::Deref for Writing {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &sqlx::AnyConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Writing {
    fn deref_mut(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.conn
    }
}
