//! The webhook sender (rule book §16): claims the outbox's due deliveries
//! (so that of a fleet's processes exactly one sends each try, and no
//! endpoint or account has more than its share in flight), sends them on
//! the runtime, and records each answer — delivered, tried again later,
//! failed, or the endpoint switched off.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc, oneshot};

use super::sender::{Answer, Reach, Sender, Try, redacted};
use crate::events::Hub;
use leapfrog_store::{ACCOUNT_KEY, Due, Sent, Share, Store};
use leapfrog_wire::account_events::{AccountEventData, WebhookDisabledEvent};

/// How often the outbox is looked at when nothing wakes it (deliveries
/// due for a retry, test deliveries).
pub const TICK: Duration = Duration::from_millis(500);
/// How long a wake-up waits for more events to claim with it.
const GATHER: Duration = Duration::from_millis(25);
/// The waits before each try after the first (Standard Webhooks' schedule).
pub const RETRIES_MS: [i64; 7] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000];
/// An endpoint failing this long (milliseconds) is switched off.
pub const FAILING_FOR_MS: i64 = 86_400_000;
/// How long an old secret still signs after a rotation (milliseconds).
pub const ROTATION_MS: i64 = 86_400_000;
/// Tries in flight at once from one process (each a task waiting on a
/// socket, not a thread).
const SENDING: usize = 64;
/// Tries in flight at once to one endpoint, and to one account's
/// endpoints, from the whole fleet: a slow or hostile receiver delays only
/// its own deliveries.
pub const SHARE: Share = Share { per_endpoint: 4, per_account: 8 };
/// How long the recorder waits for more tries to record with the first.
const RECORD_WAIT: Duration = Duration::from_millis(5);
/// How long a claimed delivery is this process's (more than a try takes).
const CLAIM_MS: i64 = 30_000;

/// What a try's answer makes of a delivery that had `tries` before it,
/// at `now`, its endpoint failing since `failing_since`: delivered, tried
/// again (after the schedule's wait or the receiver's `Retry-After`, the
/// longer), failed for good, or the endpoint switched off — `gone` on
/// 410, `failing` after a day of failures.
pub fn judge(answer: &Answer, tries: i64, failing_since: Option<i64>, now: i64) -> Judged {
    let (status, error, retry_after) = match answer {
        Answer::Status(code, _) if (200..300).contains(code) => return Judged::Delivered(i64::from(*code)),
        Answer::Status(410, _) => return Judged::Off { status: Some(410), error: None, reason: "gone" },
        Answer::Status(code, after) => (Some(i64::from(*code)), None, *after),
        Answer::Failed(e) => (None, Some(e.clone()), None),
    };
    if now - failing_since.unwrap_or(now) >= FAILING_FOR_MS {
        return Judged::Off { status, error, reason: "failing" };
    }
    let Some(wait) = usize::try_from(tries).ok().and_then(|t| RETRIES_MS.get(t)) else {
        return Judged::Failed { status, error };
    };
    let asked = retry_after.map_or(0, |s| i64::try_from(s).unwrap_or(i64::MAX).saturating_mul(1000));
    Judged::Again { status, error, next_at: now + (*wait).max(asked.min(FAILING_FOR_MS)) }
}

/// [`judge`]'s verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// A 2xx answer, its status.
    Delivered(i64),
    /// Try again at `next_at`.
    Again { status: Option<i64>, error: Option<String>, next_at: i64 },
    /// No try left.
    Failed { status: Option<i64>, error: Option<String> },
    /// Switch the endpoint off, for `reason`.
    Off { status: Option<i64>, error: Option<String>, reason: &'static str },
}

/// A try's outcome on its way to be recorded, and who waits for that.
type Tried = (Due, i64, Sent, oneshot::Sender<()>);

