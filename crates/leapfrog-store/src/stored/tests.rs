//! Stored forms as earlier code wrote them: they read back, and today's
//! code writes the same bytes.

#![allow(clippy::unwrap_used)]

use super::*;

/// Rule sets as the code before this module wrote them (through the
/// API's `RuleSet`): they read as the same rules, and are written again
/// byte for byte.
#[test]
fn rules_stored_before_read_as_the_same_rules_and_write_the_same() {
    let written = [
        (
            jc::Preset::Old.rules(),
            r#"{"preset":"old","name":"old","rows":15,"cols":15,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"O","name":"piece","value":1,"owner":null}],"fill":{"type":"random","weights":[1]},"capture":"shared","chain":"free","opening":{"type":"each_player_removes","kinds":null},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}"#,
        ),
        (
            jc::Preset::Konane.rules(),
            r#"{"preset":"konane","name":"konane","rows":8,"cols":8,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"B","name":"black","value":0,"owner":0},{"letter":"W","name":"white","value":0,"owner":1}],"fill":{"type":"checkerboard","top_left":"B","other":"W"},"capture":"owned","chain":"straight","opening":{"type":"konane","kinds":null},"removals_score":false,"end":"no_move_loses","min_players":2,"max_players":2}"#,
        ),
        (
            jc::Preset::Murray.rules(),
            r#"{"preset":"murray","name":"murray","rows":15,"cols":15,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"W","name":"white","value":1,"owner":null},{"letter":"Y","name":"yellow","value":2,"owner":null},{"letter":"R","name":"red","value":3,"owner":null},{"letter":"G","name":"green","value":4,"owner":null}],"fill":{"type":"random","weights":[4,3,2,1]},"capture":"shared","chain":"free","opening":{"type":"each_player_removes","kinds":null},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}"#,
        ),
    ];
    for (rules, json) in written {
        let read = read_rules(json).unwrap();
        assert_eq!(*read, rules, "{json}");
        assert_eq!(rules_json(&rules).unwrap(), json);
    }
    // A custom set with a mask, holes and a name stored before names
    // were checked.
    let custom = r#"{"preset":null,"name":"mine\u0007","rows":3,"cols":4,"mask":["a1"],"holes":["b2"],"directions":"all","kinds":[{"letter":"X","name":"x","value":2,"owner":null}],"fill":{"type":"random","weights":[1]},"capture":"shared","chain":"free","opening":{"type":"first_player_removes","kinds":["X"]},"removals_score":false,"end":"highest_score","min_players":1,"max_players":4}"#;
    let read = read_rules(custom).unwrap();
    assert_eq!(read.spec().name, "mine\u{FFFD}");
    assert_eq!(read.spec().mask.len(), 1);
    assert_eq!(read.spec().directions, jc::DirectionSet::All);
}

#[test]
fn results_stored_before_read_with_and_without_how_they_ended() {
    let old = r#"{"winners":[1],"shared":false,"standings":[{"player":1,"score":4,"rank":1},{"player":0,"score":2,"rank":2}]}"#;
    let r = StoredResult::read(old).unwrap();
    assert_eq!((r.ended, r.standings[1].resigned), (Ended::Play, false));
    let resigned = r#"{"winners":[0],"shared":false,"standings":[{"player":0,"score":0,"rank":1,"resigned":false},{"player":1,"score":3,"rank":2,"resigned":true}],"ended":"resignation"}"#;
    let r = StoredResult::read(resigned).unwrap();
    assert_eq!(r.ended, Ended::Resignation);
    assert_eq!(r.to_json().unwrap(), resigned);
}

#[test]
fn seats_stored_before_read_back() {
    let seating: Vec<StoredSeat> =
        serde_json::from_str(r#"[{},{"open":"private"},{"resigned":"timed_out"}]"#).unwrap();
    assert_eq!(seating[1].open, Some(OpenTo::Private));
    assert_eq!(seating[2].resigned, Some(Resigned::TimedOut));
    assert_eq!(json_of(&seating).unwrap(), r#"[{},{"open":"private"},{"resigned":"timed_out"}]"#);
}
