//! An account's webhook endpoints (rule book §16): made with a secret
//! shown once, listed, deleted, tested, their secret rotated, their
//! recent deliveries listed. Sending them is [`crate::events::outbox`]'s.

use super::{AccountError, Accounts, Principal};
use crate::events::outbox::ROTATION_MS;
use crate::events::webhook::{self, Reach};
use leapfrog_store::{DeliveryRow, WebhookRow};
use leapfrog_wire::account_events::AccountEventKind;

/// Endpoints one account may have.
pub const MOST: usize = 5;

/// An endpoint just made, or rotated: with its secret, shown this once.
#[derive(Debug, Clone)]
pub struct WithSecret {
    /// The endpoint.
    pub webhook: WebhookRow,
    /// Its (new) secret.
    pub secret: String,
}

impl Accounts {
    /// Registers an endpoint for `who`: `url` checked against `reach` (its
    /// scheme, and the addresses its host has now), `events` among
    /// the account events' kinds (none: all).
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for a URL refused (`url`), an unknown
    /// event (`events`) or the account's [`MOST`] endpoints (`webhooks`).
    pub async fn create_webhook(
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
        let secret = webhook::new_secret()?;
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
        Ok(WithSecret { webhook: row, secret })
    }

    /// `who`'s endpoints, oldest first.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn webhooks(&self, who: &Principal) -> Result<Vec<WebhookRow>, AccountError> {
        Ok(self.store.webhooks(&who.account_id).await?)
    }

    /// Endpoint `id` of `who`.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn webhook(&self, who: &Principal, id: &str) -> Result<WebhookRow, AccountError> {
        self.store.webhook(&who.account_id, id).await?.ok_or_else(|| no_webhook(id))
    }

    /// Deletes endpoint `id` of `who`, with its deliveries.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn delete_webhook(&self, who: &Principal, id: &str) -> Result<(), AccountError> {
        if self.store.delete_webhook(&who.account_id, id).await? { Ok(()) } else { Err(no_webhook(id)) }
    }

    /// Gives endpoint `id` a new secret; the old one signs too for a day,
    /// so that a receiver can switch without losing a delivery.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id.
    pub async fn rotate_webhook(&self, who: &Principal, id: &str) -> Result<WithSecret, AccountError> {
        let secret = webhook::new_secret()?;
        let until = leapfrog_process::now_ms() + ROTATION_MS;
        if !self.store.rotate_webhook(&who.account_id, id, &secret, until).await? {
            return Err(no_webhook(id));
        }
        Ok(WithSecret { webhook: self.webhook(who, id).await?, secret })
    }

    /// Queues a `webhook_test` delivery to endpoint `id`; its id.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when `who` has none of that id;
    /// [`AccountError::Invalid`] (field `webhook`) when it is switched off.
    pub async fn test_webhook(&self, who: &Principal, id: &str) -> Result<String, AccountError> {
        let w = self.webhook(who, id).await?;
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
    ) -> Result<Vec<DeliveryRow>, AccountError> {
        let w = self.webhook(who, id).await?;
        Ok(self.store.deliveries((&who.account_id, &w.id), before, limit).await?)
    }
}

fn no_webhook(id: &str) -> AccountError {
    AccountError::NotFound(format!("this account has no webhook '{id}'"))
}