/// Sends the outbox's deliveries for as long as the process runs.
#[derive(Debug, Clone)]
pub struct Outbox {
    store: Store,
    sender: Sender,
    sending: Arc<Semaphore>,
    record: mpsc::UnboundedSender<Tried>,
    wake: Arc<tokio::sync::Notify>,
}

impl Outbox {
    /// A sender reaching only where `reach` allows (its recorder runs on
    /// the runtime this is called on).
    ///
    /// # Errors
    ///
    /// When the HTTP client's TLS cannot be set up.
    pub fn new(store: Store, hub: Hub, reach: Reach) -> Result<Outbox, reqwest::Error> {
        let sender = Sender::new(reach)?;
        let (record, tried) = mpsc::unbounded_channel();
        let wake = hub.outbox_wake();
        tokio::spawn(record_tries(store.clone(), hub, tried));
        Ok(Outbox { store, sender, sending: Arc::new(Semaphore::new(SENDING)), record, wake })
    }

    /// Claims and sends due deliveries for as long as the process runs:
    /// at once again while there are more than places to send from (as
    /// soon as one is free), otherwise when an account's log grows or
    /// after a [`TICK`].
    pub async fn run(self) {
        loop {
            let free = self.sending.available_permits();
            match self.send_due(leapfrog_process::now_ms()).await {
                Ok(started) if free == 0 || started.len() == free => {
                    // As many were due as could be sent, perhaps more: go on when half the
                    // places are free (claims in batches: each claim is a write of its own).
                    drop(self.sending.acquire_many(SENDING as u32 / 2).await);
                    continue;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "reading the webhook outbox failed; it tries again"),
            }
            tokio::select! {
                () = tokio::time::sleep(TICK) => {}
                () = self.wake.notified() => tokio::time::sleep(GATHER).await,
            }
        }
    }

    /// Claims as many deliveries due at `now` as there are free places to
    /// send from, and starts a try of each; their handles.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn send_due(
        &self,
        now: i64,
    ) -> Result<Vec<tokio::task::JoinHandle<()>>, leapfrog_store::StoreError> {
        let free = self.sending.available_permits();
        if free == 0 {
            return Ok(vec![]);
        }
        let claim = uuid::Uuid::new_v4().simple().to_string();
        let mut started = vec![];
        for due in self.store.claim_deliveries((now, now + CLAIM_MS), &claim, free as i64, SHARE).await? {
            let Ok(place) = self.sending.clone().try_acquire_owned() else { break };
            let this = self.clone();
            started.push(tokio::spawn(async move {
                this.try_once(due, now).await;
                drop(place);
            }));
        }
        Ok(started)
    }

    /// One try of `due`, and its answer recorded.
    async fn try_once(&self, due: Due, now: i64) {
        let began = std::time::Instant::now();
        let mut secrets = vec![due.webhook.secret.as_str()];
        if let (Some(old), Some(old_until)) = (&due.webhook.old_secret, due.webhook.old_until)
            && old_until > now
        {
            secrets.push(old);
        }
        let t = Try { url: &due.webhook.url, id: &due.id, body: &due.body, secrets, timestamp: now / 1000 };
        let answer = self.sender.send(&t).await;
        let now = now + i64::try_from(began.elapsed().as_millis()).unwrap_or(0);
        let sent = match judge(&answer, due.tries, due.webhook.failing_since, now) {
            Judged::Delivered(code) => Sent::Delivered(code),
            Judged::Again { status, error, next_at } => Sent::Again { status, error, next_at },
            Judged::Failed { status, error } => Sent::Failed { status, error },
            Judged::Off { status, error, reason } => {
                let url = redacted(&due.webhook.url);
                let data =
                    WebhookDisabledEvent { webhook: due.webhook.id.clone(), url, reason: reason.to_string() };
                let data = AccountEventData::WebhookDisabled(data);
                let event = crate::events::account::event(&due.webhook.account_id, &data, now);
                Sent::Disable { status, error, reason, event }
            }
        };
        if matches!(sent, Sent::Delivered(_)) {
            tracing::debug!(delivery = %due.id, webhook = %due.webhook.id, "webhook delivered");
        } else {
            let url = redacted(&due.webhook.url);
            tracing::info!(delivery = %due.id, webhook = %due.webhook.id, %url, answer = ?answer, "webhook try failed");
        }
        let (done, recorded) = oneshot::channel();
        if self.record.send((due, now, sent, done)).is_ok() {
            let _ = recorded.await;
        }
    }
}

