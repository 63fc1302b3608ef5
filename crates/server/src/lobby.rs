//! The lobby: open challenges, quick pairing, and the games between people being played.
//!
//! A pure domain: no I/O and no clock of its own (every call that needs the time is given
//! it), so that tests drive it directly. A player's challenges and seeks live while the
//! player is present (has a page of the site open: its notification channel, or the lobby);
//! when the last of their connections closes they are withdrawn, except correspondence
//! challenges, which live until withdrawn, declined or [`CORRESPONDENCE_LIFE`] has passed.
//! Every collection is bounded.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use morris_core::{Color, Variant};
use serde::Serialize;

use crate::accounts::{PlayerId, UserName};
use crate::clock::{Millis, TimeControl, TimeControlView};
use crate::request::ColorChoice;

/// The most open challenges in the lobby.
pub const MAX_CHALLENGES: usize = 2000;
/// The most open challenges of one player.
pub const MAX_PER_PLAYER: usize = 3;
/// The most open challenges of one anonymous player.
pub const MAX_PER_GUEST: usize = 1;
/// The most open challenges made from one client address (an IPv6 /64 counting as one).
pub const MAX_PER_ADDR: usize = 6;
/// The most open challenges of anonymous players in all: the rest of [`MAX_CHALLENGES`] is
/// kept for signed-up players.
pub const MAX_GUEST_CHALLENGES: usize = 500;
/// The most challenges of others a viewer is sent, newest first (their own and those made
/// to them come as well).
pub const SHOWN_CHALLENGES: usize = 100;
/// The most players waiting for quick pairing.
pub const MAX_SEEKS: usize = 10_000;
/// The most games listed as being played.
pub const MAX_PLAYING: usize = 10_000;

/// How long a correspondence challenge stays open without its creator on the site: a week.
pub const CORRESPONDENCE_LIFE: Millis = 7 * 24 * 3600 * 1000;

/// How far apart two ratings may be for quick pairing when one of them has just arrived; the
/// window widens by [`WIDEN_PER_SECOND`] for every second the other has waited.
pub const FIRST_WINDOW: f64 = 150.0;
/// See [`FIRST_WINDOW`].
pub const WIDEN_PER_SECOND: f64 = 20.0;
/// The widest window.
pub const MAX_WINDOW: f64 = 800.0;

/// Who is in the lobby: a player, their name once signed up, and their rating for what they
/// ask to play.
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    /// The player.
    pub player: PlayerId,
    /// Their user name; `None` for an anonymous player.
    pub name: Option<UserName>,
    /// Their rating in the variant and class asked for.
    pub rating: f64,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// The client address it asks from, by its group
    /// ([`crate::connections::client_group`]).
    pub from: std::net::IpAddr,
    /// The players they must never meet: those they block and those who block them, as
    /// the database said when they entered (so that the newer of two entrants knows best).
    pub avoid: Vec<PlayerId>,
}

impl Entrant {
    /// Whether `self`, who has just come, may meet `other`, who waited: the newcomer's list
    /// is the newer, and names both directions.
    fn may_meet(&self, other: &Entrant) -> bool {
        !self.avoid.contains(&other.player)
    }
}

/// What a challenge or a seek asks to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Terms {
    /// The variant.
    pub variant: Variant,
    /// The time control (`None`: no clock).
    pub clock: Option<TimeControl>,
    /// Whether the game is rated.
    pub rated: bool,
}

/// An open challenge.
#[derive(Debug, Clone, PartialEq)]
pub struct Challenge {
    /// Its id in the lobby.
    pub id: u64,
    /// Who made it.
    pub by: Entrant,
    /// What it offers.
    pub terms: Terms,
    /// The colour the creator asked for.
    pub color: ColorChoice,
    /// The one player it is for, for a direct challenge.
    pub to: Option<PlayerId>,
    /// That player's user name.
    pub to_name: Option<UserName>,
    /// When it was made.
    pub created: Millis,
}

impl Challenge {
    /// Whether it is for a correspondence game, which lives without its creator on the site.
    pub fn is_correspondence(&self) -> bool {
        self.terms
            .clock
            .is_some_and(|c| c.class() == crate::clock::TimeClass::Correspondence)
    }
}

impl Terms {
    /// The terms two seeks meet on, if they do: the same variant and clock, and the same
    /// choice of rated or casual, except that a signed-up player asking for a rated game
    /// and a guest (who can play casual games only) meet on a casual one rather than wait
    /// apart. `guest_a` and `guest_b` say whether each side is anonymous.
    pub fn meet(a: &Terms, guest_a: bool, b: &Terms, guest_b: bool) -> Option<Terms> {
        if a.variant != b.variant || a.clock != b.clock {
            return None;
        }
        if a.rated == b.rated {
            return Some(*a);
        }
        // The casual side is a guest: the game is casual.
        let casual_guest = if a.rated { guest_b } else { guest_a };
        casual_guest.then_some(Terms { rated: false, ..*a })
    }
}

