//! Webhooks (rule book §16): an account's endpoints — made with a secret
//! shown once, listed, deleted, tested, their secret rotated, their recent
//! deliveries listed (this module's [`Webhooks`]) — and the sending of its
//! log's events to them: `outbox` (the deliveries, claimed fairly and
//! recorded), `sender` (one try: signed, no redirects, bounded), `address`
//! (which addresses a try may reach).

pub mod address;
pub mod outbox;
pub mod sender;

use crate::accounts::{AccountError, Principal};
use leapfrog_store::{DeliveryRow, Store, WebhookRow};
use leapfrog_wire::account_events::AccountEventKind;
use outbox::ROTATION_MS;
use sender::Reach;

/// Endpoints one account may have.
pub const MOST: usize = 5;

/// An endpoint just made, or rotated: with its secret, shown this once.
#[derive(Debug, Clone)]
pub struct WithSecret {
    /// The endpoint.
    pub webhook: Webhook,
    /// Its (new) secret.
    pub secret: String,
}

/// An endpoint as its owner sees it: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Its id (`wh_…`).
    pub id: String,
    /// Where deliveries go.
    pub url: String,
    /// The kinds of event sent to it; none: every kind.
    pub events: Vec<String>,
    /// When it was made (Unix milliseconds).
    pub created_at: i64,
    /// Why it was switched off (`gone`, `failing`), if it was.
    pub disabled: Option<String>,
    /// Its first failure since its last success (Unix milliseconds).
    pub failing_since: Option<i64>,
    /// Until when its old secret signs too, after a rotation.
    pub old_secret_until: Option<i64>,
}

impl From<&WebhookRow> for Webhook {
    fn from(w: &WebhookRow) -> Webhook {
        let events = if w.events == "*" {
            vec![]
        } else {
            w.events.split(',').filter(|e| !e.is_empty()).map(str::to_string).collect()
        };
        Webhook {
            id: w.id.clone(),
            url: w.url.clone(),
            events,
            created_at: w.created_at,
            disabled: w.disabled.clone(),
            failing_since: w.failing_since,
            old_secret_until: w.old_until,
        }
    }
}

/// One delivery of an event to an endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// The `webhook-id` of its every try.
    pub id: String,
    /// The event's kind.
    pub kind: String,
    /// When the event happened (Unix milliseconds).
    pub created_at: i64,
    /// `pending`, `delivered`, `failed` or `dropped`.
    pub status: String,
    /// Tries made.
    pub tries: i64,
    /// The next try, while pending (Unix milliseconds).
    pub next_at: Option<i64>,
    /// The last answer's status.
    pub last_status: Option<i64>,
    /// The last try's failure, when it got no answer.
    pub last_error: Option<String>,
}

impl From<DeliveryRow> for Delivery {
    fn from(d: DeliveryRow) -> Delivery {
        Delivery {
            id: d.id,
            kind: d.kind,
            created_at: d.created_at,
            status: d.status,
            tries: d.tries,
            next_at: d.next_at,
            last_status: d.last_status,
            last_error: d.last_error,
        }
    }
}

/// The webhooks service: an account's endpoints.
#[derive(Debug, Clone)]
pub struct Webhooks {
    store: Store,
}

impl Webhooks {
    /// The endpoints kept in `store`.
    pub fn new(store: Store) -> Webhooks {
        Webhooks { store }
    }