/// Records the tries' outcomes as they come, those that came together in
/// one transaction (one sync of the disk for many tries); then tells
/// each try, and the streams of the accounts whose endpoint was switched off.
async fn record_tries(store: Store, hub: Hub, mut tried: mpsc::UnboundedReceiver<Tried>) {
    while let Some(first) = tried.recv().await {
        // Tries end one by one: a moment's wait gathers those ending with it into one write.
        tokio::time::sleep(RECORD_WAIT).await;
        let mut batch = vec![first];
        while batch.len() < 256
            && let Ok(next) = tried.try_recv()
        {
            batch.push(next);
        }
        let mut waiting = Vec::with_capacity(batch.len());
        let mut off = Vec::new();
        let tries = batch
            .into_iter()
            .map(|(due, now, sent, done)| {
                if matches!(sent, Sent::Disable { .. }) {
                    off.push(due.webhook.account_id.clone());
                }
                waiting.push(done);
                (due, now, sent)
            })
            .collect();
        match store.record_deliveries(tries).await {
            Ok(_) => {
                for account in off {
                    hub.notify(&format!("{ACCOUNT_KEY}{account}"));
                }
            }
            // Their claims lapse and they are tried again (a receiver dedups by webhook-id).
            Err(e) => tracing::warn!(error = %e, "recording webhook tries failed; they are made again"),
        }
        for done in waiting {
            let _ = done.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000_000_000;

    #[test]
    fn a_2xx_answer_delivers_and_a_410_switches_the_endpoint_off() {
        assert_eq!(judge(&Answer::Status(204, None), 3, Some(NOW - 10), NOW), Judged::Delivered(204));
        assert_eq!(
            judge(&Answer::Status(410, None), 0, None, NOW),
            Judged::Off { status: Some(410), error: None, reason: "gone" }
        );
    }

    #[test]
    fn failures_are_tried_again_on_the_schedule_then_given_up() {
        let mut waits = vec![];
        for tries in 0..7 {
            match judge(&Answer::Status(500, None), tries, Some(NOW), NOW) {
                Judged::Again { next_at, status: Some(500), .. } => waits.push(next_at - NOW),
                other => panic!("try {tries}: {other:?}"),
            }
        }
        assert_eq!(waits, RETRIES_MS);
        let last = judge(&Answer::Failed("refused".into()), 7, Some(NOW), NOW);
        assert_eq!(last, Judged::Failed { status: None, error: Some("refused".into()) });
    }

    #[test]
    fn retry_after_is_honoured_when_longer_up_to_a_day() {
        let again = |after| match judge(&Answer::Status(503, Some(after)), 0, None, NOW) {
            Judged::Again { next_at, .. } => next_at - NOW,
            other => panic!("{other:?}"),
        };
        assert_eq!(again(1), 5_000);
        assert_eq!(again(60), 60_000);
        assert_eq!(again(u64::MAX), FAILING_FOR_MS);
    }

    #[test]
    fn a_day_of_failures_switches_the_endpoint_off() {
        let since = NOW - FAILING_FOR_MS;
        assert_eq!(
            judge(&Answer::Status(500, None), 2, Some(since), NOW),
            Judged::Off { status: Some(500), error: None, reason: "failing" }
        );
        assert!(matches!(judge(&Answer::Status(500, None), 2, Some(since + 1), NOW), Judged::Again { .. }));
    }
}
