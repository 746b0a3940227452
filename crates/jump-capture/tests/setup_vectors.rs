//! `docs/rules.md` §3: the same rule set and seed give the same board on every
//! platform and in every release. These boards are pinned: if one changes,
//! every saved game's seed replays differently, so a change here is a
//! breaking change, never a fix.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use jump_capture::{DirectionSet, Position, Preset, Rules};

fn dealt(preset: Preset, rows: u8, cols: u8, dirs: DirectionSet, players: usize, seed: u64) -> String {
    let rules = Rules::new(preset.spec().with_size(rows, cols).with_directions(dirs)).unwrap();
    Position::start(rules, players, Some(seed)).unwrap().0.to_string()
}

#[test]
fn murray_15x15_seed_1() {
    assert_eq!(
        dealt(Preset::Murray, 15, 15, DirectionSet::Orthogonal, 2, 1),
        "YRYRYYRRGWWYRGY/RWWRRYYRWYWWWYW/YYWRWGWWWYYYRWW/YRRWRWYRRYYYGYG/WWRWWRRWYWWWYRG/\
         WGWRWWRRGGGGWRY/WGWWYYWYWWWYWWW/WGGWRWGWYWWGWWW/YWWRWRWYWYWYYYY/RWRYYWYWRYRWWYY/\
         GWRYYWRYRWYRWWW/WYYYWWWYYWGRYWY/GYYRYYWRWWWYWWY/WWGYRGGYWRWWYWY/RYRWYYWWRYWYRWR 0 0,0"
    );
}

#[test]
fn froglet_12x12_seed_1() {
    assert_eq!(
        dealt(Preset::Froglet, 12, 12, DirectionSet::Orthogonal, 2, 1),
        "GYYGRYRGRGRG/GGYYGGGYYYGG/GBYRGGGRBGGY/GGGGYGYBYRBY/GGYRRYGYGRGG/YGBYGGYRYGYR/\
         GGGYYYYYGRGY/GGYGGYYRRYYY/GGGYGRGRGYRG/GYRGYGGYYGYG/YYGRGYGYGYYG/YGYGRGGGGBYY 0 0,0"
    );
}

#[test]
fn old_and_konane_need_no_seed_but_accept_one() {
    assert_eq!(dealt(Preset::Old, 3, 4, DirectionSet::Orthogonal, 1, 1), "OOOO/OOOO/OOOO 0 0");
    assert_eq!(
        dealt(Preset::Konane, 8, 8, DirectionSet::Orthogonal, 2, 1),
        "BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB/BWBWBWBW/WBWBWBWB 0 0,0"
    );
    assert_eq!(
        dealt(Preset::Konane, 4, 6, DirectionSet::Orthogonal, 2, 9),
        "BWBWBW/WBWBWB/BWBWBW/WBWBWB 0 0,0"
    );
}

#[test]
fn other_sizes_and_player_counts() {
    assert_eq!(
        dealt(Preset::Murray, 5, 5, DirectionSet::Orthogonal, 2, 2),
        "RWYRW/RWRWW/YWWWY/YGRYG/YYWYW 0 0,0"
    );
    assert_eq!(
        dealt(Preset::Froglet, 4, 6, DirectionSet::Orthogonal, 3, 3),
        "GGRGYY/YGGGYY/RYYGRG/YYGGGB 0 0,0,0"
    );
    assert_eq!(
        dealt(Preset::Murray, 18, 18, DirectionSet::All, 2, 42),
        "GWGWWYWRWYYWRYGYWY/GYWRWYYWWWGWWWWGRW/WWRRRGYGWWRWGWRYYY/RRWRWWWWYWRGWRRWYW/\
         WYWRWRWYYYWGWWGWYW/WWRRWYWRWGWYWRWWWG/RYYYWYWRRWGWYYWYRY/YYRYYGYWWYWWWYWGGY/\
         WWRYYYRRYRWYYRYRYR/RRYWRYYYYYWGRYWWRY/GWYWYGRRYYWYYWWWGG/YWWWRWYWWRYWYYWYWY/\
         WWWWWYWWWYWYGGWWWR/WWGWYWWWGWRWRYRYWY/WRYYWWRRGRWWWRYRWY/YWYGWWWWWWYWWRYRWR/\
         WWYRYRYRYYYWYRYWYY/RRRYRWWGYYRYGWYRGW 0 0,0"
    );
}

#[test]
fn the_direction_set_does_not_change_the_deal() {
    assert_eq!(
        dealt(Preset::Murray, 9, 9, DirectionSet::Orthogonal, 2, 77),
        dealt(Preset::Murray, 9, 9, DirectionSet::All, 2, 77)
    );
}