/// The one player a direct challenge is for.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The player.
    pub player: PlayerId,
    /// Their user name.
    pub name: UserName,
}

/// Why the lobby refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobbyRefusal {
    /// The player does not have the lobby open.
    NotPresent,
    /// The player has as many challenges open as allowed.
    TooManyChallenges,
    /// The lobby holds as much as it may.
    Full,
    /// No such challenge (taken, withdrawn, or never made).
    NoChallenge,
    /// A player cannot accept their own challenge.
    OwnChallenge,
    /// A direct challenge for someone else.
    NotForYou,
    /// Rated games are for signed-up players with a clock.
    RatedNeedsAccount,
    /// A rated game needs a clock.
    RatedNeedsClock,
    /// A player cannot challenge themselves.
    SelfChallenge,
    /// Only the player a challenge is made to can decline it.
    NotDeclinable,
    /// One of the two players blocks the other.
    Blocked,
}

impl fmt::Display for LobbyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LobbyRefusal::NotPresent => {
                "open a page of the site first: challenges live while their creator is on the site"
            }
            LobbyRefusal::TooManyChallenges => "you have as many challenges open as you may",
            LobbyRefusal::Full => "the lobby is full: try again in a moment",
            LobbyRefusal::NoChallenge => "this challenge is no longer open",
            LobbyRefusal::OwnChallenge => "this is your own challenge",
            LobbyRefusal::NotForYou => "this challenge is for another player",
            LobbyRefusal::RatedNeedsAccount => "rated games are for signed-in players",
            LobbyRefusal::RatedNeedsClock => "a rated game needs a clock",
            LobbyRefusal::SelfChallenge => "you cannot challenge yourself",
            LobbyRefusal::NotDeclinable => "only the player challenged can decline a challenge",
            LobbyRefusal::Blocked => "you cannot play this player",
        })
    }
}

impl std::error::Error for LobbyRefusal {}

/// Two players to seat in a new game: who plays white and who black, on what terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairing {
    /// White.
    pub white: Entrant,
    /// Black.
    pub black: Entrant,
    /// The terms.
    pub terms: Terms,
}

/// A player waiting for quick pairing.
#[derive(Debug, Clone, PartialEq)]
struct Seek {
    by: Entrant,
    terms: Terms,
    since: Millis,
}

/// The lobby's state.
#[derive(Debug, Default)]
pub struct Lobby {
    challenges: BTreeMap<u64, Challenge>,
    seeks: Vec<Seek>,
    present: HashMap<PlayerId, usize>,
    next_id: u64,
    /// Grows with every change of what the lobby shows.
    pub version: u64,
    /// The most open challenges from one client address; `None`: [`MAX_PER_ADDR`].
    pub per_addr: Option<usize>,
}

impl Lobby {
    /// A player opens the lobby (one more connection of theirs).
    pub fn enter(&mut self, player: PlayerId) {
        *self.present.entry(player).or_default() += 1;
    }

    /// One of a player's connections closes; with their last one, their seeks and their
    /// challenges other than correspondence ones are withdrawn. Returns whether the lobby
    /// changed, and the direct challenges withdrawn (their targets are told).
    pub fn leave(&mut self, player: PlayerId) -> (bool, Vec<Challenge>) {
        let Some(n) = self.present.get_mut(&player) else {
            return (false, Vec::new());
        };
        *n -= 1;
        if *n > 0 {
            return (false, Vec::new());
        }
        self.present.remove(&player);
        self.withdraw_where(|c| c.by.player == player && !c.is_correspondence(), player)
    }

    /// Whether a player has a page of the site open.
    pub fn is_present(&self, player: PlayerId) -> bool {
        self.present.contains_key(&player)
    }

    /// Withdraws the challenges `gone` picks and the seeks of `seeker`.
    fn withdraw_where(
        &mut self,
        gone: impl Fn(&Challenge) -> bool,
        seeker: PlayerId,
    ) -> (bool, Vec<Challenge>) {
        let before = self.challenges.len() + self.seeks.len();
        let mut direct = Vec::new();
        self.challenges.retain(|_, c| {
            let keep = !gone(c);
            if !keep && c.to.is_some() {
                direct.push(c.clone());
            }
            keep
        });
        self.seeks.retain(|s| s.by.player != seeker);
        let changed = before != self.challenges.len() + self.seeks.len();
        if changed {
            self.version += 1;
        }
        (changed, direct)
    }

    /// Withdraws the correspondence challenges older than [`CORRESPONDENCE_LIFE`] whose
    /// creator is not on the site. Returns whether the lobby changed, and the direct ones.
    pub fn expire(&mut self, now: Millis) -> (bool, Vec<Challenge>) {
        let present = std::mem::take(&mut self.present);
        let out = self.withdraw_where(
            |c| now - c.created > CORRESPONDENCE_LIFE && !present.contains_key(&c.by.player),
            PlayerId(i64::MIN),
        );
        self.present = present;
        out
    }

