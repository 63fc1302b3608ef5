//! The chat of a game: short lines from its players (spectators read), bounded in length,
//! count and rate. A pure domain: the caller gives the time.

use std::collections::VecDeque;
use std::fmt;

use morris_core::{ByColor, Color};
use serde::Serialize;

use crate::clock::Millis;

/// The longest line, in characters.
pub const MAX_LINE: usize = 140;
/// The most lines a game keeps.
pub const MAX_LINES: usize = 200;
/// The most lines one side may send in [`RATE_WINDOW`].
pub const RATE_LINES: usize = 5;
/// See [`RATE_LINES`].
pub const RATE_WINDOW: Millis = 10_000;

/// A line of chat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Its number in the game, from 0.
    pub n: u32,
    /// Who wrote it.
    pub side: crate::response::Side,
    /// The text, as written (the page shows it as text only).
    pub text: String,
    /// When, in milliseconds since 1970.
    pub at: Millis,
}

/// Why a line is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatRefusal {
    /// Empty after trimming.
    Empty,
    /// Longer than [`MAX_LINE`].
    TooLong,
    /// Holds control characters.
    Control,
    /// Faster than [`RATE_LINES`] in [`RATE_WINDOW`].
    TooFast,
    /// The game holds [`MAX_LINES`].
    Full,
}

impl fmt::Display for ChatRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChatRefusal::Empty => f.write_str("the message is empty"),
            ChatRefusal::TooLong => write!(f, "a message has at most {MAX_LINE} characters"),
            ChatRefusal::Control => f.write_str("the message holds control characters"),
            ChatRefusal::TooFast => write!(
                f,
                "at most {RATE_LINES} messages in {} seconds: wait a moment",
                RATE_WINDOW / 1000
            ),
            ChatRefusal::Full => f.write_str("this game's chat is full"),
        }
    }
}

impl std::error::Error for ChatRefusal {}

/// Checks a line's text: trimmed, not empty, not too long, no control characters, and
/// without the format characters that would hide it or turn it around
/// ([`crate::text::visible_line`]).
///
/// # Errors
///
/// The refusal.
pub fn checked(text: &str) -> Result<String, ChatRefusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatRefusal::Empty);
    }
    if text.chars().count() > MAX_LINE {
        return Err(ChatRefusal::TooLong);
    }
    if text.chars().any(char::is_control) {
        return Err(ChatRefusal::Control);
    }
    // Invisible and direction-changing characters are taken out; a line of nothing but
    // them is empty.
    crate::text::visible_line(text).ok_or(ChatRefusal::Empty)
}

/// The recent lines of each side, to bound the rate.
#[derive(Debug, Clone, Default)]
pub struct ChatRate {
    sent: ByColor<VecDeque<Millis>>,
}

impl ChatRate {
    /// Counts a line of `side` at `now`, or refuses it when the side sent too many lately.
    ///
    /// # Errors
    ///
    /// [`ChatRefusal::TooFast`].
    pub fn allow(&mut self, side: Color, now: Millis) -> Result<(), ChatRefusal> {
        let sent = self.sent.get_mut(side);
        while sent.front().is_some_and(|t| now - t >= RATE_WINDOW) {
            sent.pop_front();
        }
        if sent.len() >= RATE_LINES {
            return Err(ChatRefusal::TooFast);
        }
        sent.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_checked() {
        assert_eq!(checked("  hi  ").unwrap(), "hi");
        assert_eq!(checked("   "), Err(ChatRefusal::Empty));
        assert_eq!(checked(&"x".repeat(141)), Err(ChatRefusal::TooLong));
        assert!(checked(&"é".repeat(140)).is_ok());
        assert_eq!(checked("a\u{1b}[31m"), Err(ChatRefusal::Control));
        assert_eq!(checked("<b>hi</b>").unwrap(), "<b>hi</b>", "kept as text");
        assert_eq!(checked("\u{200B}"), Err(ChatRefusal::Empty));
        assert_eq!(checked("gg \u{202E}ez").unwrap(), "gg ez");
    }

    #[test]
    fn the_rate_is_bounded_per_side_and_window() {
        let mut rate = ChatRate::default();
        for i in 0..RATE_LINES as i64 {
            rate.allow(Color::White, i).unwrap();
        }
        assert_eq!(rate.allow(Color::White, 100), Err(ChatRefusal::TooFast));
        assert!(rate.allow(Color::Black, 100).is_ok());
        assert!(rate.allow(Color::White, RATE_WINDOW).is_ok());
    }
}
