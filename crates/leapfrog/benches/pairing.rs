//! Pairing speed: a Swiss of 64 players paired round by round to its
//! seventh (results drawn from a fixed seed), and a 256-player field's
//! next round; the bar is under 100 ms a round for the 64. (Here, not in
//! the core: the core is built without criterion's dependencies.)

use criterion::{Criterion, criterion_group, criterion_main};
use leapfrog::tournament::{History, Outcome, Pairing, Round, swiss_round};

/// `players` paired and played for `rounds` rounds, results from `seed`.
fn played(players: usize, rounds: usize, mut seed: u64) -> History {
    let mut h = History::new(players);
    for _ in 0..rounds {
        let round = swiss_round(&h);
        let games = round
            .games
            .iter()
            .map(|g| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let outcome = [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw][(seed % 3) as usize];
                Pairing { outcome: Some(outcome), ..*g }
            })
            .collect();
        h.rounds.push(Round { games, bye: round.bye });
    }
    h
}

fn pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss");
    group.sample_size(20);
    for (players, before) in [(64, 0), (64, 3), (64, 6), (256, 8)] {
        let h = played(players, before, 0x9e37_79b9_7f4a_7c15);
        group.bench_function(format!("{players} players, round {}", before + 1), |b| {
            b.iter(|| swiss_round(&h))
        });
    }
    group.finish();
}

criterion_group!(benches, pairing);
criterion_main!(benches);
