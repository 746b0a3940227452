//! The `webhooks` and `webhook_deliveries` tables (rule book §16): an
//! account's endpoints, and the outbox — one delivery per event and
//! endpoint, written in the transaction of the account's event — claimed
//! by one process at a time to be sent.

use std::collections::HashSet;
use std::sync::LazyLock;

use sqlx::Row;

use super::account_events::AccountEvent;
use super::batch::sqlite_rows;
use super::claims::Due;
use super::rows::{DeliveryRow, WebhookRow};
use super::sql::{Args, Execute, Statement};
use super::{Backend, Store, StoreError};

/// What became of a try, to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// A 2xx answer.
    Delivered(i64),
    /// Tried again at `next_at`; `status` or `error` says why.
    Again { status: Option<i64>, error: Option<String>, next_at: i64 },
    /// No more tries.
    Failed { status: Option<i64>, error: Option<String> },
    /// The endpoint is switched off (`gone` or `failing`): this delivery
    /// and every other pending one of it are dropped, and `event` tells
    /// the account.
    Disable { status: Option<i64>, error: Option<String>, reason: &'static str, event: AccountEvent },
}

/// The most of a delivery's body (an event's is far smaller; one that is
/// not is sent without its data).
pub const MAX_BODY: usize = 64 * 1024;

static LOCK_ACCOUNT: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE accounts SET name = name WHERE id = :account"));
static INSERT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO webhooks (id, account_id, url, events, secret, created_at) \
         SELECT :id, :account, :url, :events, :secret, :at \
         WHERE (SELECT COUNT(*) FROM webhooks WHERE account_id = :account) < :most",
    )
});
static LIST: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT * FROM webhooks WHERE account_id = :account ORDER BY created_at, id")
});
static ONE: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT * FROM webhooks WHERE id = :id AND account_id = :account"));
static DELETE: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM webhooks WHERE id = :id AND account_id = :account"));
/// Run before the endpoint's own DELETE: the owner is read from its row.
static DELETE_DELIVERIES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE id = :id AND account_id = :account)",
    )
});
static DELETE_ALL_DELIVERIES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE account_id = :account_id)",
    )
});
static DELETE_ALL: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM webhooks WHERE account_id = :account_id"));
static ROTATE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE webhooks SET old_secret = secret, old_until = :old_until, secret = :secret \
         WHERE id = :id AND account_id = :account",
    )
});
/// Every endpoint of the event's account that is on and takes its kind
/// gets a delivery, its id made of the endpoint's and the event's number.
static OUTBOX: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO webhook_deliveries (id, webhook_id, kind, body, created_at, status, next_at) \
         SELECT 'msg_' || w.id || '_' || (SELECT events - 1 FROM accounts WHERE id = :account), \
         w.id, :kind, :body, :at, 'pending', :at FROM webhooks w \
         WHERE w.account_id = :account AND w.disabled IS NULL \
         AND (w.events = '*' OR w.events LIKE :pattern ESCAPE '!')",
    )
});
/// A test delivery, only to an endpoint of the account that is on.
static ENQUEUE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO webhook_deliveries (id, webhook_id, kind, body, created_at, status, next_at) \
         SELECT :id, w.id, :kind, :body, :at, 'pending', :at FROM webhooks w \
         WHERE w.id = :webhook AND w.account_id = :account AND w.disabled IS NULL",
    )
});
static DELIVERIES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id, kind, created_at, status, tries, next_at, last_status, last_error FROM webhook_deliveries \
         WHERE webhook_id IN (SELECT id FROM webhooks WHERE id = :webhook AND account_id = :account) \
         AND (created_at < :before OR (created_at = :before AND id < :before_id)) \
         ORDER BY created_at DESC, id DESC LIMIT :limit",
    )
});
static RECORD: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE webhook_deliveries SET status = :status, tries = tries + 1, next_at = :next_at, \
         last_status = :last_status, last_error = :last_error, claimed_until = 0 \
         WHERE id = :id AND claim = :claim",
    )
});
/// The tries answered 2xx whose endpoint was not failing — nearly all —
/// recorded by one statement (a statement each held the single writer
/// for a round trip per try): the ids it recorded.
fn record_delivered(backend: Backend) -> &'static Statement {
    const SET: &str = "UPDATE webhook_deliveries SET status = 'delivered', tries = tries + 1, next_at = NULL, \
         last_status = j.code, last_error = NULL, claimed_until = 0";
    const WHERE: &str = "WHERE webhook_deliveries.id = j.id AND webhook_deliveries.claim = j.claim RETURNING webhook_deliveries.id";
    const COLUMNS: &str = "id text, claim text, code bigint";
    static ALL: LazyLock<[Statement; 2]> = LazyLock::new(|| {
        [
            Statement::new(&format!("{SET} FROM {} AS j {WHERE}", sqlite_rows(COLUMNS, "rows"))),
            Statement::new(&format!("{SET} FROM json_to_recordset(:rows::json) AS j({COLUMNS}) {WHERE}")),
        ]
    });
    match backend {
        Backend::Sqlite => &ALL[0],
        Backend::Postgres => &ALL[1],
    }
}
static SUCCEEDED: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE webhooks SET failing_since = NULL WHERE id = :webhook"));
static FAILING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("UPDATE webhooks SET failing_since = COALESCE(failing_since, :now) WHERE id = :webhook")
});
static SWITCH_OFF: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("UPDATE webhooks SET disabled = :reason WHERE id = :webhook AND disabled IS NULL")
});
static DROP_PENDING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE webhook_deliveries SET status = 'dropped', next_at = NULL \
         WHERE webhook_id = :webhook AND status = 'pending'",
    )
});

