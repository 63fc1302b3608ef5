//! Players and their accounts: a player id for everyone (an anonymous player is kept by a
//! session cookie), user names and passwords for those who sign up, and sessions.
//!
//! Passwords are stored as argon2id hashes in the PHC string format; a session's secret is
//! stored as its SHA-256 only, like a seat's token. Nothing here speaks HTTP: the edge reads
//! the cookie and the CSRF header and turns [`AccountError`] into a status.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use serde::{Deserialize, Deserializer, Serialize};

use crate::seat::{Token, random_bytes};

/// The id of a player, signed up or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct PlayerId(pub i64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The shortest user name, in characters.
pub const MIN_USER_NAME: usize = 2;
/// The longest user name, in characters.
pub const MAX_USER_NAME: usize = 20;
/// The shortest password, in characters.
pub const MIN_PASSWORD: usize = 8;
/// The longest password, in bytes: the hash's work must stay bounded.
pub const MAX_PASSWORD: usize = 128;

/// A user name: 2 to 20 of `A-Z a-z 0-9 _ -`, starting with a letter or digit; a new one is
/// none of the site's own ([`UserName::check_new`]). Names are unique by their look
/// ([`crate::text::skeleton`]: no `aIice` beside `alice`); the case given at sign-up is the
/// one shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct UserName(String);

/// Why a sign-up or sign-in is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountError {
    /// The user name is not one that may be chosen.
    BadName(String),
    /// The password is too short or too long.
    BadPassword(String),
    /// Another player has that name.
    NameTaken,
    /// No account has this name and password.
    WrongPassword,
    /// The request needs a signed-in player.
    NotSignedIn,
    /// This player has already signed up.
    AlreadySignedUp,
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccountError::BadName(why) | AccountError::BadPassword(why) => f.write_str(why),
            AccountError::NameTaken => f.write_str("this user name is taken: choose another"),
            AccountError::WrongPassword => f.write_str("the user name or the password is wrong"),
            AccountError::NotSignedIn => f.write_str("sign in first"),
            AccountError::AlreadySignedUp => {
                f.write_str("you are signed in already: sign out to make another account")
            }
        }
    }
}

impl std::error::Error for AccountError {}

impl UserName {
    /// Checks a user name.
    ///
    /// # Errors
    ///
    /// [`AccountError::BadName`] with the reason.
    pub fn new(text: &str) -> Result<UserName, AccountError> {
        let bad = |why: String| Err(AccountError::BadName(why));
        let n = text.chars().count();
        if !(MIN_USER_NAME..=MAX_USER_NAME).contains(&n) {
            return bad(format!(
                "a user name has {MIN_USER_NAME} to {MAX_USER_NAME} characters"
            ));
        }
        if !text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return bad("a user name holds only letters a-z, digits, '_' and '-'".into());
        }
        if !text.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            return bad("a user name starts with a letter or a digit".into());
        }
        Ok(UserName(text.to_owned()))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Checks that a name may be chosen at sign-up: besides [`UserName::new`]'s rules, it is
    /// none of the site's own names ([`crate::text::is_reserved`]).
    ///
    /// # Errors
    ///
    /// [`AccountError::BadName`].
    pub fn check_new(&self) -> Result<(), AccountError> {
        if crate::text::is_reserved(&self.0) {
            return Err(AccountError::BadName(
                "this user name is kept for the site: choose another".into(),
            ));
        }
        Ok(())
    }
}

impl FromStr for UserName {
    type Err = AccountError;

