//! The hand-written move pages against serde_json and the engine: the same
//! bytes as serde's for every move and page, fields out of range refused
//! by name, and no page past its budget on random custom rule sets.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::*;

#[test]
fn the_name_tables_spell_every_cell_as_the_engine_does() {
    for f in 0..26 {
        for r in 0..26 {
            let c = jc::Cell::new(f, r).unwrap();
            let name = c.to_string();
            let quoted = QUOTED_NAMES[slot(c)];
            let len = (quoted >> 56) as usize;
            assert_eq!(&quoted.to_le_bytes()[1..len], format!("\"{name}\"").as_bytes(), "{c}");
            let joined = JOINED_NAMES[slot(c)];
            let len = (joined >> 56) as usize;
            assert_eq!(&joined.to_le_bytes()[..len], format!("x{name}").as_bytes(), "{c}");
            assert_eq!((joined & ((1 << 56) - 1)) >> (8 * len), 0, "{c}: nothing past the name");
        }
    }
}

/// Removals, jumps and chains up to the longest written through a
/// window and past it, with one- and two-digit ranks, and gains of every
/// length up to the largest, read as serde writes them: through a
/// window where there is room for one, and without, in exactly the
/// room a move takes (less its comma).
#[test]
fn written_moves_are_the_serde_json_moves_for_every_gain() {
    let chain = |cells: usize| {
        (0..cells).map(|i| if i % 2 == 0 { "x24" } else { "z24" }).collect::<Vec<_>>().join("x")
    };
    let long = (0..40).map(|i| if i % 2 == 0 { "j10" } else { "l10" }).collect::<Vec<_>>().join("x");
    for text in ["c3", "z26", "c3xe3xe5", "a9xa11xc11xe9", "x24xz26", &chain(SHORT), &chain(SHORT + 1), &long]
    {
        let mv: jc::Move = text.parse().unwrap();
        let cells = mv.path().len();
        for gain in [0, 7, 10, 99, 100, 255, 256, 12_345_678, 123_456_789, 1_000_000_000, u32::MAX] {
            let m = jc::ScoredPath { path: mv.path(), gain };
            for room in [MoveWriter::room(cells), 16 * cells + 80 - 1] {
                let mut out = vec![0; room];
                let mut w = MoveWriter { buf: &mut out, at: 0 };
                w.move_json(m);
                let len = w.at;
                assert_eq!(
                    String::from_utf8(out[..len].to_vec()).unwrap(),
                    serde_json::to_string(&MoveView::of(m)).unwrap(),
                    "{text} scoring {gain} in {room} bytes"
                );
            }
        }
    }
}

#[test]
fn an_empty_path_is_still_written_as_json() {
    let mut out = vec![0; MoveWriter::room(0)];
    let mut w = MoveWriter { buf: &mut out, at: 0 };
    w.move_json(jc::ScoredPath { path: &[], gain: 0 });
    let len = w.at;
    assert_eq!(&out[..len], br#"{"path":[],"notation":"","captures":[],"gain":0}"#);
}

/// What `serde_json` writes for the page, built from the engine's
/// sorted move list, each move checked on the board: the reference the
/// written page is held to.
fn serde_page(pos: &jc::Position, from: Option<&str>, limit: Option<usize>, cursor: Option<&str>) -> String {
    let from = from.map(|f| f.parse::<jc::Cell>().unwrap());
    let list: Vec<jc::Move> =
        pos.legal_moves_unbounded().into_iter().filter(|m| from.is_none_or(|f| m.from() == f)).collect();
    let start = cursor.map(|c| parse_cursor(c).unwrap()).unwrap_or(0);
    let end = start.saturating_add(limit.unwrap_or(DEFAULT_PAGE)).min(list.len());
    let page = LegalMovesResponse {
        count: list.len() as u64,
        moves: list[start.min(end)..end]
            .iter()
            .map(|mv| {
                // Captures as checking the move on the board finds them.
                let played = pos.check(mv).unwrap();
                let captures = played.captures.iter().map(|(c, _)| c.to_string()).collect();
                MoveView { captures, ..MoveView::of_played(&played) }
            })
            .collect(),
        next_cursor: (end < list.len()).then(|| format!("m{end:x}")),
        tree: from.map(|c| JumpTree::of(&pos.jump_tree_unbounded(c))),
    };
    serde_json::to_string(&page).unwrap()
}

/// The written body is byte for byte what serde_json writes: openings
/// (removals), middle games (long chains, gains over 9), the jump tree,
/// middle and last pages.
#[test]
fn the_written_page_is_the_serde_json_page() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (preset, dirs) in [
        (jc::Preset::Murray, jc::DirectionSet::Orthogonal),
        (jc::Preset::Old, jc::DirectionSet::All),
        (jc::Preset::Froglet, jc::DirectionSet::Diagonal),
        (jc::Preset::Konane, jc::DirectionSet::Orthogonal),
    ] {
        let rules = jc::Rules::new(preset.spec().with_directions(dirs)).unwrap();
        let (mut pos, _) = jc::Position::start(rules, 2, Some(3)).unwrap();
        for ply in 0..60 {
            let from = pos.legal_moves_unbounded().first().map(|m| m.from().to_string());
            for (from, limit, cursor) in [
                (None, None, None),
                (None, Some(3), Some("m2")),
                (None, Some(1), Some("m3e8")),
                (from.as_deref(), Some(1000), None),
                (from.as_deref(), Some(1), Some("m1")),
            ] {
                let page = write_page(&pos, from, limit, cursor).unwrap();
                assert_eq!(
                    std::str::from_utf8(page.to_json()).unwrap(),
                    serde_page(&pos, from, limit, cursor),
                    "{preset:?} ply {ply}, from {from:?}, limit {limit:?}, cursor {cursor:?}"
                );
            }
            let Some(mv) = pos.random_move_unbounded(&mut rng) else { break };
            pos.play(&mv).unwrap();
        }
    }
}

