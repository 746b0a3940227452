//! What a name from outside may hold: players', rule sets' and kinds'.
//!
//! A name is shown to other people, so it may not hold characters that
//! change how text around it is shown: control characters (NUL, ESC, …),
//! format characters (the bidirectional overrides and isolates such as
//! U+202E, zero-width spaces and joiners, the byte order mark, …) and the
//! line and paragraph separators — nor characters that show as nothing:
//! Unicode's default-ignorable code points (variation selectors, the
//! Hangul fillers, …), the Braille blank and every space but the ASCII
//! one. A name is kept in NFC, so that one spelling is stored whatever
//! the keyboard sent. Each kind of name has a length cap.

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
    /// A control, format, separator or invisible character.
    #[error(
        "a {what} may not hold control, format or invisible characters; character {at} is U+{code:04X}",
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
/// case, so i and l are one letter here. Combining marks are left out
/// (`alicé` looks like `alice`): an accent is easily missed on screen.
pub fn look(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    use unicode_security::confusable_detection::skeleton;
    let bare: String = name.trim().nfd().filter(|&c| !is_combining_mark(c)).collect();
    let first: String = skeleton(&bare).collect();
    skeleton(&first.to_lowercase())
        .filter(|&c| !is_combining_mark(c))
        .map(|c| if c == 'i' { 'l' } else { c })
        .collect()
}

/// `name` trimmed and in NFC, if it is 1 to `max` characters of which
/// none is [forbidden](is_forbidden); `what` names it in the error.
///
/// # Errors
///
/// [`NameError`] saying what is wrong and where (counted in the name as
/// sent, trimmed).
pub fn check(name: &str, what: &'static str, max: usize) -> Result<String, NameError> {
    use unicode_normalization::UnicodeNormalization;
    let name = name.trim();
    if let Some((i, ch)) = name.chars().enumerate().find(|&(_, c)| is_forbidden(c)) {
        return Err(NameError::Forbidden { what, ch, at: i + 1 });
    }
    let name: String = name.nfc().collect();
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
/// character (Cf), a line or paragraph separator (Zl, Zp), a
/// default-ignorable code point, the Braille blank (U+2800) or a space
/// other than the ASCII one: everything that changes how text around it
/// is shown, or shows as nothing.
pub fn is_forbidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{2800}')
        || (c.is_whitespace() && c != ' ')
        || is_format(c)
        || is_default_ignorable(c)
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt,
/// Unicode 16): shown as nothing when a font has no glyph for it — the
/// Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the combining
/// grapheme joiner, variation selectors, Mongolian and Khmer vowel
/// inherents, the unassigned ignorable planes.
fn is_default_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x34F
            | 0x61C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
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
    fn invisible_letters_and_blanks_are_refused() {
        for (name, code, at) in [
            ("alice\u{2800}", 0x2800, 6),
            ("\u{3164}", 0x3164, 1),
            ("\u{115F}\u{1160}", 0x115F, 1),
            ("a\u{FFA0}b", 0xFFA0, 2),
            ("ali\u{34F}ce", 0x34F, 4),
            ("frog\u{FE0F}", 0xFE0F, 5),
            ("no\u{A0}break", 0xA0, 3),
            ("ideo\u{3000}space", 0x3000, 5),
            ("og\u{1680}ham", 0x1680, 3),
        ] {
            assert_eq!(
                check(name, "player's name", 64),
                Err(NameError::Forbidden { what: "player's name", ch: char::from_u32(code).unwrap(), at }),
                "{name:?}"
            );
        }
    }

    #[test]
    fn names_are_kept_in_nfc() {
        assert_eq!(check("alice\u{301}", "name", 64).as_deref(), Ok("alic\u{E9}"));
        assert_eq!(check("Zo\u{EB}", "name", 64).as_deref(), Ok("Zo\u{EB}"));
    }

    #[test]
    fn an_accent_does_not_make_a_name_look_different() {
        let alice = look("alice");
        for same in ["alic\u{E9}", "alice\u{301}", "\u{E1}lice", "A\u{308}lice"] {
            assert_eq!(look(same), alice, "{same:?}");
        }
    }

    #[test]
    fn letters_of_every_script_and_emoji_are_welcome() {
        for name in ["Ann", "Zoë", "Ἀθηνᾶ", "שרה", "محمد", "李小龙", "🐸 frog", "O'Brien-Smith"]
        {
            assert_eq!(check(&format!("  {name} "), "name", 64).as_deref(), Ok(name));
        }
    }

    #[test]
    fn lengths_are_counted_in_characters_after_trimming() {
        assert_eq!(check(&"é".repeat(64), "name", 64).map(|n| n.len()), Ok(128));
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
