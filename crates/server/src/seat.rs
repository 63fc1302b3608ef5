//! Who plays: game ids, seat tokens, players and the names people give themselves.

use std::fmt;
use std::str::FromStr;

use morris_core::Color;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Random bytes from the operating system.
///
/// # Panics
///
/// Panics if the operating system has no source of randomness, which no supported system lacks.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    bytes
}

/// The id of a game: 12 characters of `a-z0-9` (about 62 random bits), part of its link.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

const ID_ALPHABET: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const ID_LEN: usize = 12;

impl GameId {
    /// A new random id.
    pub fn random() -> GameId {
        let bytes = random_bytes::<ID_LEN>();
        // 252 is the largest multiple of 36 below 256: the bias of `% 36` on it is under 2 %,
        // and an id is a name, not a secret.
        GameId(
            bytes
                .iter()
                .map(|b| ID_ALPHABET[(*b as usize) % ID_ALPHABET.len()] as char)
                .collect(),
        )
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for GameId {
    type Err = ();

    /// Reads an id; anything but 12 characters of `a-z0-9` is no id.
    fn from_str(s: &str) -> Result<GameId, ()> {
        if s.len() == ID_LEN && s.bytes().all(|b| ID_ALPHABET.contains(&b)) {
            Ok(GameId(s.to_owned()))
        } else {
            Err(())
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The secret of a seat: 128 random bits, written as 32 lower-case hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Token([u8; 16]);

impl Token {
    /// A new random token.
    pub fn random() -> Token {
        Token(random_bytes())
    }

    /// The hash kept in the database: a leaked database gives away no seat.
    pub fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl FromStr for Token {
    type Err = ();

    /// Reads 32 hex digits (either case).
    fn from_str(s: &str) -> Result<Token, ()> {
        if s.len() != 32 || !s.is_ascii() {
            return Err(());
        }
        let mut bytes = [0u8; 16];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| ())?;
        }
        Ok(Token(bytes))
    }
}

impl Serialize for Token {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The SHA-256 of a [`Token`], as stored.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// Compares in time independent of where the hashes differ.
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(…)")
    }
}

/// The seat a token holds: one colour, or both in a game on one device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// One colour.
    One(Color),
    /// Both colours (a local game).
    Both,
}

impl Seat {
    /// Whether this seat may play for `color`.
    pub fn plays(self, color: Color) -> bool {
        match self {
            Seat::One(c) => c == color,
            Seat::Both => true,
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Seat::One(c) => s.serialize_str(c.name()),
            Seat::Both => s.serialize_str("both"),
        }
    }
}

/// Who asks for a change: the holder of a seat's token, or a player (by their session) whom
/// the game seats.
#[derive(Debug, Clone, Copy)]
pub enum Holder<'a> {
    /// A seat's token.
    Token(&'a Token),
    /// A player of the session.
    Player(crate::accounts::PlayerId),
}

impl<'a> From<&'a Token> for Holder<'a> {
    fn from(t: &'a Token) -> Holder<'a> {
        Holder::Token(t)
    }
}

impl From<crate::accounts::PlayerId> for Holder<'_> {
    fn from(p: crate::accounts::PlayerId) -> Holder<'static> {
        Holder::Player(p)
    }
}

/// Whom the creator of a game plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// The engine, at a level.
    Computer,
    /// A friend online, through an invitation link.
    Friend,
    /// Two people on one device: one token plays both seats.
    Local,
}

impl Opponent {
    /// The stable lower-case name, as in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Opponent::Computer => "computer",
            Opponent::Friend => "friend",
            Opponent::Local => "local",
        }
    }

    /// The opponent of a stable name.
    pub fn from_name(name: &str) -> Option<Opponent> {
        [Opponent::Computer, Opponent::Friend, Opponent::Local]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// A name a person gives: at most 40 characters, no control characters, trimmed, not empty.
///
/// The page shows it as text only; the server keeps it as given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Name(String);

/// The longest name accepted, in characters.
pub const MAX_NAME: usize = 40;

impl Name {
    /// Checks a name.
    ///
    /// # Errors
    ///
    /// A message when it is empty, too long or holds control characters.
    pub fn new(text: &str) -> Result<Name, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("the name is empty".into());
        }
        if text.chars().count() > MAX_NAME {
            return Err(format!("the name is longer than {MAX_NAME} characters"));
        }
        if crate::text::has_hidden(text) {
            return Err("the name holds control or invisible characters".into());
        }
        let text: String = unicode_normalization::UnicodeNormalization::nfkc(text).collect();
        if crate::text::is_reserved(&text) {
            return Err("this name is kept for the site: choose another".into());
        }
        Ok(Name(text))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        let text = String::deserialize(d)?;
        Name::new(&text).map_err(serde::de::Error::custom)
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    /// A person, with the name they gave, if any.
    Human(Option<Name>),
    /// The engine at a level from 1 to 10.
    Computer(u8),
}

impl Player {
    /// Whether the engine plays this seat.
    pub fn is_computer(&self) -> bool {
        matches!(self, Player::Computer(_))
    }

    /// The name a person gave, if any (`None` for the computer too).
    pub fn shown_name(&self) -> Option<String> {
        match self {
            Player::Human(n) => n.as_ref().map(|n| n.as_str().to_owned()),
            Player::Computer(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_round_trip() {
        let t = Token::random();
        let text = t.to_string();
        assert_eq!(text.len(), 32);
        assert!(text.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(text.parse::<Token>(), Ok(t.clone()));
        assert_eq!(text.to_uppercase().parse::<Token>(), Ok(t));
        assert!("abc".parse::<Token>().is_err());
        assert!("zz".repeat(16).parse::<Token>().is_err());
        assert!("é".repeat(16).parse::<Token>().is_err());
    }

    #[test]
    fn tokens_differ_and_hashes_match_only_their_token() {
        let a = Token::random();
        let b = Token::random();
        assert_ne!(a, b);
        assert!(a.hash().matches(&a.hash()));
        assert!(!a.hash().matches(&b.hash()));
        assert_eq!(format!("{a:?}"), "Token(…)");
    }

    #[test]
    fn ids_are_checked() {
        let id = GameId::random();
        assert_eq!(id.as_str().parse::<GameId>(), Ok(id.clone()));
        assert!("ABCDEFGHIJKL".parse::<GameId>().is_err());
        assert!("../etc/passw".parse::<GameId>().is_err());
        assert!("short".parse::<GameId>().is_err());
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(Name::new("  Ann ").unwrap().as_str(), "Ann");
        assert!(Name::new("   ").is_err());
        assert!(Name::new(&"é".repeat(40)).is_ok());
        assert!(Name::new(&"é".repeat(41)).is_err());
        assert!(Name::new("a\u{0}b").is_err());
        assert!(Name::new("\u{202E}retupmoC").is_err());
        assert!(Name::new("a\u{200B}b").is_err());
        assert!(Name::new("Computer").is_err());
        assert!(Name::new("admin").is_err());
        assert_eq!(Name::new("ＡＮＮ").unwrap().as_str(), "ANN", "NFKC");
        assert_eq!(
            Name::new("<script>alert(1)</script>").unwrap().as_str(),
            "<script>alert(1)</script>",
            "kept as text; the page shows it as text"
        );
    }

    #[test]
    fn seats_play_their_colours() {
        assert!(Seat::One(Color::White).plays(Color::White));
        assert!(!Seat::One(Color::White).plays(Color::Black));
        assert!(Seat::Both.plays(Color::Black));
    }
}
