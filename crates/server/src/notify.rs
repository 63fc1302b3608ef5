//! The site-wide notification channel: what a player is told on any page of the site (a
//! challenge made to them and its end, a decline of their own, a game that started, a
//! rematch or an offer of their opponent, their turn in a correspondence game). Each open
//! page holds one WebSocket (`GET /api/notify/ws`); a notice is made into text once and
//! sent to every page of the player.
//!
//! Bounded: each player's pages share one channel of [`KEPT`] notices, and a page that falls
//! behind skips the oldest rather than holding the sender.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::broadcast;

use crate::accounts::PlayerId;
use crate::lobby::ChallengeView;

/// The notices kept for a page that reads slowly.
pub const KEPT: usize = 32;

/// Why a challenge made to a player is no longer open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// Its creator withdrew it (or left the site).
    Withdrawn,
    /// It was accepted (on another page of the player).
    Accepted,
    /// The player declined it (on another page).
    Declined,
    /// A correspondence challenge left open too long.
    Expired,
}

/// An offer of the opponent in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// A draw.
    Draw,
    /// To take back the last ply.
    Takeback,
    /// A rematch, once the game is over.
    Rematch,
}

/// One notice. Its JSON has a `type` naming the kind (documented in docs/api.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Notice {
    /// Sent first on every connection: the challenges open to the player.
    Hello {
        /// The open challenges made to the player, oldest first.
        challenges: Vec<ChallengeView>,
    },
    /// A challenge was made to the player.
    Challenge {
        /// The challenge as the lobby lists it.
        challenge: ChallengeView,
    },
    /// A challenge made to the player is no longer open.
    ChallengeGone {
        /// Its id.
        id: u64,
        /// Why.
        why: Gone,
    },
    /// A challenge the player made was declined.
    Declined {
        /// Its id.
        id: u64,
        /// The player who declined it.
        by: String,
    },
    /// A game of the player started (a pairing, an accepted challenge, a rematch).
    Started {
        /// The game's id.
        game: String,
        /// The player's colour.
        color: &'static str,
        /// The opponent's name, `null` for an anonymous one.
        opponent: Option<String>,
    },
    /// The opponent offers something in a game.
    Offer {
        /// The game's id.
        game: String,
        /// What is offered.
        offer: OfferKind,
        /// The opponent's name, `null` for an anonymous one.
        by: Option<String>,
    },
    /// It is the player's turn in a correspondence game.
    Turn {
        /// The game's id.
        game: String,
        /// The opponent's name, `null` for an anonymous one.
        opponent: Option<String>,
    },
}

/// A player's open pages: how many, and the sender of their notices.
type Pages = (usize, broadcast::Sender<Arc<str>>);

/// The notification channels of the running server, per player with a page open.
#[derive(Debug, Default)]
pub struct Notifier {
    pages: Mutex<HashMap<PlayerId, Pages>>,
}

/// One page's subscription; dropping it closes the page's part.
#[derive(Debug)]
pub struct Subscription {
    /// The notices to the player, as JSON text.
    pub notices: broadcast::Receiver<Arc<str>>,
    player: PlayerId,
    notifier: Arc<Notifier>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut pages = self.notifier.pages();
        if let Some(entry) = pages.get_mut(&self.player) {
            entry.0 -= 1;
            if entry.0 == 0 {
                pages.remove(&self.player);
            }
        }
    }
}

impl Notifier {
    fn pages(&self) -> std::sync::MutexGuard<'_, HashMap<PlayerId, Pages>> {
        self.pages.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The notices of `player`, for one more of their pages.
    pub fn subscribe(self: &Arc<Self>, player: PlayerId) -> Subscription {
        let mut pages = self.pages();
        let entry = pages
            .entry(player)
            .or_insert_with(|| (0, broadcast::channel(KEPT).0));
        entry.0 += 1;
        Subscription {
            notices: entry.1.subscribe(),
            player,
            notifier: self.clone(),
        }
    }

    /// Tells every open page of `player`; nothing when none is open. Returns whether a page
    /// was open.
    pub fn tell(&self, player: PlayerId, notice: &Notice) -> bool {
        let pages = self.pages();
        let Some((_, tx)) = pages.get(&player) else {
            return false;
        };
        match serde_json::to_string(notice) {
            Ok(text) => tx.send(text.into()).is_ok(),
            Err(e) => {
                tracing::error!("a notice could not be written: {e}");
                false
            }
        }
    }

    /// How many players have a page open.
    pub fn players(&self) -> usize {
        self.pages().len()
    }

    /// Whether a player has a page of the site open.
    pub fn is_online(&self, player: PlayerId) -> bool {
        self.pages().contains_key(&player)
    }

    /// Which of `players` have a page open.
    pub fn online_of(&self, players: &[PlayerId]) -> Vec<bool> {
        let pages = self.pages();
        players.iter().map(|p| pages.contains_key(p)).collect()
    }

    /// The players with a page open, at most `limit` of them.
    pub fn online(&self, limit: usize) -> Vec<PlayerId> {
        self.pages().keys().take(limit).copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_reach_every_page_of_their_player_only_and_pages_are_counted() {
        let n = Arc::new(Notifier::default());
        let (ann, bob) = (PlayerId(1), PlayerId(2));
        assert!(!n.tell(
            ann,
            &Notice::Turn {
                game: "g".into(),
                opponent: None
            }
        ));
        let mut a1 = n.subscribe(ann);
        let mut a2 = n.subscribe(ann);
        let mut b = n.subscribe(bob);
        assert_eq!(n.players(), 2);
        let notice = Notice::Declined {
            id: 7,
            by: "bob".into(),
        };
        assert!(n.tell(ann, &notice));
        let text = a1.notices.try_recv().unwrap();
        assert_eq!(&*text, r#"{"type":"declined","id":7,"by":"bob"}"#);
        assert_eq!(a2.notices.try_recv().unwrap(), text);
        assert!(b.notices.try_recv().is_err());
        drop(a1);
        assert_eq!(n.players(), 2);
        drop(a2);
        assert_eq!(n.players(), 1);
        assert!(!n.tell(ann, &notice));
    }

    #[test]
    fn a_slow_page_skips_the_oldest_notices_and_never_holds_the_sender() {
        let n = Arc::new(Notifier::default());
        let mut page = n.subscribe(PlayerId(1));
        for i in 0..(KEPT as u64 + 5) {
            assert!(n.tell(
                PlayerId(1),
                &Notice::ChallengeGone {
                    id: i,
                    why: Gone::Withdrawn
                }
            ));
        }
        assert!(matches!(
            page.notices.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(5))
        ));
        let first = page.notices.try_recv().unwrap();
        assert!(first.contains(r#""id":5"#), "{first}");
    }
}
