//! The outbox's claims (rule book §16): which due deliveries a process
//! takes to send — oldest first, within each endpoint's and each
//! account's share of the tries in flight over the whole fleet.

use std::sync::LazyLock;

use super::rows::WebhookRow;
use super::sql::Statement;
use super::{Store, StoreError};

/// A delivery claimed to be sent, with its endpoint.
#[derive(Debug, Clone)]
pub struct Due {
    /// The delivery's id.
    pub id: String,
    /// Its body.
    pub body: String,
    /// Tries made before this one.
    pub tries: i64,
    /// The claim it was taken under.
    pub claim: String,
    /// Its endpoint.
    pub webhook: WebhookRow,
}

/// The most tries in flight at once, from every process together, to one
/// endpoint and to one account's endpoints.
#[derive(Debug, Clone, Copy)]
pub struct Share {
    /// To one endpoint.
    pub per_endpoint: i64,
    /// To the endpoints of one account.
    pub per_account: i64,
}

/// Claims the pending deliveries due at `:now` that no process holds, under
/// a claim of its own (`:claim`, random), so that it reads back only them —
/// oldest first, but never more than `:per_endpoint` in flight to one
/// endpoint nor `:per_account` to one account's endpoints, counting the
/// tries every process has in flight (claimed and not yet recorded): a
/// slow endpoint's backlog waits behind itself, not before others.
static CLAIM: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE webhook_deliveries SET claimed_until = :until, claim = :claim WHERE id IN ( \
           SELECT id FROM ( \
             SELECT e.id, e.next_at, \
               ROW_NUMBER() OVER (PARTITION BY e.account_id ORDER BY e.next_at, e.id) + COALESCE(ba.n, 0) AS in_account \
             FROM ( \
               SELECT d.id, d.next_at, w.account_id, \
                 ROW_NUMBER() OVER (PARTITION BY d.webhook_id ORDER BY d.next_at, d.id) + COALESCE(be.n, 0) AS in_endpoint \
               FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id \
               LEFT JOIN (SELECT webhook_id, COUNT(*) AS n FROM webhook_deliveries \
                 WHERE status = 'pending' AND claimed_until >= :now GROUP BY webhook_id) be ON be.webhook_id = d.webhook_id \
               WHERE d.status = 'pending' AND d.next_at <= :now AND d.claimed_until < :now AND w.disabled IS NULL \
             ) e \
             LEFT JOIN (SELECT cw.account_id, COUNT(*) AS n FROM webhook_deliveries c JOIN webhooks cw ON cw.id = c.webhook_id \
               WHERE c.status = 'pending' AND c.claimed_until >= :now GROUP BY cw.account_id) ba ON ba.account_id = e.account_id \
             WHERE e.in_endpoint <= :per_endpoint \
           ) f WHERE f.in_account <= :per_account ORDER BY f.next_at LIMIT :limit \
         ) AND status = 'pending' AND claimed_until < :now",
    )
});
static CLAIMED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT d.id AS delivery, d.body, d.tries, w.* FROM webhook_deliveries d \
         JOIN webhooks w ON w.id = d.webhook_id WHERE d.claim = :claim AND d.status = 'pending'",
    )
});

impl Store {
    /// Claims for this process, until `until`, up to `limit` deliveries
    /// due at `now` that no process holds, as `claim` (unique to the
    /// claim), within the tries in flight `share` allows; each with its
    /// endpoint.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn claim_deliveries(
        &self,
        (now, until): (i64, i64),
        claim: &str,
        limit: i64,
        share: Share,
    ) -> Result<Vec<Due>, StoreError> {
        let args = [
            ("now", now.into()),
            ("until", until.into()),
            ("claim", claim.into()),
            ("limit", limit.into()),
            ("per_endpoint", share.per_endpoint.into()),
            ("per_account", share.per_account.into()),
        ];
        if self.execute(&CLAIM, &args).await? == 0 {
            return Ok(vec![]);
        }
        let rows: Vec<Claimed> = self.rows(&CLAIMED, &[("claim", claim.into())]).await?;
        let due = |r: Claimed| Due {
            id: r.delivery,
            body: r.body,
            tries: r.tries,
            claim: claim.to_string(),
            webhook: r.webhook,
        };
        Ok(rows.into_iter().map(due).collect())
    }
}

/// A claimed delivery as read, with its endpoint's columns.
#[derive(sqlx::FromRow)]
struct Claimed {
    delivery: String,
    body: String,
    tries: i64,
    #[sqlx(flatten)]
    webhook: WebhookRow,
}
