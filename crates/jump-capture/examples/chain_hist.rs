//! Histogram of path lengths among the moves of positions two plies below a
//! seeded middle-game position (a probe for tuning the generator).
use jump_capture::{DirectionSet, Position, Preset, Rules};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn main() {
    let plies: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let rules = Rules::new(Preset::Murray.spec().with_directions(DirectionSet::Orthogonal)).unwrap();
    let (mut pos, _) = Position::start(rules, 2, Some(1)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..plies {
        let mv = pos.random_move(&mut rng).unwrap();
        pos.play(&mv).unwrap();
    }
    let mut hist = [0u64; 40];
    for a in pos.legal_moves() {
        let mut p1 = pos.clone();
        p1.play(&a).unwrap();
        for b in p1.legal_moves() {
            let mut p2 = p1.clone();
            p2.play(&b).unwrap();
            for c in p2.legal_moves() {
                hist[c.path().len().min(39)] += 1;
            }
        }
    }
    println!("{hist:?}");
}
