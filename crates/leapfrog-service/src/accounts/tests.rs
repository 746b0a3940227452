//! The accounts service on a real SQLite store: sign-up, sign-in with the
//! same refusal for a wrong name and a wrong password, tokens acting for
//! their account only, revocation and deletion at once.

#![allow(clippy::unwrap_used)]

use super::*;
use leapfrog_store::Durability;

struct Db(std::path::PathBuf);

impl Drop for Db {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

async fn service() -> (Db, Accounts) {
    let db = std::env::temp_dir().join(format!("leapfrog-accounts-{}.db", uuid::Uuid::new_v4()));
    let store = Store::open(&format!("sqlite://{}", db.display()), Durability::Fast).await.unwrap();
    (Db(db), Accounts::new(store, Arc::new(Hasher::new(crate::compute::pools::Share::ALL).unwrap())))
}

fn pw(p: &str) -> Password {
    Password::parse(p.into()).unwrap()
}

#[tokio::test]
async fn a_name_is_one_account_whatever_its_case_and_the_password_is_stored_hashed() {
    let (_db, accounts) = service().await;
    let ann =
        accounts.create(&AccountName::parse("Ann").unwrap(), pw("frog-spawn-1"), false, "c").await.unwrap();
    let stored = accounts.store.account(&ann.name).await.unwrap().unwrap();
    assert!(stored.password.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{}", stored.password);
    assert!(!stored.password.contains("frog-spawn-1"));
    let again = accounts.create(&AccountName::parse("aNN").unwrap(), pw("other-password"), false, "c").await;
    assert!(matches!(again, Err(AccountError::Taken(_))), "{again:?}");
    assert_eq!(accounts.profile("ANN").await.unwrap().name, "Ann");
}

#[tokio::test]
async fn a_wrong_name_and_a_wrong_password_get_the_same_refusal_after_the_same_check() {
    let (_db, accounts) = service().await;
    accounts.create(&AccountName::parse("Ann").unwrap(), pw("frog-spawn-1"), false, "c").await.unwrap();
    let before = accounts.hasher.checks();
    let wrong_name = accounts.sign_in("Bob", pw("frog-spawn-1"), "c").await.unwrap_err();
    let wrong_password = accounts.sign_in("Ann", pw("frog-spawn-2"), "c").await.unwrap_err();
    assert_eq!(wrong_name.to_string(), wrong_password.to_string());
    assert!(matches!((wrong_name, wrong_password), (AccountError::Credentials, AccountError::Credentials)));
    assert_eq!(
        accounts.hasher.checks() - before,
        2,
        "one password check each, whether the name exists or not"
    );
    assert_eq!(accounts.sign_in("ann", pw("frog-spawn-1"), "c").await.unwrap().name, "Ann");
}

#[tokio::test]
async fn a_token_acts_for_its_account_within_its_scopes_until_revoked_or_deleted() {
    let (_db, accounts) = service().await;
    let ann =
        accounts.create(&AccountName::parse("Ann").unwrap(), pw("frog-spawn-1"), false, "c").await.unwrap();
    let label = Label::parse("laptop").unwrap();
    let play = accounts.create_token(&ann, &label, "play".parse().unwrap()).await.unwrap();
    let admin = accounts.create_token(&ann, &label, "account".parse().unwrap()).await.unwrap();
    let who = accounts.authenticate(&play.token).await.unwrap();
    assert_eq!((who.name.as_str(), who.needs(Scope::Play).is_ok()), ("Ann", true));
    assert!(matches!(who.needs(Scope::Account), Err(AccountError::Scope(Scope::Account))));
    assert!(matches!(who.is("bob"), Err(AccountError::NotYours)));
    let listed = accounts.tokens(&who).await.unwrap();
    assert_eq!(listed.len(), 2);
    accounts.revoke(&who, &play.listed.id).await.unwrap();
    assert!(matches!(accounts.authenticate(&play.token).await, Err(AccountError::Unauthenticated)));
    let admin_who = accounts.authenticate(&admin.token).await.unwrap();
    // The games service deletes accounts (it cancels their challenges); the store's deletion here.
    let no_challenges: leapfrog_store::CloseChallenges = Box::new(|_| Ok((vec![], vec![])));
    accounts.store.delete_account(&admin_who.account_id, 0, no_challenges).await.unwrap();
    assert!(matches!(accounts.authenticate(&admin.token).await, Err(AccountError::Unauthenticated)));
    assert!(matches!(accounts.profile("Ann").await, Err(AccountError::NotFound(_))));
}
