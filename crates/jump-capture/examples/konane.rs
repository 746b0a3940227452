//! A whole game of Konane played through the public API: the same crate
//! that plays Leap Frog, given another rule set.
//!
//! Black uses a one-ply greedy strategy (leave White the fewest moves);
//! White plays at random from a fixed seed, so the game is the same on
//! every run.
//!
//! Run: `cargo run -p jump-capture --example konane`.

use jump_capture::{Position, Preset};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn show(pos: &Position) {
    let grid = pos.grid();
    for rank in (0..grid.rows()).rev() {
        let row: String = (0..grid.cols())
            .map(|file| match pos.piece_at(jump_capture::Cell::new(file, rank).expect("on the board")) {
                Some(kind) => kind.letter,
                None => '.',
            })
            .collect();
        println!("  {:>2} {row}", rank + 1);
    }
    println!("     abcdefgh");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut pos, _) = Position::start(Preset::Konane.rules(), 2, None)?;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let names = ["Black", "White"];
    show(&pos);
    while !pos.is_over() {
        let player = pos.to_move();
        let mv = if player == 0 {
            // Greedy: the move after which the opponent has the fewest replies.
            pos.legal_moves_unbounded()
                .into_iter()
                .min_by_key(|m| {
                    let mut next = pos.clone();
                    next.play(m).map(|_| next.count_moves_unbounded()).unwrap_or(u64::MAX)
                })
                .expect("the game is not over, so a move exists")
        } else {
            pos.random_move_unbounded(&mut rng).expect("the game is not over, so a move exists")
        };
        pos.play(&mv)?;
        println!("{:>3}. {} plays {mv}", pos.ply(), names[player]);
    }
    show(&pos);
    let outcome = pos.outcome().expect("the game is over");
    let winner = outcome.winners[0];
    println!(
        "{} cannot move after {} plies: {} wins. Final position: {pos}",
        names[pos.to_move()],
        pos.ply(),
        names[winner]
    );
    Ok(())
}