    fn from_str(s: &str) -> Result<UserName, AccountError> {
        UserName::new(s)
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for UserName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UserName, D::Error> {
        let text = String::deserialize(d)?;
        UserName::new(text.trim()).map_err(serde::de::Error::custom)
    }
}

/// A password as given: 8 characters to 128 bytes. Never logged or shown.
#[derive(Clone)]
pub struct Password(String);

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

impl Password {
    /// Checks a password's length.
    ///
    /// # Errors
    ///
    /// [`AccountError::BadPassword`].
    pub fn new(text: &str) -> Result<Password, AccountError> {
        if text.chars().count() < MIN_PASSWORD {
            return Err(AccountError::BadPassword(format!(
                "a password has at least {MIN_PASSWORD} characters"
            )));
        }
        if text.len() > MAX_PASSWORD {
            return Err(AccountError::BadPassword(format!(
                "a password has at most {MAX_PASSWORD} bytes"
            )));
        }
        Ok(Password(text.to_owned()))
    }
}

impl Password {
    /// Checks that a new password is not one of the most common, nor guessed from the
    /// user name, nor made of a few repeated keys: zxcvbn (the dictionaries of leaked
    /// passwords, names and words, keyboard walks, repeats and dates) must put it at
    /// 10⁶ guesses or more (its score 2).
    ///
    /// # Errors
    ///
    /// [`AccountError::BadPassword`].
    pub fn check_strength(&self, user_name: &str) -> Result<(), AccountError> {
        let score = zxcvbn::zxcvbn(&self.0, &[user_name, "morris", "mill", "mills"]).score();
        if score < zxcvbn::Score::Two {
            return Err(AccountError::BadPassword(
                "this password is too common or too easy to guess: choose another (a few \
                 unusual words make a good one)"
                    .into(),
            ));
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Password {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Password, D::Error> {
        let text = String::deserialize(d)?;
        Password::new(&text).map_err(serde::de::Error::custom)
    }
}

/// The cost of the password hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashCost {
    /// Memory in KiB (argon2's `m`).
    pub memory_kib: u32,
    /// Passes (argon2's `t`).
    pub passes: u32,
}

impl Default for HashCost {
    /// The parameters OWASP recommends for argon2id: 19 MiB, 2 passes, 1 lane.
    fn default() -> HashCost {
        HashCost {
            memory_kib: 19 * 1024,
            passes: 2,
        }
    }
}

fn hasher(cost: HashCost) -> Argon2<'static> {
    let params = Params::new(cost.memory_kib, cost.passes, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of a password's argon2id hash with a fresh salt. Slow by design: call it
/// off the async threads.
pub fn hash_password(password: &Password, cost: HashCost) -> String {
    let Ok(salt) = SaltString::encode_b64(&random_bytes::<16>()) else {
        return String::new();
    };
    match hasher(cost).hash_password(password.0.as_bytes(), &salt) {
        Ok(hash) => hash.to_string(),
        // Neither a 16-byte salt nor a bounded password can fail; an empty hash matches no
        // password, so a failure could only lock the account, never open it.
        Err(_) => String::new(),
    }
}

/// Whether a password matches a stored PHC string (whose own parameters are used). Slow by
/// design.
pub fn verify_password(password: &Password, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.0.as_bytes(), &hash)
            .is_ok()
    })
}

/// The password hashing of a server: the cost of new hashes, the hash that a name without an
/// account is checked against, and a count of the argon2 runs (hashes and checks) done.
#[derive(Debug)]
pub struct Passwords {
    cost: HashCost,
    decoy: String,
    runs: AtomicU64,
}

impl Passwords {
    /// Hashing at `cost`; the decoy is hashed once, here, so that checking a name without an
    /// account costs one argon2 run, as a wrong password does.
    pub fn new(cost: HashCost) -> Passwords {
        Passwords {
            cost,
            decoy: hash_password(&Password("decoy-password".into()), cost),
            runs: AtomicU64::new(0),
        }
    }

    /// The PHC string of a password's hash with a fresh salt. Slow by design: call it off the
    /// async threads.
    pub fn hash(&self, password: &Password) -> String {
        self.runs.fetch_add(1, Ordering::Relaxed);
        hash_password(password, self.cost)
    }

    /// Whether a password matches the stored hash of an account, or, for a name without an
    /// account (`None`), false after the same work. Slow by design.
    pub fn verify(&self, password: &Password, stored: Option<&str>) -> bool {
        match stored {
            Some(stored) => {
                self.runs.fetch_add(1, Ordering::Relaxed);
                verify_password(password, stored)
            }
            None => {
                self.runs.fetch_add(1, Ordering::Relaxed);
                let _ = verify_password(password, &self.decoy);
                false
            }
        }
    }

