//! A rated game's end (rule book §13): the players' ratings read, updated
//! by Glicko-2 from the final ranking and written with the end, exactly
//! once.

use super::{GameError, Games, TRIES, encode};
use crate::accounts::rating::Rating;
use leapfrog_core::game::{Change, Game, RatingChange};
use leapfrog_store::{Commit, EndWrite, GameRows, KeyRecord, MoveRow, RatingRow, RatingWrite, SeatRow};

impl Games {
    /// A rated game's end (rule book §13): every player's rating in the
    /// game's pool, read, updated by Glicko-2 from the final ranking and
    /// written with the end in one transaction — exactly once, also when
    /// processes race: the game's version decides the end, and each rating
    /// is written only if it is still as read (another game's end coming
    /// first means reading it again). `changes` made `next` from `before`,
    /// whose log held `first` events.
    pub(super) async fn commit_rated_end(
        &self,
        before: &Game,
        next: Game,
        (first, changes): (u64, &[Change]),
        moved: Option<&MoveRow>,
        seat: Option<&SeatRow>,
        key: Option<&KeyRecord>,
    ) -> Result<Option<Game>, GameError> {
        let pool = next.pool().ok_or_else(|| GameError::corrupt(next.id(), "rating pool", "none"))?;
        let result =
            next.result().ok_or_else(|| GameError::corrupt(next.id(), "result", "none at the end"))?;
        let mut rank = vec![0; next.seats().len()];
        for s in &result.outcome.standings {
            rank[s.player] = s.rank;
        }
        // Seats whose account was deleted meanwhile are left out.
        let rated: Vec<(usize, &str)> =
            next.seats().iter().filter_map(|s| s.account.as_deref().map(|a| (s.player, a))).collect();
        for _ in 0..TRIES {
            let mut read = Vec::with_capacity(rated.len());
            for &(_, account) in &rated {
                read.push(self.store.rating(account, &pool).await?);
            }
            let ranks: Vec<usize> = rated.iter().map(|&(p, _)| rank[p]).collect();
            let (writes, rating_changes) = rated_end(&rated, &ranks, &read, &pool);
            let ended = next.clone().with_rating_changes(rating_changes);
            let row = ended.to_changed_row()?;
            let events = encode(changes, &ended, first, ended.updated_at())?;
            let accounts = crate::events::account::of_changes(changes, &ended, ended.updated_at());
            let end = match moved {
                Some(m) => EndWrite::Move(m, key),
                None => EndWrite::Seats(seat),
            };
            match self
                .store
                .commit_rated_end(
                    &row,
                    before.version(),
                    end,
                    (&events, &accounts),
                    &writes,
                    ended.updated_at(),
                )
                .await?
            {
                Commit::Done => {
                    self.tell(&ended);
                    self.tell_accounts(&accounts);
                    return Ok(Some(ended));
                }
                // The game moved: another change ended it (or came first).
                Commit::Conflict if self.load(before.id()).await?.version() != before.version() => {
                    return Ok(None);
                }
                // A rating moved: read them again.
                Commit::Conflict => {}
            }
        }
        Err(GameError::Conflict)
    }
}

/// The ratings written and the rating changes told at a rated game's end
/// (rule book §13): each seat's of `rated` (its player and account), read
/// as `read` (none: a new rating), by Glicko-2 from its rank in `ranks`.
fn rated_end(
    rated: &[(usize, &str)],
    ranks: &[usize],
    read: &[Option<RatingRow>],
    pool: &str,
) -> (Vec<RatingWrite>, Vec<RatingChange>) {
    let ratings: Vec<Rating> = read
        .iter()
        .map(|r| {
            r.as_ref().map_or(Rating::NEW, |r| Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            })
        })
        .collect();
    let after = crate::accounts::rating::after_game(&ratings, ranks);
    let mut writes = Vec::with_capacity(rated.len());
    let mut changes = Vec::with_capacity(rated.len());
    for (i, &(player, account)) in rated.iter().enumerate() {
        let games_before = read[i].as_ref().map_or(0, |r| r.games);
        writes.push(RatingWrite {
            row: RatingRow {
                account_id: account.to_string(),
                pool: pool.to_string(),
                rating: after[i].rating,
                deviation: after[i].deviation,
                volatility: after[i].volatility,
                games: games_before + 1,
            },
            games_before,
        });
        changes.push(RatingChange {
            player,
            before: (ratings[i].rating, ratings[i].deviation),
            after: (after[i].rating, after[i].deviation),
        });
    }
    (writes, changes)
}
