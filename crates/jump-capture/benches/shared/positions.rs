//! The positions measured, shared by `benches/perft.rs` and
//! `examples/perft_probe.rs`.

use jump_capture::{DirectionSet, Position, Preset, Rules};

/// The middle games measured: each dealt from seed 1, then 40 uniformly
/// random moves from a ChaCha8 generator seeded with 1, as the engine chose
/// them on 2026-11-22. Pinned as position strings, so that the figures stay
/// comparable when the engine's own move order (which `random_move` draws
/// from) changes.
pub const MURRAY_15_ORTHOGONAL: &str = "YRYRYYRRGWWYRGY/RWWRRYYRWYWWWYW/YYWRWGWWWY1YRWW/YRRWRWYRRY3YG/WWRWWRRW2Y1YRG/WGWRWW1RG3WRY/WGWWYY1Y4WWW/WGGWR1R5WWW/YWWRWRWY2WYYYY/RYRYYW6WYY/G2YYW6WWW/WW1YWWW5YWY/GRR1YYW1RY1W2Y/W1GYRGG3W3Y/RYRWYYWR1WWYRWR 40 51,59";
pub const MURRAY_18_ALL: &str = "YRYWWWYGWYRYGWYWYW/WYWYWYYWRYYRYRYWWW/WGWYWGRGYWYWWYYWWW/RWYYYYRWWWYWRWGRWW/WYWWRWWWRGWWWGWGWR/YYYGRWYYWYYWWWWWWR/WRRY1YYYGGG1RGW2Y/WYGG1RW1RYW1W4R/GYYWR1YR7W2/WYGYGRWW9W/RYYWW2G2Y2Y2YR/WYRRWWG1R1W5RW/RYWYYWYWW7YY/YYRRYW6W3RR/RYYYYWW1Y7YY/WRWRWRWW1YY3YWWY/WRRRYYYRRWWW1WRYRW/WWWYYRWGRYYGGWWYWW 40 78,71";

pub fn position(preset: Preset, dirs: DirectionSet, text: &str) -> Position {
    let setup: jump_capture::Setup = text.parse().unwrap();
    let rules = Rules::new(preset.spec().with_shape_of(&setup.grid).with_directions(dirs)).unwrap();
    Position::from_setup(rules, &setup).unwrap()
}
/// Capture's start: the 61-cell hexagon full but its centre (`hex`
/// directions, boards drawn by a mask).
#[allow(dead_code)] // measured by the benchmark, not by the probe
pub const CAPTURE_START: &str =
    "----OOOOO/---OOOOOO/--OOOOOOO/-OOOOOOOO/OOOO1OOOO/OOOOOOOO-/OOOOOOO--/OOOOOO---/OOOOO---- 0 0,0";