    /// The open challenges made to `player`, oldest first.
    pub fn made_to(&self, player: PlayerId) -> Vec<&Challenge> {
        self.challenges
            .values()
            .filter(|c| c.to == Some(player))
            .collect()
    }

    fn check_terms(by: &Entrant, terms: &Terms) -> Result<(), LobbyRefusal> {
        if terms.rated && by.name.is_none() {
            return Err(LobbyRefusal::RatedNeedsAccount);
        }
        if terms.rated && terms.clock.is_none() {
            return Err(LobbyRefusal::RatedNeedsClock);
        }
        Ok(())
    }

    /// Opens a challenge. Returns its id.
    ///
    /// # Errors
    ///
    /// When the creator is not present, has too many open, the lobby is full, or the terms
    /// are not possible for them.
    pub fn challenge(
        &mut self,
        by: Entrant,
        terms: Terms,
        color: ColorChoice,
        target: Option<Target>,
        now: Millis,
    ) -> Result<u64, LobbyRefusal> {
        let (to, to_name) = target.map_or((None, None), |t| (Some(t.player), Some(t.name)));
        if !self.is_present(by.player) {
            return Err(LobbyRefusal::NotPresent);
        }
        if to == Some(by.player) {
            return Err(LobbyRefusal::SelfChallenge);
        }
        if to.is_some_and(|p| by.avoid.contains(&p)) {
            return Err(LobbyRefusal::Blocked);
        }
        Lobby::check_terms(&by, &terms)?;
        let guest = by.name.is_none();
        let own = self
            .challenges
            .values()
            .filter(|c| c.by.player == by.player)
            .count();
        let from_addr = self
            .challenges
            .values()
            .filter(|c| c.by.from == by.from)
            .count();
        if own >= if guest { MAX_PER_GUEST } else { MAX_PER_PLAYER }
            || from_addr >= self.per_addr.unwrap_or(MAX_PER_ADDR)
        {
            return Err(LobbyRefusal::TooManyChallenges);
        }
        let guests = self
            .challenges
            .values()
            .filter(|c| c.by.name.is_none())
            .count();
        if self.challenges.len() >= MAX_CHALLENGES || (guest && guests >= MAX_GUEST_CHALLENGES) {
            return Err(LobbyRefusal::Full);
        }
        self.next_id += 1;
        let id = self.next_id;
        self.challenges.insert(
            id,
            Challenge {
                id,
                by,
                terms,
                color,
                to,
                to_name,
                created: now,
            },
        );
        self.version += 1;
        Ok(id)
    }

    /// Withdraws a player's own challenge. Returns it.
    ///
    /// # Errors
    ///
    /// [`LobbyRefusal::NoChallenge`] when it is not theirs or not open.
    pub fn withdraw(&mut self, player: PlayerId, id: u64) -> Result<Challenge, LobbyRefusal> {
        match self.challenges.get(&id) {
            Some(c) if c.by.player == player => {
                let c = self
                    .challenges
                    .remove(&id)
                    .ok_or(LobbyRefusal::NoChallenge)?;
                self.version += 1;
                Ok(c)
            }
            _ => Err(LobbyRefusal::NoChallenge),
        }
    }

    /// The player a challenge is made to declines it. Returns it (its creator is told).
    ///
    /// # Errors
    ///
    /// [`LobbyRefusal::NoChallenge`] when it is not open or not visible to the player,
    /// [`LobbyRefusal::NotDeclinable`] when it is not made to them.
    pub fn decline(&mut self, player: PlayerId, id: u64) -> Result<Challenge, LobbyRefusal> {
        match self.challenges.get(&id) {
            Some(c) if c.to == Some(player) => {
                let c = self
                    .challenges
                    .remove(&id)
                    .ok_or(LobbyRefusal::NoChallenge)?;
                self.version += 1;
                Ok(c)
            }
            Some(c) if c.to.is_none() => Err(LobbyRefusal::NotDeclinable),
            _ => Err(LobbyRefusal::NoChallenge),
        }
    }