impl Store {
    /// Stores endpoint `w` unless its account has `most` already (counted
    /// under the account row's lock); whether it did.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_webhook(&self, w: &WebhookRow, most: i64) -> Result<bool, StoreError> {
        let w = w.clone();
        self.transaction(move |_, tx| {
            Box::pin(async move {
                tx.execute(&LOCK_ACCOUNT, &[("account", (&w.account_id).into())]).await?;
                let args = [
                    ("id", (&w.id).into()),
                    ("account", (&w.account_id).into()),
                    ("url", (&w.url).into()),
                    ("events", (&w.events).into()),
                    ("secret", (&w.secret).into()),
                    ("at", w.created_at.into()),
                    ("most", most.into()),
                ];
                Ok(tx.execute(&INSERT, &args).await? == 1)
            })
        })
        .await
    }

    /// An account's endpoints, oldest first.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn webhooks(&self, account_id: &str) -> Result<Vec<WebhookRow>, StoreError> {
        self.rows(&LIST, &[("account", account_id.into())]).await
    }

    /// Endpoint `id` of an account, if it has it.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn webhook(&self, account_id: &str, id: &str) -> Result<Option<WebhookRow>, StoreError> {
        self.row(&ONE, &[("account", account_id.into()), ("id", id.into())]).await
    }

    /// Deletes an account's endpoint and its deliveries; whether it had it.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn delete_webhook(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        let (account, id) = (account_id.to_string(), id.to_string());
        self.transaction(move |_, tx| {
            Box::pin(async move {
                let owner = [("account", (&account).into()), ("id", (&id).into())];
                tx.execute(&DELETE_DELIVERIES, &owner).await?;
                Ok(tx.execute(&DELETE, &owner).await? == 1)
            })
        })
        .await
    }

    /// Deletes every endpoint of an account with their deliveries, within
    /// the transaction that deletes the account.
    pub(super) async fn delete_account_webhooks(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        account_id: &str,
    ) -> Result<(), StoreError> {
        for statement in [&*DELETE_ALL_DELIVERIES, &*DELETE_ALL] {
            statement.query(&[("account_id", account_id.into())])?.execute(&mut **tx).await?;
        }
        Ok(())
    }

    /// Gives endpoint `id` a new secret; the old one signs too until
    /// `old_until`. Whether the account has it.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn rotate_webhook(
        &self,
        account_id: &str,
        id: &str,
        secret: &str,
        old_until: i64,
    ) -> Result<bool, StoreError> {
        let args = [
            ("account", account_id.into()),
            ("id", id.into()),
            ("secret", secret.into()),
            ("old_until", old_until.into()),
        ];
        Ok(self.execute(&ROTATE, &args).await? == 1)
    }

    /// Queues a delivery (a test event) to endpoint `webhook_id` of
    /// `account_id`; whether it did: not when the account has no such
    /// endpoint, or it is switched off.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn enqueue_delivery(
        &self,
        (account_id, webhook_id): (&str, &str),
        id: &str,
        (kind, body): (&str, &str),
        at: i64,
    ) -> Result<bool, StoreError> {
        let args = [
            ("id", id.into()),
            ("webhook", webhook_id.into()),
            ("account", account_id.into()),
            ("kind", kind.into()),
            ("body", body.into()),
            ("at", at.into()),
        ];
        Ok(self.execute(&ENQUEUE, &args).await? == 1)
    }

    /// The deliveries of endpoint `webhook_id` of `account_id`, newest
    /// first, before the cursor (`created_at`, `id`) when given; at most
    /// `limit`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn deliveries(
        &self,
        (account_id, webhook_id): (&str, &str),
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<DeliveryRow>, StoreError> {
        let (before, before_id) = before.unwrap_or((i64::MAX, String::new()));
        let args = [
            ("webhook", webhook_id.into()),
            ("account", account_id.into()),
            ("before", before.into()),
            ("before_id", (&before_id).into()),
            ("limit", limit.into()),
        ];
        self.rows(&DELIVERIES, &args).await
    }

    /// Records, in one transaction, what became of tries, each of a
    /// delivery at a time: nothing of one whose claim was lost; an
    /// endpoint switched off with its account's event. Which were recorded.
    ///
    /// # Errors
    ///
    /// On a database failure (nothing is recorded: the tries are made again).
    pub async fn record_deliveries(&self, tries: Vec<(Due, i64, Sent)>) -> Result<Vec<bool>, StoreError> {
        self.transaction(move |s, tx| {
            Box::pin(async move {
                let plain = |d: &Due, sent: &Sent| {
                    matches!(sent, Sent::Delivered(_)) && d.webhook.failing_since.is_none()
                };
                let rows: Vec<_> = tries
                    .iter()
                    .filter_map(|(d, _, sent)| match sent {
                        Sent::Delivered(code) if plain(d, sent) => {
                            Some(serde_json::json!({"id": d.id, "claim": d.claim, "code": code}))
                        }
                        _ => None,
                    })
                    .collect();
                let mut delivered = HashSet::new();
                if !rows.is_empty() {
                    let rows = serde_json::Value::Array(rows).to_string();
                    for row in record_delivered(s.backend)
                        .query(&[("rows", (&rows).into())])?
                        .fetch_all(&mut **tx)
                        .await?
                    {
                        delivered.insert(row.try_get::<String, _>(0)?);
                    }
                }
                let mut recorded = Vec::with_capacity(tries.len());
                for (d, now, sent) in tries {
                    recorded.push(if plain(&d, &sent) {
                        delivered.contains(&d.id)
                    } else {
                        Self::record(s.backend, tx, &d, now, sent).await?
                    });
                }
                Ok(recorded)
            })
        })
        .await
    }

    /// Records one try within `tx`.
    async fn record(
        backend: Backend,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        d: &Due,
        now: i64,
        sent: Sent,
    ) -> Result<bool, StoreError> {
        let (status, next_at, last_status, last_error) = match &sent {
            Sent::Delivered(code) => ("delivered", None, Some(*code), None),
            Sent::Again { status, error, next_at } => ("pending", Some(*next_at), *status, error.clone()),
            Sent::Failed { status, error } | Sent::Disable { status, error, .. } => {
                ("failed", None, *status, error.clone())
            }
        };
        let done = RECORD
            .query(&[
                ("id", (&d.id).into()),
                ("claim", (&d.claim).into()),
                ("status", status.into()),
                ("next_at", next_at.into()),
                ("last_status", last_status.into()),
                ("last_error", (&last_error).into()),
            ])?
            .execute(&mut **tx)
            .await?
            .rows_affected();
        if done != 1 {
            return Ok(false);
        }
        let webhook = &d.webhook.id;
        match sent {
            Sent::Delivered(_) if d.webhook.failing_since.is_some() => {
                SUCCEEDED.query(&[("webhook", webhook.into())])?.execute(&mut **tx).await?;
            }
            Sent::Delivered(_) => {}
            Sent::Again { .. } | Sent::Failed { .. } => {
                FAILING
                    .query(&[("webhook", webhook.into()), ("now", now.into())])?
                    .execute(&mut **tx)
                    .await?;
            }
            Sent::Disable { reason, event, .. } => {
                let off = SWITCH_OFF
                    .query(&[("webhook", webhook.into()), ("reason", reason.into())])?
                    .execute(&mut **tx)
                    .await?
                    .rows_affected();
                DROP_PENDING.query(&[("webhook", webhook.into())])?.execute(&mut **tx).await?;
                if off == 1 {
                    Self::append_account_events(backend, tx, &[event]).await?;
                }
            }
        }
        Ok(true)
    }

    /// Queues, within `tx`, a delivery of the event just appended to its
    /// account's log to each endpoint of the account that takes it.
    pub(super) async fn queue_deliveries<E: Execute>(tx: &mut E, e: &AccountEvent) -> Result<(), StoreError> {
        let at = chrono::DateTime::from_timestamp_millis(e.at).unwrap_or_default();
        let kind = serde_json::Value::from(e.kind.as_str());
        let at = at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        // The event's JSON is written into the body as it is: serialised once, when made.
        let mut body = format!("{{\"type\":{kind},\"timestamp\":\"{at}\",\"data\":{}}}", e.data);
        if body.len() > MAX_BODY {
            // Too large to send: the receiver reads it from the account's stream.
            body = format!("{{\"type\":{kind},\"timestamp\":\"{at}\",\"data\":null,\"too_large\":true}}");
        }
        let pattern = format!("%,{},%", e.kind.replace('!', "!!").replace('%', "!%").replace('_', "!_"));
        let args: &Args = &[
            ("account", (&e.account_id).into()),
            ("kind", (&e.kind).into()),
            ("body", (&body).into()),
            ("at", e.at.into()),
            ("pattern", (&pattern).into()),
        ];
        tx.execute(&OUTBOX, args).await?;
        Ok(())
    }
}