    /// Registers an endpoint for `who`: `url` checked against `reach` (its
    /// scheme, and the addresses its host has now), `events` among
    /// the account events' kinds (none: all).
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for a URL refused (`url`), an unknown
    /// event (`events`) or the account's [`MOST`] endpoints (`webhooks`).
    pub async fn create(
        &self,
        who: &Principal,
        url: &str,
        events: &[String],
        reach: Reach,
    ) -> Result<WithSecret, AccountError> {
        let invalid = |detail: String, field| AccountError::Invalid { detail, field };
        if let Some(bad) = events.iter().find(|e| AccountEventKind::of_name(e).is_none()) {
            let kinds: Vec<&str> = AccountEventKind::ALL.iter().map(|k| k.name()).collect();
            return Err(invalid(format!("'{bad}' is not an event; they are {}", kinds.join(", ")), "events"));
        }
        let url = reach.check(url).await.map_err(|e| invalid(e.to_string(), "url"))?;
        let secret = sender::new_secret()?;
        let row = WebhookRow {
            id: format!("wh_{}", uuid::Uuid::new_v4().simple()),
            account_id: who.account_id.clone(),
            url,
            events: if events.is_empty() { "*".into() } else { format!(",{},", events.join(",")) },
            secret: secret.clone(),
            old_secret: None,
            old_until: None,
            created_at: leapfrog_process::now_ms(),
            failing_since: None,
            disabled: None,
        };
        if !self.store.insert_webhook(&row, MOST as i64).await? {
            let detail = format!("this account has {MOST} webhooks, the most it may: delete one first");
            return Err(invalid(detail, "webhooks"));
        }
        Ok(WithSecret { webhook: Webhook::from(&row), secret })
    }

    /// `who`'s endpoints, oldest first.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn list(&self, who: &Principal) -> Result<Vec<Webhook>, AccountError> {
        Ok(self.store.webhooks(&who.account_id).await?.iter().map(Webhook::from).collect())
    }

    /// Endpoint `id` of `who`.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn get(&self, who: &Principal, id: &str) -> Result<Webhook, AccountError> {
        Ok(Webhook::from(&self.store.webhook(&who.account_id, id).await?.ok_or_else(|| no_webhook(id))?))
    }

    /// Deletes endpoint `id` of `who`, with its deliveries.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn delete(&self, who: &Principal, id: &str) -> Result<(), AccountError> {
        if self.store.delete_webhook(&who.account_id, id).await? { Ok(()) } else { Err(no_webhook(id)) }
    }

    /// Gives endpoint `id` a new secret; the old one signs too for a day,
    /// so that a receiver can switch without losing a delivery.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn rotate(&self, who: &Principal, id: &str) -> Result<WithSecret, AccountError> {
        let secret = sender::new_secret()?;
        let until = leapfrog_process::now_ms() + ROTATION_MS;
        if !self.store.rotate_webhook(&who.account_id, id, &secret, until).await? {
            return Err(no_webhook(id));
        }
        Ok(WithSecret { webhook: self.get(who, id).await?, secret })
    }

    /// Queues a `webhook_test` delivery to endpoint `id`; its id.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id;
    /// [`AccountError::Invalid`] (field `webhook`) when it is switched off.
    pub async fn test(&self, who: &Principal, id: &str) -> Result<String, AccountError> {
        let w = self.get(who, id).await?;
        let now = leapfrog_process::now_ms();
        let delivery = format!("msg_{}_test_{}", w.id, uuid::Uuid::new_v4().simple());
        let body = serde_json::json!({
            "type": "webhook_test",
            "timestamp": leapfrog_wire::game::rfc3339(now),
            "data": {"webhook": w.id, "account": who.name},
        });
        let body = body.to_string();
        let queued = self
            .store
            .enqueue_delivery((&who.account_id, &w.id), &delivery, ("webhook_test", &body), now)
            .await?;
        if !queued {
            let off = w.disabled.as_deref().unwrap_or("deleted");
            return Err(AccountError::Invalid {
                detail: format!("webhook '{id}' is switched off ({off}): register the endpoint again"),
                field: "webhook",
            });
        }
        Ok(delivery)
    }

    /// Endpoint `id`'s deliveries, newest first, before `before`
    /// (`created_at`, `id`); at most `limit`.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn deliveries(
        &self,
        who: &Principal,
        id: &str,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<Delivery>, AccountError> {
        let w = self.get(who, id).await?;
        Ok(self
            .store
            .deliveries((&who.account_id, &w.id), before, limit)
            .await?
            .into_iter()
            .map(Delivery::from)
            .collect())
    }
}

fn no_webhook(id: &str) -> AccountError {
    AccountError::NotFound(format!("this account has no webhook '{id}'"))
}