    /// Accepts a challenge: it leaves the lobby and the two players are paired, the colours
    /// given by the creator's choice (`coin` decides a random one).
    ///
    /// # Errors
    ///
    /// When the challenge is not open, is the player's own, is for someone else, or the
    /// terms are not possible for the player.
    pub fn accept(&mut self, by: Entrant, id: u64, coin: bool) -> Result<Pairing, LobbyRefusal> {
        let c = self.challenges.get(&id).ok_or(LobbyRefusal::NoChallenge)?;
        if c.by.player == by.player {
            return Err(LobbyRefusal::OwnChallenge);
        }
        if c.to.is_some_and(|p| p != by.player) {
            return Err(LobbyRefusal::NotForYou);
        }
        if !by.may_meet(&c.by) {
            return Err(LobbyRefusal::Blocked);
        }
        Lobby::check_terms(&by, &c.terms)?;
        let c = self
            .challenges
            .remove(&id)
            .ok_or(LobbyRefusal::NoChallenge)?;
        self.version += 1;
        let creator_white = match c.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => coin,
        };
        let (white, black) = if creator_white {
            (c.by, by)
        } else {
            (by, c.by)
        };
        Ok(Pairing {
            white,
            black,
            terms: c.terms,
        })
    }

    /// The rating window of a seek that has waited since `since`.
    fn window(since: Millis, now: Millis) -> f64 {
        let waited = (now - since).max(0) as f64 / 1000.0;
        (FIRST_WINDOW + WIDEN_PER_SECOND * waited).min(MAX_WINDOW)
    }

    /// A player asks for quick pairing: paired at once with the waiting player of the same
    /// terms whose rating is closest, if one is close enough; otherwise they wait. A new seek
    /// replaces the player's earlier one.
    ///
    /// # Errors
    ///
    /// When the player is not present, the pool is full, or the terms are not possible.
    pub fn seek(
        &mut self,
        by: Entrant,
        terms: Terms,
        now: Millis,
        coin: bool,
    ) -> Result<Option<Pairing>, LobbyRefusal> {
        if !self.is_present(by.player) {
            return Err(LobbyRefusal::NotPresent);
        }
        Lobby::check_terms(&by, &terms)?;
        self.seeks.retain(|s| s.by.player != by.player);
        // The closest rating on the same terms first; a guest and a signed-up player meet
        // on a casual game only when nobody waits on the very same terms.
        let guest = by.name.is_none();
        let best = self
            .seeks
            .iter()
            .enumerate()
            .filter(|(_, s)| by.may_meet(&s.by))
            .filter_map(|(i, s)| {
                let met = Terms::meet(&s.terms, s.by.name.is_none(), &terms, guest)?;
                let gap = (s.by.rating - by.rating).abs();
                (gap <= Lobby::window(s.since, now)).then_some((i, met != terms, gap, met))
            })
            .min_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map(|(i, _, _, met)| (i, met));
        if let Some((i, met)) = best {
            let other = self.seeks.remove(i);
            self.version += 1;
            let (white, black) = if coin { (other.by, by) } else { (by, other.by) };
            return Ok(Some(Pairing {
                white,
                black,
                terms: met,
            }));
        }
        if self.seeks.len() >= MAX_SEEKS {
            return Err(LobbyRefusal::Full);
        }
        self.seeks.push(Seek {
            by,
            terms,
            since: now,
        });
        self.version += 1;
        Ok(None)
    }

    /// Pairs waiting players whose windows have widened enough to meet, oldest first.
    pub fn pair_waiting(&mut self, now: Millis, mut coin: impl FnMut() -> bool) -> Vec<Pairing> {
        let mut pairings = Vec::new();
        let mut i = 0;
        while i < self.seeks.len() {
            let a = &self.seeks[i];
            let window = Lobby::window(a.since, now);
            let partner = (i + 1..self.seeks.len())
                .filter_map(|j| {
                    let b = &self.seeks[j];
                    // Both waited: either list may be the newer.
                    if !a.by.may_meet(&b.by) || !b.by.may_meet(&a.by) {
                        return None;
                    }
                    let met =
                        Terms::meet(&a.terms, a.by.name.is_none(), &b.terms, b.by.name.is_none())?;
                    let gap = (b.by.rating - a.by.rating).abs();
                    (gap <= window.min(Lobby::window(b.since, now))).then_some((
                        j,
                        met != a.terms || met != b.terms,
                        gap,
                        met,
                    ))
                })
                .min_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)))
                .map(|(j, _, _, met)| (j, met));
            match partner {
                Some((j, terms)) => {
                    let b = self.seeks.remove(j);
                    let a = self.seeks.remove(i);
                    let (white, black) = if coin() { (a.by, b.by) } else { (b.by, a.by) };
                    pairings.push(Pairing {
                        white,
                        black,
                        terms,
                    });
                }
                None => i += 1,
            }
        }
        if !pairings.is_empty() {
            self.version += 1;
        }
        pairings
    }

    /// Withdraws a player's seek. Returns whether they had one.
    pub fn cancel_seek(&mut self, player: PlayerId) -> bool {
        let before = self.seeks.len();
        self.seeks.retain(|s| s.by.player != player);
        let changed = before != self.seeks.len();
        if changed {
            self.version += 1;
        }
        changed
    }

    /// Whether a player waits for quick pairing.
    pub fn is_seeking(&self, player: PlayerId) -> bool {
        self.seeks.iter().any(|s| s.by.player == player)
    }

    /// The open challenges that `viewer` may see (public ones, their own, and those made to
    /// them), oldest first.
    pub fn visible(&self, viewer: Option<PlayerId>) -> Vec<&Challenge> {
        self.challenges
            .values()
            .filter(|c| {
                c.to.is_none() || viewer.is_some_and(|v| c.to == Some(v) || c.by.player == v)
            })
            .collect()
    }

    /// What a viewer is sent: their own challenges and those made to them, and the newest
    /// [`SHOWN_CHALLENGES`] of the others' public ones, newest first; and how many open
    /// challenges the viewer may see in all.
    pub fn page(&self, viewer: Option<PlayerId>) -> (Vec<&Challenge>, usize) {
        let visible = self.visible(viewer);
        let total = visible.len();
        let personal = |c: &Challenge| viewer.is_some_and(|v| c.by.player == v || c.to == Some(v));
        let mut shown: Vec<&Challenge> = visible.iter().copied().filter(|c| personal(c)).collect();
        shown.extend(
            visible
                .iter()
                .rev()
                .copied()
                .filter(|c| !personal(c))
                .take(SHOWN_CHALLENGES),
        );
        shown.sort_by_key(|c| std::cmp::Reverse(c.id));
        (shown, total)
    }

    /// How many wait for quick pairing, per time control.
    pub fn waiting(&self) -> Vec<(Option<TimeControl>, usize)> {
        let mut counts: BTreeMap<String, (Option<TimeControl>, usize)> = BTreeMap::new();
        for s in &self.seeks {
            let key = s.terms.clock.map_or_else(String::new, |c| c.to_string());
            counts.entry(key).or_insert((s.terms.clock, 0)).1 += 1;
        }
        counts.into_values().collect()
    }
}