#[test]
fn limits_cursors_and_cells_out_of_range_are_refused_by_field() {
    let (pos, _) = jc::Position::start(jc::Preset::Old.rules(), 2, Some(1)).unwrap();
    for (from, limit, cursor, field) in [
        (None, Some(0), None, "limit"),
        (None, Some(MAX_PAGE + 1), None, "limit"),
        (None, None, Some("x12"), "cursor"),
        (Some("k"), None, None, "from"),
    ] {
        assert_eq!(write_page(&pos, from, limit, cursor).unwrap_err().field, field);
    }
}

/// A custom rule set of `rows × cols` of one kind of piece, and a
/// position of it with `holes` as a fraction of its cells — or, with
/// `lattice`, of its cells on even ranks and files, where chains branch
/// at every hole and moves grow past any budget.
fn custom_position(
    seed: u64,
    (rows, cols): (u8, u8),
    holes: f64,
    lattice: bool,
    dirs: usize,
    straight: bool,
) -> jc::Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut spec = jc::Preset::Old.spec().with_size(rows, cols);
    spec.directions = [jc::DirectionSet::Orthogonal, jc::DirectionSet::Diagonal, jc::DirectionSet::All][dirs];
    spec.chain = if straight { jc::Chain::Straight } else { jc::Chain::Free };
    spec.opening = jc::Opening::None;
    let rules = jc::Rules::new(spec).unwrap();
    let mut grid = jc::Grid::filled(rows, cols, jc::Square::Piece('O'));
    for r in 0..rows {
        for f in 0..cols {
            let here = !lattice || (r % 2 == 0 && f % 2 == 0);
            if here && rand::RngExt::random_bool(&mut rng, holes) {
                grid.set(jc::Cell::new(f, r).unwrap(), jc::Square::Empty);
            }
        }
    }
    let setup = jc::Setup { grid, ply: 0, scores: vec![0, 0] };
    jc::Position::from_setup(std::sync::Arc::new(rules), &setup).unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Over random custom rule sets and positions up to the documented
    /// sizes: a page is within its budget, or refused as over it; a
    /// tree has at most its budget of nodes.
    #[test]
    fn no_page_goes_past_its_budget(
        seed in proptest::prelude::any::<u64>(),
        rows in 3u8..=26, cols in 3u8..=26,
        holes in 0.02f64..1.0, lattice in proptest::prelude::any::<bool>(),
        dirs in 0usize..3, straight in proptest::prelude::any::<bool>(),
        file in 0u8..26, rank in 0u8..26, cursor in 0usize..2_000_000,
    ) {
        let pos = custom_position(seed, (rows, cols), holes, lattice, dirs, straight);
        let from = jc::Cell::new(file % cols, rank % rows).unwrap().to_string();
        let cursor = format!("m{cursor:x}");
        for (from, cursor) in [(None, None), (None, Some(cursor.as_str())), (Some(from.as_str()), None)] {
            match write_page(&pos, from, Some(MAX_PAGE), cursor) {
                Ok(page) => {
                    let page: serde_json::Value = serde_json::from_slice(page.to_json()).unwrap();
                    let budget = if from.is_some() { budget::CELL_MOVES } else { budget::MOVES };
                    proptest::prop_assert!(page["count"].as_u64().unwrap() <= budget.paths());
                    proptest::prop_assert!(page["moves"].as_array().unwrap().len() <= MAX_PAGE);
                    if let Some(tree) = page.get("tree") {
                        fn nodes(t: &serde_json::Value) -> u64 {
                            1 + t["next"].as_array().map_or(0, |n| n.iter().map(nodes).sum())
                        }
                        proptest::prop_assert!(nodes(tree) <= budget::CELL_MOVES.paths() + 1);
                    }
                }
                Err(e) => proptest::prop_assert_eq!(e.kind, Refusal::OverBudget, "{}", e),
            }
        }
    }
}