    /// The argon2 runs done so far.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }
}

/// A session nobody has used for this long ends: 30 days, in seconds.
pub const SESSION_IDLE: i64 = 30 * 24 * 3600;

/// A session ends this long after it began (at the visit, sign-up, sign-in or change of
/// password that made it), however much it is used: 180 days, in seconds.
pub const SESSION_MAX_AGE: i64 = 180 * 24 * 3600;

/// The session of a browser or client: its player, and the token that every state-changing
/// request it authorises by cookie must repeat in a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The player.
    pub player: PlayerId,
    /// The player's user name once signed up.
    pub name: Option<UserName>,
    /// The CSRF token: 32 hex digits.
    pub csrf: String,
    /// When the session began, in seconds since 1970.
    pub created: i64,
    /// When it was last used, in seconds since 1970 (written at most every
    /// [`SESSION_TOUCH`] seconds).
    pub seen: i64,
}

/// How stale the stored time of a session's last use may get before a request writes it.
pub const SESSION_TOUCH: i64 = 600;

impl Session {
    /// Whether the session has ended by time at `now` (seconds since 1970): unused for
    /// [`SESSION_IDLE`], or older than [`SESSION_MAX_AGE`].
    pub fn expired(&self, now: i64) -> bool {
        now - self.seen > SESSION_IDLE || now - self.created > SESSION_MAX_AGE
    }
}

/// A session as its owner sees it in the list of their sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionInfo {
    /// The session's id in the list: 16 hex digits of its cookie's hash (the cookie itself
    /// cannot be found from it).
    pub id: String,
    /// When it began, in seconds since 1970.
    pub created: i64,
    /// When it was last used, in seconds since 1970 (to within ten minutes).
    pub seen: i64,
    /// The browser or program it was made by, as it says (at most 160 characters).
    pub agent: String,
    /// Whether it is the session of the request that asked.
    pub current: bool,
}

/// The id of a session in its owner's list: the first 8 bytes of its cookie's hash, in hex.
pub fn session_id(hash: &crate::seat::TokenHash) -> String {
    hash.0[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The longest `User-Agent` kept with a session, in characters.
pub const MAX_AGENT: usize = 160;

/// A `User-Agent` as kept with a session: printable characters only, at most [`MAX_AGENT`].
pub fn agent_text(header: &str) -> String {
    header
        .chars()
        .filter(|c| !c.is_control() && !crate::text::is_format(*c))
        .take(MAX_AGENT)
        .collect()
}

/// A new CSRF token.
pub fn new_csrf() -> String {
    Token::random().to_string()
}

/// Compares two texts in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHEAP: HashCost = HashCost {
        memory_kib: 64,
        passes: 1,
    };

    #[test]
    fn user_names_are_bounded_to_a_plain_charset() {
        assert!(UserName::new("ann").is_ok());
        assert!(UserName::new("Ann_2-b").is_ok());
        assert!(UserName::new("a").is_err());
        assert!(UserName::new(&"a".repeat(21)).is_err());
        assert!(UserName::new("_ann").is_err());
        assert!(UserName::new("an n").is_err());
        assert!(UserName::new("änn").is_err());
        assert!(UserName::new("<b>").is_err());
    }

    #[test]
    fn passwords_are_bounded_and_never_shown() {
        assert!(Password::new("short").is_err());
        assert!(Password::new(&"x".repeat(129)).is_err());
        let p = Password::new("correct horse").unwrap();
        assert_eq!(format!("{p:?}"), "Password(…)");
    }

    #[test]
    fn common_and_guessable_passwords_are_refused() {
        for weak in [
            "password",
            "        ",
            "12345678",
            "qwertyuiop",
            "iloveyou1",
            "aaaaaaaaaaaa",
            "password123",
            "ann12345",
            "morris123",
        ] {
            let p = Password::new(weak).unwrap();
            assert!(p.check_strength("ann").is_err(), "{weak} accepted");
        }
        for good in [
            "correct horse battery",
            "another password",
            "a new password",
            "load-test password",
            "crash test password",
            "long enough",
        ] {
            let p = Password::new(good).unwrap();
            assert_eq!(p.check_strength("ann"), Ok(()), "{good} refused");
        }
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let p = Password::new("correct horse").unwrap();
        let hash = hash_password(&p, CHEAP);
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password(&p, &hash));
        assert!(!verify_password(
            &Password::new("wrong horse").unwrap(),
            &hash
        ));
        assert!(!verify_password(&p, ""));
        assert_ne!(hash, hash_password(&p, CHEAP), "each hash has its own salt");
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