/// A challenge as the lobby lists it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChallengeView {
    /// Its id.
    pub id: u64,
    /// The creator's user name, or `null` for an anonymous player.
    pub by: Option<String>,
    /// The creator's rating (rounded).
    pub rating: i32,
    /// Whether it is provisional.
    pub provisional: bool,
    /// The variant's name.
    pub variant: &'static str,
    /// The time control, if any.
    pub clock: Option<TimeControlView>,
    /// The time control written short (`3+2`), if any.
    pub clock_text: Option<String>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The creator's colour: `white`, `black` or `random`.
    pub color: &'static str,
    /// Whether the challenge is for one player only.
    pub direct: bool,
    /// The user name of that player.
    pub to: Option<String>,
    /// Whether the viewer made it.
    pub mine: bool,
}

impl ChallengeView {
    /// The view of a challenge for a viewer.
    pub fn new(c: &Challenge, viewer: Option<PlayerId>) -> ChallengeView {
        ChallengeView {
            id: c.id,
            by: c.by.name.as_ref().map(|n| n.as_str().to_owned()),
            rating: c.by.rating.round() as i32,
            provisional: c.by.provisional,
            variant: c.terms.variant.name(),
            clock: c.terms.clock.map(Into::into),
            clock_text: c.terms.clock.map(|t| t.to_string()),
            rated: c.terms.rated,
            color: match c.color {
                ColorChoice::White => "white",
                ColorChoice::Black => "black",
                ColorChoice::Random => "random",
            },
            direct: c.to.is_some(),
            to: c.to_name.as_ref().map(|n| n.as_str().to_owned()),
            mine: viewer == Some(c.by.player),
        }
    }
}

