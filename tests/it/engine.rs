//! The rules crate as another project sees it: through its public API only.

use jump_capture::{Position, Preset};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

#[test]
fn a_dependent_crate_can_deal_and_play_a_game_to_the_end() {
    let (mut pos, _) = Position::start(Preset::Froglet.rules(), 2, Some(7)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    while let Some(mv) = pos.random_move_unbounded(&mut rng) {
        pos.play(&mv).unwrap();
    }
    let outcome = pos.outcome().expect("the game is over");
    let best = *pos.scores().iter().max().unwrap();
    assert!(!outcome.winners.is_empty());
    for w in &outcome.winners {
        assert_eq!(pos.scores()[*w], best);
    }
}
