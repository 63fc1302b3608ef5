//! Who of a game's players is connected, and since when a player has been gone: what the
//! claim of a game after the opponent left is measured by. A pure value: every call is given
//! the time now.

use morris_core::{ByColor, Color};
use serde::Serialize;

use crate::clock::Millis;

/// How long a player must have been gone before the other may claim the game.
pub const CLAIM_AFTER: Millis = 30_000;

/// The connections of each side of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Presence {
    connections: ByColor<u32>,
    /// Since when each side has had no connection and done nothing (`None`: connected, or
    /// never seen).
    gone_since: ByColor<Option<Millis>>,
}

impl Presence {
    /// No side connected yet. A side that has played in the game (`played`) has been here:
    /// it counts as gone from `now` (the game's load); a side that has not is not counted
    /// as gone before it has been seen, so that nothing is claimed against a player who
    /// never came.
    pub fn new(played: ByColor<bool>, now: Millis) -> Presence {
        Presence {
            connections: ByColor::new(0, 0),
            gone_since: played.map(|p| p.then_some(now)),
        }
    }

    /// `side` did something at `now` other than through a connection (a ply, a poll, any
    /// request of its seat): if it has no connection, it counts as gone only from now.
    /// Returns whether that changed what watchers are shown.
    pub fn seen(&mut self, side: Color, now: Millis) -> bool {
        if self.is_connected(side) {
            return false;
        }
        *self.gone_since.get_mut(side) = Some(now);
        true
    }

    /// A connection of `side` opens.
    pub fn connect(&mut self, side: Color) {
        *self.connections.get_mut(side) += 1;
        *self.gone_since.get_mut(side) = None;
    }

    /// A connection of `side` closes at `now`.
    pub fn disconnect(&mut self, side: Color, now: Millis) {
        let n = self.connections.get_mut(side);
        *n = n.saturating_sub(1);
        if *n == 0 {
            *self.gone_since.get_mut(side) = Some(now);
        }
    }

    /// Whether `side` is connected.
    pub fn is_connected(&self, side: Color) -> bool {
        *self.connections.get(side) > 0
    }

    /// How long `side` has been gone at `now` (`None` while connected).
    pub fn gone_for(&self, side: Color, now: Millis) -> Option<Millis> {
        self.gone_since.get(side).map(|since| (now - since).max(0))
    }

    /// When the other side may claim the game against `side`, if `side` is gone.
    pub fn claimable_at(&self, side: Color) -> Option<Millis> {
        self.gone_since.get(side).map(|since| since + CLAIM_AFTER)
    }

    /// The view sent to watchers at `now`.
    pub fn view(&self, now: Millis) -> PresenceView {
        PresenceView {
            kind: "presence",
            connected: ByColor::from_fn(|c| self.is_connected(c)).into(),
            claim_at: ByColor::from_fn(|c| self.claimable_at(c).filter(|_| !self.is_connected(c)))
                .into(),
            now,
        }
    }
}

/// `{"type": "presence", "connected": {"white": true, "black": false},
/// "claim_at": {"white": null, "black": 1800000030000}, "now": …}`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PresenceView {
    /// Always `presence`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Whether each side is connected.
    pub connected: crate::response::ByColorView<bool>,
    /// When the other side may claim the game against a side that is gone.
    pub claim_at: crate::response::ByColorView<Option<Millis>>,
    /// The server's time of this view.
    pub now: Millis,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_gone_from_its_last_connection_and_claimable_after_the_wait() {
        let mut p = Presence::new(ByColor::new(true, true), 0);
        assert_eq!(p.gone_for(Color::White, 5), Some(5));
        p.connect(Color::White);
        p.connect(Color::White);
        assert_eq!(p.gone_for(Color::White, 10), None);
        p.disconnect(Color::White, 1000);
        assert!(p.is_connected(Color::White), "one connection of two closed");
        p.disconnect(Color::White, 2000);
        assert!(!p.is_connected(Color::White));
        assert_eq!(p.gone_for(Color::White, 7000), Some(5000));
        assert_eq!(p.claimable_at(Color::White), Some(2000 + CLAIM_AFTER));
        p.connect(Color::White);
        assert_eq!(p.claimable_at(Color::White), None);
        let v = p.view(3000);
        assert!(v.connected.white && !v.connected.black);
        assert_eq!(v.claim_at.black, Some(CLAIM_AFTER));
    }

    #[test]
    fn a_side_never_seen_is_not_gone_and_any_request_counts_as_being_here() {
        let mut p = Presence::new(ByColor::new(true, false), 1000);
        assert_eq!(p.gone_for(Color::Black, 99_000), None, "never came");
        assert_eq!(p.claimable_at(Color::Black), None);
        assert_eq!(p.gone_for(Color::White, 2000), Some(1000));
        p.seen(Color::Black, 5000);
        assert_eq!(p.gone_for(Color::Black, 6000), Some(1000));
        p.seen(Color::White, 40_000);
        assert_eq!(
            p.gone_for(Color::White, 41_000),
            Some(1000),
            "a ply or a poll counts"
        );
        p.connect(Color::White);
        p.seen(Color::White, 50_000);
        assert_eq!(p.gone_for(Color::White, 60_000), None);
    }
}
