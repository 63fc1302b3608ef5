//! Text that players type and others see: names and chat lines.
//!
//! Three kinds of trick are kept out. Invisible and direction-changing characters (Unicode's
//! format characters, category Cf: U+202E turns the rest of a line around, U+200B shows
//! nothing) are refused in names and taken out of chat lines. Look-alike names are caught by
//! a *skeleton* (NFKC, case folded, the letters and digits that look alike made one), so that
//! `aIice` and `al1ce` cannot sign up beside `alice`, nor a guest's free-text name pass for
//! an account or the computer. And a list of names that speak for the site (`admin`,
//! `moderator`, `morris`…) is reserved.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Whether a character is a format character (category Cf: the bidirectional controls, the
/// zero-width space and joiners, the soft hyphen…) or one of the letters that show as
/// nothing (the Hangul fillers, the blank Braille pattern).
pub fn is_format(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
        || matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{180E}'
        )
}

/// Whether a text holds a character that may not be in a name: a control or format
/// character, or a line or paragraph separator.
pub fn has_hidden(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// A chat line as shown: NFC, its format characters taken out (a zero-width joiner stays
/// where it joins two visible characters, as in emoji), and `None` when nothing visible is
/// left.
pub fn visible_line(text: &str) -> Option<String> {
    let chars: Vec<char> = text.nfc().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == '\u{200D}' {
            let joins = i > 0
                && chars
                    .get(i + 1)
                    .is_some_and(|n| !is_format(*n) && !n.is_whitespace())
                && !is_format(chars[i - 1])
                && !chars[i - 1].is_whitespace();
            if joins {
                out.push(c);
            }
        } else if !is_format(c) && !matches!(c, '\u{2028}' | '\u{2029}') {
            out.push(c);
        }
    }
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
}

/// The skeleton of a name: what it looks like, for telling look-alikes apart. NFKC (so that
/// full-width and styled letters become plain ones), case folded, `i`, `1`, `|` and `!` made
/// `l` (an `I` is an `l` in many fonts), `0` made `o`, `rn` made `m`, `vv` made `w`, and spaces, dots and
/// the marks between words dropped.
pub fn skeleton(name: &str) -> String {
    let folded: String = name
        .nfkc()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            'i' | '1' | '|' | '!' | 'ı' => Some('l'),
            '0' => Some('o'),
            ' ' | '.' | '_' | '-' | '\u{00B7}' => None,
            c => Some(c),
        })
        .collect();
    folded.replace("rn", "m").replace("vv", "w")
}

/// The names that speak for the site, as skeletons.
const RESERVED: [&str; 24] = [
    "admin",
    "administrator",
    "anonymous",
    "computer",
    "engine",
    "guest",
    "help",
    "info",
    "lobby",
    "mod",
    "moderator",
    "morris",
    "nobody",
    "null",
    "official",
    "operator",
    "owner",
    "root",
    "security",
    "server",
    "staff",
    "support",
    "system",
    "webmaster",
];

/// The words that no name may hold, as skeletons: a name with them speaks for the site.
const RESERVED_PARTS: [&str; 4] = ["admin", "moderator", "morrisofficial", "sysop"];

/// Whether a name (any case, any look-alike) is one of the site's own.
pub fn is_reserved(name: &str) -> bool {
    let s = skeleton(name);
    let s = s.trim_end_matches(|c: char| c.is_ascii_digit());
    RESERVED.iter().any(|r| skeleton(r) == s)
        || RESERVED_PARTS.iter().any(|r| s.contains(&skeleton(r)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_characters_are_found() {
        for c in [
            '\u{202E}', '\u{200B}', '\u{2066}', '\u{200F}', '\u{00AD}', '\u{FEFF}',
        ] {
            assert!(is_format(c), "{:04X}", c as u32);
            assert!(has_hidden(&format!("a{c}b")));
        }
        assert!(has_hidden("a\nb"));
        assert!(!has_hidden("Ann Müller"));
        assert!(!has_hidden("名人"));
    }

    #[test]
    fn chat_lines_lose_what_cannot_be_seen() {
        assert_eq!(visible_line("\u{200B}"), None);
        assert_eq!(visible_line(" \u{202E}\u{2066} "), None);
        assert_eq!(
            visible_line("good \u{202E}game").as_deref(),
            Some("good game")
        );
        // A joiner inside an emoji stays; one at the edge goes.
        let family = "\u{1F468}\u{200D}\u{1F469}";
        assert_eq!(visible_line(family).as_deref(), Some(family));
        assert_eq!(visible_line("\u{200D}hi").as_deref(), Some("hi"));
        // Decomposed letters are composed.
        assert_eq!(visible_line("e\u{0301}").as_deref(), Some("é"));
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        let alice = skeleton("alice");
        for n in [
            "aIice",
            "al1ce",
            "ALICE",
            "Alice",
            "a l i c e",
            "ａｌｉｃｅ",
        ] {
            assert_eq!(skeleton(n), alice, "{n}");
        }
        assert_eq!(skeleton("modern"), skeleton("modem"));
        assert_ne!(skeleton("alice"), skeleton("alicia"));
        assert_ne!(skeleton("bob"), skeleton("rob"));
    }

    #[test]
    fn the_sites_names_are_reserved() {
        for n in [
            "admin",
            "Administrator",
            "root",
            "system",
            "moderator",
            "Computer",
            "morris",
            "support",
            "C0mputer",
            "ADMIN2",
            "the_admin",
            "m0derator-x",
        ] {
            assert!(is_reserved(n), "{n}");
        }
        for n in ["alice", "morrison", "rooted", "helper", "Ann", "computers4"] {
            assert!(!is_reserved(n), "{n}");
        }
    }
}
