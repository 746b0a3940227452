//! What a name from outside may hold: players', rule sets' and kinds'.
//!
//! A name is shown to other people, so it may not hold characters that
//! change how text around it is shown: control characters (NUL, ESC, …),
//! format characters (the bidirectional overrides and isolates such as
//! U+202E, zero-width spaces and joiners, the byte order mark, …) and the
//! line and paragraph separators. Each kind of name has a length cap.

/// The longest rule set name, in characters.
pub const MAX_RULES_NAME: usize = 64;
/// The longest kind name, in characters.
pub const MAX_KIND_NAME: usize = 32;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty once trimmed.
    #[error("a {what} is 1 to {max} characters; this one is empty")]
    Empty {
        /// Whose name.
        what: &'static str,
        /// The cap.
        max: usize,
    },
    /// Too long.
    #[error("a {what} is 1 to {max} characters; this one has {chars}")]
    TooLong {
        /// Whose name.
        what: &'static str,
        /// The cap.
        max: usize,
        /// Its length.
        chars: usize,
    },
    /// A control, format or separator character.
    #[error(
        "a {what} may not hold control or format characters; character {at} is U+{code:04X}",
        code = u32::from(*ch)
    )]
    Forbidden {
        /// Whose name.
        what: &'static str,
        /// The character.
        ch: char,
        /// Where, counting from 1.
        at: usize,
    },
}

/// What a name looks like, whatever its case and script: Unicode's
/// confusable skeleton (UTS #39) of the lower case of its skeleton, so
/// that `Alice`, `alice`, `AIice` (a capital i) and `Аlice` (a Cyrillic
/// А) look the same. Two names that look the same cannot be told apart on
/// screen. A capital I is an l to the skeleton and an i to the lower
/// case, so i and l are one letter here.
pub fn look(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let first: String = skeleton(name.trim()).collect();
    skeleton(&first.to_lowercase()).map(|c| if c == 'i' { 'l' } else { c }).collect()
}

/// `name` trimmed, if it is 1 to `max` characters of which none is
/// [forbidden](is_forbidden); `what` names it in the error.
///
/// # Errors
///
/// [`NameError`] saying what is wrong and where.
pub fn check<'a>(name: &'a str, what: &'static str, max: usize) -> Result<&'a str, NameError> {
    let name = name.trim();
    if let Some((i, ch)) = name.chars().enumerate().find(|&(_, c)| is_forbidden(c)) {
        return Err(NameError::Forbidden { what, ch, at: i + 1 });
    }
    match name.chars().count() {
        0 => Err(NameError::Empty { what, max }),
        chars if chars > max => Err(NameError::TooLong { what, max, chars }),
        _ => Ok(name),
    }
}

/// `name` with each [forbidden](is_forbidden) character replaced by
/// U+FFFD: for names stored before they were checked, shown safely.
pub fn sanitized(name: &str) -> String {
    name.chars().map(|c| if is_forbidden(c) { '\u{FFFD}' } else { c }).collect()
}

/// Whether `c` is a control character (Unicode category Cc), a format
/// character (Cf), or a line or paragraph separator (Zl, Zp).
pub fn is_forbidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || is_format(c)
}

/// Unicode's format characters (general category Cf, Unicode 16).
fn is_format(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_format_and_separator_characters_are_refused_with_where() {
        for (name, code, at) in [
            ("ann\u{202E}nna", 0x202E, 4),
            ("a\u{0}b", 0, 2),
            ("\u{1B}[31mred", 0x1B, 1),
            ("zero\u{200B}width", 0x200B, 5),
            ("bom\u{FEFF}", 0xFEFF, 4),
            ("iso\u{2066}late", 0x2066, 4),
            ("line\u{2028}sep", 0x2028, 5),
            ("tag\u{E0041}", 0xE0041, 4),
            ("soft\u{AD}hyphen", 0xAD, 5),
        ] {
            let err = check(name, "player's name", 64).unwrap_err();
            assert_eq!(
                err,
                NameError::Forbidden { what: "player's name", ch: char::from_u32(code).unwrap(), at }
            );
            assert!(err.to_string().contains(&format!("U+{code:04X}")), "{err}");
        }
    }

    #[test]
    fn letters_of_every_script_and_emoji_are_welcome() {
        for name in ["Ann", "Zoë", "Ἀθηνᾶ", "שרה", "محمد", "李小龙", "🐸 frog", "O'Brien-Smith"]
        {
            assert_eq!(check(&format!("  {name} "), "name", 64), Ok(name));
        }
    }

    #[test]
    fn lengths_are_counted_in_characters_after_trimming() {
        assert_eq!(check(&"é".repeat(64), "name", 64).map(str::len), Ok(128));
        assert_eq!(
            check(&"é".repeat(65), "name", 64),
            Err(NameError::TooLong { what: "name", max: 64, chars: 65 })
        );
        assert_eq!(check("   ", "name", 64), Err(NameError::Empty { what: "name", max: 64 }));
    }

    #[test]
    fn stored_names_are_shown_without_their_forbidden_characters() {
        assert_eq!(sanitized("ann\u{202E}nna\u{0}"), "ann\u{FFFD}nna\u{FFFD}");
        assert_eq!(sanitized("Zoë"), "Zoë");
    }

    #[test]
    fn names_that_differ_in_case_or_by_a_look_alike_look_the_same() {
        let alice = look("Alice");
        for same in ["alice", "ALICE", "AIice", "\u{410}lice", "Al\u{456}ce", " Alice ", "A1ice"] {
            assert_eq!(look(same), alice, "{same:?}");
        }
        for other in ["Alicia", "Bob", "Alice2"] {
            assert_ne!(look(other), alice, "{other}");
        }
        assert_eq!(look("B0b"), look("bob"), "a zero is an O");
        assert_eq!(look("Mark"), look("rnark"), "m is r and n");
    }
}
