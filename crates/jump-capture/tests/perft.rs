//! Perft vectors from `data/perft.txt` (`docs/rules.md` §9): the fast generator
//! must reproduce every count, and the small ones are re-counted by the
//! reference generator of `common/mod.rs`.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{pos, reference_perft};
use jump_capture::{DirectionSet, Preset};

struct Vector {
    line: usize,
    preset: Preset,
    dirs: DirectionSet,
    depth: u32,
    count: u64,
    position: String,
}

fn vectors() -> Vec<Vector> {
    include_str!("data/perft.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut f = l.splitn(5, ' ');
            let mut next = || f.next().unwrap_or_else(|| panic!("line {}: too few fields", i + 1));
            Vector {
                line: i + 1,
                preset: next().parse().unwrap(),
                dirs: next().parse().unwrap(),
                depth: next().parse().unwrap(),
                count: next().parse().unwrap(),
                position: next().to_string(),
            }
        })
        .collect()
}

#[test]
fn perft_matches_every_vector_in_the_data_file() {
    let vs = vectors();
    assert!(vs.len() >= 50, "the data file has {} vectors", vs.len());
    for v in vs {
        if cfg!(debug_assertions) && v.count > 5_000_000 {
            continue; // counted in release builds (cargo test --release)
        }
        let p = pos(v.preset.spec().with_directions(v.dirs), &v.position);
        assert_eq!(
            p.perft_unbounded(v.depth),
            v.count,
            "line {}: {} {} depth {}",
            v.line,
            v.preset,
            v.dirs,
            v.depth
        );
    }
}

#[test]
fn small_vectors_agree_with_the_reference_generator() {
    let mut checked = 0;
    for v in vectors().into_iter().filter(|v| v.count <= 20_000) {
        let spec = v.preset.spec().with_directions(v.dirs);
        let p = pos(spec.clone(), &v.position);
        let spec = spec.with_shape_of(&p.grid());
        assert_eq!(reference_perft(&spec, &p, v.depth), v.count, "line {}", v.line);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} small vectors");
}

#[test]
fn divide_sums_to_perft_and_is_sorted_by_move_string() {
    for v in vectors().into_iter().filter(|v| v.depth >= 2 && v.count <= 200_000) {
        let p = pos(v.preset.spec().with_directions(v.dirs), &v.position);
        let divide = p.divide_unbounded(v.depth);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), v.count, "line {}", v.line);
        let names: Vec<String> = divide.iter().map(|(m, _)| m.to_string()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(divide.len() as u64, p.count_moves_unbounded());
    }
}