/// The colour of a player in a pairing.
pub fn color_of(p: &Pairing, player: PlayerId) -> Option<Color> {
    if p.white.player == player {
        Some(Color::White)
    } else if p.black.player == player {
        Some(Color::Black)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(id: i64, rating: f64) -> Entrant {
        Entrant {
            player: PlayerId(id),
            name: UserName::new(&format!("p{id}")).ok(),
            rating,
            provisional: false,
            from: std::net::IpAddr::from([10, 0, (id / 256) as u8, (id % 256) as u8]),
            avoid: Vec::new(),
        }
    }

    fn target(id: i64) -> Target {
        Target {
            player: PlayerId(id),
            name: UserName::new(&format!("player{id}")).unwrap(),
        }
    }

    fn guest(id: i64) -> Entrant {
        Entrant {
            name: None,
            ..entrant(id, crate::rating::START.rating)
        }
    }

    #[test]
    fn guests_and_addresses_cannot_fill_the_lobby_and_viewers_get_a_page() {
        let mut lobby = Lobby::default();
        let casual = Terms {
            rated: false,
            ..blitz(false)
        };
        let open = |lobby: &mut Lobby, by: Entrant| {
            lobby.enter(by.player);
            lobby.challenge(by, casual, ColorChoice::Random, None, 0)
        };
        // One challenge a guest, three a signed-up player.
        assert!(open(&mut lobby, guest(1)).is_ok());
        assert_eq!(
            open(&mut lobby, guest(1)),
            Err(LobbyRefusal::TooManyChallenges)
        );
        for _ in 0..MAX_PER_PLAYER {
            assert!(open(&mut lobby, entrant(2, 1500.0)).is_ok());
        }
        // Six from one address, whoever makes them.
        let same = |id| Entrant {
            from: std::net::IpAddr::from([192, 0, 2, 1]),
            ..guest(id)
        };
        for id in 10..10 + MAX_PER_ADDR as i64 {
            assert!(open(&mut lobby, same(id)).is_ok());
        }
        assert_eq!(
            open(&mut lobby, same(99)),
            Err(LobbyRefusal::TooManyChallenges)
        );
        // Guests in all are capped below the whole: room stays for signed-up players.
        let mut id = 1000;
        while lobby
            .challenges
            .values()
            .filter(|c| c.by.name.is_none())
            .count()
            < MAX_GUEST_CHALLENGES
        {
            assert!(open(&mut lobby, guest(id)).is_ok());
            id += 1;
        }
        assert_eq!(open(&mut lobby, guest(id)), Err(LobbyRefusal::Full));
        assert!(open(&mut lobby, entrant(id + 1, 1500.0)).is_ok());
        // A viewer gets the newest page, their own included, and the count of all.
        let (shown, total) = lobby.page(Some(PlayerId(2)));
        assert_eq!(total, lobby.challenges.len());
        assert!(total > SHOWN_CHALLENGES);
        assert_eq!(shown.len(), SHOWN_CHALLENGES + MAX_PER_PLAYER);
        assert!(shown.windows(2).all(|w| w[0].id > w[1].id), "newest first");
        assert_eq!(
            shown.iter().filter(|c| c.by.player == PlayerId(2)).count(),
            MAX_PER_PLAYER
        );
        assert_eq!(shown[0].by.player, PlayerId(id + 1));
    }

    fn blitz(rated: bool) -> Terms {
        Terms {
            variant: Variant::Nine,
            clock: Some(TimeControl::minutes(3, 2).unwrap()),
            rated,
        }
    }

    #[test]
    fn a_direct_challenge_is_declined_by_its_player_only_and_withdrawn_ones_are_named() {
        let mut lobby = Lobby::default();
        for p in 1..=3 {
            lobby.enter(PlayerId(p));
        }
        let to_two = |lobby: &mut Lobby| {
            lobby
                .challenge(
                    entrant(1, 1500.0),
                    blitz(true),
                    ColorChoice::Random,
                    Some(target(2)),
                    0,
                )
                .unwrap()
        };
        let id = to_two(&mut lobby);
        assert_eq!(lobby.made_to(PlayerId(2)).len(), 1);
        // Nobody else declines it, nor its creator; a public one is declined by nobody.
        assert_eq!(
            lobby.decline(PlayerId(3), id),
            Err(LobbyRefusal::NoChallenge)
        );
        assert_eq!(
            lobby.decline(PlayerId(1), id),
            Err(LobbyRefusal::NoChallenge)
        );
        let open = lobby
            .challenge(
                entrant(3, 1500.0),
                blitz(true),
                ColorChoice::Random,
                None,
                0,
            )
            .unwrap();
        assert_eq!(
            lobby.decline(PlayerId(2), open),
            Err(LobbyRefusal::NotDeclinable)
        );
        let declined = lobby.decline(PlayerId(2), id).unwrap();
        assert_eq!(declined.by.player, PlayerId(1));
        assert!(lobby.made_to(PlayerId(2)).is_empty());
        assert_eq!(
            lobby.decline(PlayerId(2), id),
            Err(LobbyRefusal::NoChallenge)
        );
        // Withdrawn by hand or by leaving the site, the challenge is named for its player.
        let id = to_two(&mut lobby);
        assert_eq!(
            lobby.withdraw(PlayerId(1), id).unwrap().to,
            Some(PlayerId(2))
        );
        let id = to_two(&mut lobby);
        let (changed, gone) = lobby.leave(PlayerId(1));
        assert!(changed);
        assert_eq!(gone.iter().map(|c| c.id).collect::<Vec<_>>(), vec![id]);
    }

    #[test]
    fn correspondence_challenges_outlive_their_creators_visit_for_a_week() {
        let mut lobby = Lobby::default();
        lobby.enter(PlayerId(1));
        let days = Terms {
            clock: Some(TimeControl::correspondence(3).unwrap()),
            ..blitz(true)
        };
        let slow = lobby
            .challenge(
                entrant(1, 1500.0),
                days,
                ColorChoice::White,
                Some(target(2)),
                0,
            )
            .unwrap();
        lobby
            .challenge(entrant(1, 1500.0), blitz(true), ColorChoice::White, None, 0)
            .unwrap();
        let (changed, gone) = lobby.leave(PlayerId(1));
        assert!(changed, "the blitz challenge went");
        assert!(gone.is_empty(), "the direct one lives on");
        assert_eq!(lobby.visible(Some(PlayerId(2))).len(), 1);
        assert_eq!(lobby.expire(CORRESPONDENCE_LIFE), (false, Vec::new()));
        // Back on the site at the end of the week, the creator keeps it open.
        lobby.enter(PlayerId(1));
        assert!(!lobby.expire(CORRESPONDENCE_LIFE + 1).0);
        lobby.leave(PlayerId(1));
        let (changed, gone) = lobby.expire(CORRESPONDENCE_LIFE + 1);
        assert!(changed);
        assert_eq!(gone[0].id, slow);
        assert!(lobby.visible(Some(PlayerId(2))).is_empty());
    }

    #[test]
    fn a_guest_and_a_rated_seeker_meet_on_a_casual_game_when_nobody_else_waits() {
        let mut lobby = Lobby::default();
        for p in 1..=4 {
            lobby.enter(PlayerId(p));
        }
        // A guest waits; a signed-up player asking for a rated game is paired, casual.
        assert_eq!(lobby.seek(guest(1), blitz(false), 0, true), Ok(None));
        let p = lobby
            .seek(entrant(2, 1500.0), blitz(true), 0, true)
            .unwrap()
            .unwrap();
        assert!(!p.terms.rated);
        assert_eq!([p.white.player, p.black.player], [PlayerId(1), PlayerId(2)]);
        // Two signed-up players asking for rated and casual stay apart.
        assert_eq!(
            lobby.seek(entrant(3, 1500.0), blitz(false), 0, true),
            Ok(None)
        );
        assert_eq!(
            lobby.seek(entrant(4, 1500.0), blitz(true), 0, true),
            Ok(None)
        );
        assert!(lobby.pair_waiting(60_000, || true).is_empty());
        // With the same terms waiting too, those come first.
        lobby.cancel_seek(PlayerId(3));
        lobby.cancel_seek(PlayerId(4));
        for p in 5..=7 {
            lobby.enter(PlayerId(p));
        }
        assert_eq!(
            lobby.seek(entrant(4, 1800.0), blitz(true), 0, true),
            Ok(None)
        );
        assert_eq!(lobby.seek(guest(5), blitz(false), 0, true), Ok(None));
        let p = lobby
            .seek(entrant(6, 1650.0), blitz(true), 0, true)
            .unwrap()
            .unwrap();
        assert!(p.terms.rated, "paired with the rated seeker, not the guest");
        assert_eq!(p.white.player, PlayerId(4));
        // The waiting pool pairs across too, once the windows have widened.
        assert_eq!(
            lobby.seek(entrant(7, 2000.0), blitz(true), 0, true),
            Ok(None)
        );
        let p = lobby.pair_waiting(60_000, || true);
        assert_eq!(p.len(), 1);
        assert!(!p[0].terms.rated);
        assert_eq!(
            [p[0].white.player, p[0].black.player],
            [PlayerId(5), PlayerId(7)]
        );
    }

    #[test]
    fn players_who_block_each_other_are_never_paired_nor_challenge_each_other() {
        let mut lobby = Lobby::default();
        for p in 1..=3 {
            lobby.enter(PlayerId(p));
        }
        // Ann (1) blocks Kim (2): each entrant carries the other as one to avoid.
        let ann = || Entrant {
            avoid: vec![PlayerId(2)],
            ..entrant(1, 1500.0)
        };
        let kim = || Entrant {
            avoid: vec![PlayerId(1)],
            ..entrant(2, 1500.0)
        };
        assert_eq!(
            lobby.challenge(kim(), blitz(true), ColorChoice::Random, Some(target(1)), 0),
            Err(LobbyRefusal::Blocked)
        );
        let open = lobby
            .challenge(ann(), blitz(true), ColorChoice::Random, None, 0)
            .unwrap();
        assert_eq!(lobby.accept(kim(), open, true), Err(LobbyRefusal::Blocked));
        assert!(lobby.accept(entrant(3, 1500.0), open, true).is_ok());
        // Quick pairing passes them by, at once and however long they wait.
        assert_eq!(lobby.seek(ann(), blitz(true), 0, true), Ok(None));
        assert_eq!(lobby.seek(kim(), blitz(true), 0, true), Ok(None));
        assert!(lobby.pair_waiting(600_000, || true).is_empty());
        let p = lobby
            .seek(entrant(3, 1500.0), blitz(true), 0, true)
            .unwrap()
            .unwrap();
        assert_eq!(p.white.player, PlayerId(1), "the first waiting");
    }

    #[test]
    fn a_challenge_is_accepted_once_and_colours_follow_the_choice() {
        let mut lobby = Lobby::default();
        lobby.enter(PlayerId(1));
        let id = lobby
            .challenge(entrant(1, 1500.0), blitz(true), ColorChoice::Black, None, 0)
            .unwrap();
        assert_eq!(lobby.visible(None).len(), 1);
        assert_eq!(
            lobby.accept(entrant(1, 1500.0), id, true).unwrap_err(),
            LobbyRefusal::OwnChallenge
        );
        let p = lobby.accept(entrant(2, 1600.0), id, true).unwrap();
        assert_eq!(p.white.player, PlayerId(2));
        assert_eq!(p.black.player, PlayerId(1));
        assert_eq!(
            lobby.accept(entrant(3, 1600.0), id, true).unwrap_err(),
            LobbyRefusal::NoChallenge
        );
    }

    #[test]
    fn challenges_vanish_when_their_creator_leaves() {
        let mut lobby = Lobby::default();
        assert_eq!(
            lobby
                .challenge(
                    entrant(1, 1500.0),
                    blitz(false),
                    ColorChoice::Random,
                    None,
                    0
                )
                .unwrap_err(),
            LobbyRefusal::NotPresent
        );
        lobby.enter(PlayerId(1));
        lobby.enter(PlayerId(1));
        lobby
            .challenge(
                entrant(1, 1500.0),
                blitz(false),
                ColorChoice::Random,
                None,
                0,
            )
            .unwrap();
        assert!(!lobby.leave(PlayerId(1)).0, "one connection of two closed");
        assert_eq!(lobby.visible(None).len(), 1);
        assert!(lobby.leave(PlayerId(1)).0);
        assert!(lobby.visible(None).is_empty());
    }

    #[test]
    fn direct_challenges_are_seen_and_taken_by_their_player_only() {
        let mut lobby = Lobby::default();
        lobby.enter(PlayerId(1));
        let id = lobby
            .challenge(
                entrant(1, 1500.0),
                blitz(false),
                ColorChoice::White,
                Some(target(2)),
                0,
            )
            .unwrap();
        assert!(lobby.visible(None).is_empty());
        assert!(lobby.visible(Some(PlayerId(3))).is_empty());
        assert_eq!(lobby.visible(Some(PlayerId(2))).len(), 1);
        assert_eq!(lobby.visible(Some(PlayerId(1))).len(), 1);
        assert_eq!(
            lobby.accept(entrant(3, 1500.0), id, false).unwrap_err(),
            LobbyRefusal::NotForYou
        );
        assert!(lobby.accept(entrant(2, 1500.0), id, false).is_ok());
    }

    #[test]
    fn rated_games_need_accounts_and_clocks_and_challenges_are_bounded() {
        let mut lobby = Lobby::default();
        lobby.enter(PlayerId(1));
        let mut anon = entrant(1, 1500.0);
        anon.name = None;
        assert_eq!(
            lobby
                .challenge(anon, blitz(true), ColorChoice::White, None, 0)
                .unwrap_err(),
            LobbyRefusal::RatedNeedsAccount
        );
        let untimed = Terms {
            clock: None,
            ..blitz(true)
        };
        assert_eq!(
            lobby
                .challenge(entrant(1, 1500.0), untimed, ColorChoice::White, None, 0)
                .unwrap_err(),
            LobbyRefusal::RatedNeedsClock
        );
        for _ in 0..MAX_PER_PLAYER {
            lobby
                .challenge(
                    entrant(1, 1500.0),
                    blitz(false),
                    ColorChoice::White,
                    None,
                    0,
                )
                .unwrap();
        }
        assert_eq!(
            lobby
                .challenge(
                    entrant(1, 1500.0),
                    blitz(false),
                    ColorChoice::White,
                    None,
                    0
                )
                .unwrap_err(),
            LobbyRefusal::TooManyChallenges
        );
    }

    #[test]
    fn quick_pairing_matches_close_ratings_and_widens_with_waiting() {
        let mut lobby = Lobby::default();
        for id in 1..=4 {
            lobby.enter(PlayerId(id));
        }
        assert_eq!(
            lobby
                .seek(entrant(1, 1500.0), blitz(true), 0, true)
                .unwrap(),
            None
        );
        // Too far apart at first.
        assert_eq!(
            lobby
                .seek(entrant(2, 1900.0), blitz(true), 1000, true)
                .unwrap(),
            None
        );
        // Another time control never matches.
        let other = Terms {
            clock: Some(TimeControl::minutes(1, 0).unwrap()),
            ..blitz(true)
        };
        assert_eq!(
            lobby.seek(entrant(3, 1510.0), other, 1000, true).unwrap(),
            None
        );
        // The closest of the same terms is chosen.
        let p = lobby
            .seek(entrant(4, 1550.0), blitz(true), 2000, true)
            .unwrap()
            .unwrap();
        assert_eq!(p.white.player, PlayerId(1));
        assert_eq!(p.black.player, PlayerId(4));
        // 1900 and nobody near: after waiting long enough, 1900 meets a newcomer of 1600.
        lobby.enter(PlayerId(5));
        assert_eq!(
            lobby
                .seek(entrant(5, 1600.0), blitz(true), 3000, true)
                .unwrap(),
            None,
            "the window of player 5 is still narrow"
        );
        assert!(lobby.pair_waiting(4000, || true).is_empty());
        let pairs = lobby.pair_waiting(3000 + 8000, || true);
        assert_eq!(pairs.len(), 1);
        let p = &pairs[0];
        let ids = [p.white.player, p.black.player];
        assert!(ids.contains(&PlayerId(2)) && ids.contains(&PlayerId(5)));
        assert!(lobby.is_seeking(PlayerId(3)));
        assert!(lobby.leave(PlayerId(3)).0);
        assert!(!lobby.is_seeking(PlayerId(3)));
    }
}
