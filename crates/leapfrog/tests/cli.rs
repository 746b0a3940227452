//! The command line's contract: output formats, exit codes, one-line errors.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::process::{Command, Output};

fn leapfrog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leapfrog")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn setup_prints_the_position_string_for_a_seed() {
    let o = leapfrog(&["setup", "--preset", "murray", "--size", "5", "--seed", "2"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "RWYRW/RWRWW/YWWWY/YGRYG/YYWYW 0 0,0\n");
    let o = leapfrog(&[
        "setup",
        "--preset",
        "froglet",
        "--rows",
        "4",
        "--cols",
        "6",
        "--players",
        "3",
        "--seed",
        "3",
    ]);
    assert_eq!(stdout(&o), "GGRGYY/YGGGYY/RYYGRG/YYGGGB 0 0,0,0\n");
    let o = leapfrog(&["setup", "--preset", "old", "--size", "3", "--directions", "all", "--seed", "1"]);
    assert_eq!(stdout(&o), "OOO/OOO/OOO 0 0,0\n");
}

#[test]
fn setup_without_a_seed_reports_the_one_it_drew() {
    let o = leapfrog(&["setup", "--preset", "murray", "--size", "6"]);
    assert!(o.status.success());
    let err = stderr(&o);
    let seed = err.trim().strip_prefix("seed ").expect("seed on stderr");
    let again = leapfrog(&["setup", "--preset", "murray", "--size", "6", "--seed", seed]);
    assert_eq!(stdout(&again), stdout(&o));
}

#[test]
fn moves_prints_every_legal_move_sorted() {
    let o = leapfrog(&["moves", "--preset", "old", "--position", "1OO/1OO/1OO 2 1,1"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "c1xa1\nc2xa2\nc3xa3\n");
    let o = leapfrog(&[
        "moves",
        "--preset",
        "konane",
        "--position",
        "BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB 0 0,0",
    ]);
    assert_eq!(stdout(&o), "a8\nd5\ne4\nh1\n");
}

#[test]
fn perft_prints_the_total_last_and_divide_lines_before_it() {
    let pos = "1OO/1OO/1OO 2 1,1";
    let o = leapfrog(&["perft", "--preset", "old", "--position", pos, "--depth", "2"]);
    assert_eq!(stdout(&o), "12\n");
    let o = leapfrog(&["perft", "--preset", "old", "--position", pos, "--depth", "2", "--divide"]);
    assert_eq!(stdout(&o), "c1xa1 4\nc2xa2 4\nc3xa3 4\n12\n");
    let o = leapfrog(&["perft", "--preset", "old", "--position", pos, "--depth", "0"]);
    assert_eq!(stdout(&o), "1\n");
    let o = leapfrog(&["perft", "--preset", "old", "--directions", "all", "--position", pos, "--depth", "1"]);
    assert_eq!(stdout(&o), "5\n");
}

#[test]
fn bad_arguments_and_positions_are_one_line_on_stderr_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["setup", "--preset", "chess"], "unknown preset 'chess'"),
        (&["setup", "--preset", "murray", "--size", "2"], "each side must be from 3 to 26"),
        (
            &["setup", "--preset", "murray", "--size", "300"],
            "'300' for '--size <N>': each side must be from 3 to 26",
        ),
        (&["setup", "--preset", "murray", "--rows", "5", "--cols", "27"], "'27' for '--cols <C>': each side"),
        (&["setup", "--preset", "murray", "--rows", "five", "--cols", "5"], "'five' is not a whole number"),
        (&["setup", "--preset", "konane", "--players", "3"], "3 players; these rules take 2 to 2"),
        (&["setup", "--preset", "murray", "--directions", "hexagonal"], "unknown direction set 'hexagonal'"),
        (
            &["setup", "--preset", "capture", "--rows", "9", "--cols", "9"],
            "give --size, not --rows and --cols",
        ),
        (
            &["setup", "--preset", "capture", "--size", "14"],
            "a hexagon board's side must be from 2 to 13, not 14",
        ),
        (&["setup", "--preset", "english", "--holes", "z9"], "z9"),
        (&["solve", "--preset", "capture"], "solve: the solver plays peg solitaire"),
        (&["solve", "--preset", "triangle", "--goal", "centre"], "this board has no centre"),
        (
            &["moves", "--preset", "old", "--position", "OOO/OOOO/OOO 0 0"],
            "rank 2 has 4 cells; the board is 3 wide",
        ),
        (
            &["moves", "--preset", "murray", "--position", "OOO/OOO/OOO 0 0"],
            "a1 holds 'O', which is not a piece",
        ),
        (&["moves", "--preset", "old", "--position", "OOO/OOO/OOO 0"], "three fields"),
        (&["moves", "--preset", "old"], "--position"),
        (&["perft", "--preset", "old", "--position", "OOO/OOO/OOO 0 0", "--depth", "-1"], "'-1'"),
        (&["launch"], "launch"),
    ];
    for (args, needle) in cases {
        let o = leapfrog(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&o).is_empty());
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn a_board_of_a_million_cells_is_refused_quickly() {
    // 300 × 300 (the kernel's limit on one argument is 128 KiB).
    let huge = vec!["O".repeat(300); 300].join("/") + " 0 0";
    let o = leapfrog(&["moves", "--preset", "old", "--position", &huge]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the board has 300 ranks; at most 26 are supported"));
}

#[test]
fn help_lists_the_subcommands_with_examples() {
    let o = leapfrog(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for word in ["setup", "moves", "perft", "Examples:"] {
        assert!(out.contains(word), "{out}");
    }
}

#[test]
fn solve_prints_a_perfect_english_solution_and_says_when_there_is_none() {
    let o = leapfrog(&["solve", "--preset", "english"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("solved: one peg left, on d4;") && last.contains("31 jumps"), "{out}");
    assert!(out.lines().count() > 2, "one move a line: {out}");
    let stuck =
        leapfrog(&["solve", "--preset", "english", "--position", "--O2--/--3--/7/7/7/--3--/--2O-- 30 0"]);
    assert_eq!(stuck.status.code(), Some(0));
    assert!(
        String::from_utf8(stuck.stdout)
            .unwrap()
            .starts_with("no solution: one peg left, on d4 cannot be reached")
    );
    let start =
        leapfrog(&["setup", "--preset", "triangle", "--players", "1", "--holes", "e5", "--seed", "1"]);
    let start = String::from_utf8(start.stdout).unwrap();
    assert_eq!(start.trim(), "OOOO1/OOOO-/OOO--/OO---/O---- 0 0");
    let o = leapfrog(&["solve", "--preset", "triangle", "--position", start.trim()]);
    assert!(
        String::from_utf8(o.stdout).unwrap().lines().last().unwrap().starts_with("solved: one peg left;")
    );
}
