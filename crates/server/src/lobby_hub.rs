//! The lobby as the server runs it: the [`Lobby`] behind a lock, the games between people
//! being played, and the count of changes that every lobby connection watches.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use morris_core::{ByColor, Game, Position};
use serde::Serialize;
use tokio::sync::watch;

use crate::accounts::PlayerId;
use crate::app::AppState;
use crate::clock::Clock;
use crate::error::ApiError;
use crate::game_state::GameState;
use crate::lobby::{Entrant, Lobby, MAX_PLAYING, Pairing};
use crate::seat::{GameId, Name, Opponent, Player};

/// The changes of the lobby, counted: a connection that has not yet been sent the lobby
/// since its last change is not woken again by the next ones, so a busy lobby wakes each
/// connection at most once per refresh however many games start and end.
pub type LobbyChanges = watch::Receiver<u64>;

/// The newest pairing of one player, for their lobby connections.
pub type PairedWatch = watch::Receiver<Option<Arc<PairedView>>>;

/// A player's lobby connections: how many, and the sender of their pairings.
type Watchers = (usize, watch::Sender<Option<Arc<PairedView>>>);

/// A new game of two players from the lobby.
#[derive(Debug, Clone, Serialize)]
pub struct PairedView {
    /// The game's id.
    pub game: String,
    /// The players, by colour.
    #[serde(skip)]
    pub players: ByColor<PlayerId>,
}

/// A game between people being played, as the lobby and the home page list it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlayingView {
    /// The game's id.
    pub id: String,
    /// The variant's name.
    pub variant: &'static str,
    /// White's name, or `null` for an anonymous player.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The time control written short, if any.
    pub clock: Option<String>,
    /// Whether it is rated.
    pub rated: bool,
}

/// The lobby's text for viewers with nothing of their own in it, with the versions it shows.
type SharedText = ((u64, u64), Arc<str>);

/// The lobby of a running server.
#[derive(Debug)]
pub struct LobbyHub {
    lobby: Mutex<Lobby>,
    playing: Mutex<BTreeMap<GameId, PlayingView>>,
    /// Grows with every change of the games being played.
    playing_version: std::sync::atomic::AtomicU64,
    /// The lobby's text for viewers with nothing of their own in it, and the versions it
    /// shows.
    shared: Mutex<Option<SharedText>>,
    changes: watch::Sender<u64>,
    /// Per player with the lobby open: how many connections, and their pairings. A player
    /// hears of their own pairings only, and never misses one to a busy lobby.
    paired: Mutex<HashMap<PlayerId, Watchers>>,
}

impl Default for LobbyHub {
    fn default() -> LobbyHub {
        LobbyHub {
            lobby: Mutex::new(Lobby::default()),
            playing: Mutex::new(BTreeMap::new()),
            playing_version: std::sync::atomic::AtomicU64::new(0),
            shared: Mutex::new(None),
            changes: watch::channel(0).0,
            paired: Mutex::new(HashMap::new()),
        }
    }
}

impl LobbyHub {
    /// The lobby, locked. A panic while it is held leaves it whole: no method of it panics
    /// half-way.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Lobby> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn playing(&self) -> std::sync::MutexGuard<'_, BTreeMap<GameId, PlayingView>> {
        self.playing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The versions of what the lobby shows: its challenges and seeks, and the games being
    /// played.
    pub fn version(&self) -> (u64, u64) {
        (
            self.lock().version,
            self.playing_version
                .load(std::sync::atomic::Ordering::Acquire),
        )
    }

    /// The shared text of the lobby at `version`, if it was made.
    pub fn cached(&self, version: (u64, u64)) -> Option<Arc<str>> {
        let shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        shared
            .as_ref()
            .filter(|(v, _)| *v == version)
            .map(|(_, text)| text.clone())
    }

    /// Keeps the shared text of the lobby at `version`.
    pub fn cache(&self, version: (u64, u64), text: Arc<str>) {
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = Some((version, text));
    }

    fn paired(&self) -> std::sync::MutexGuard<'_, HashMap<PlayerId, Watchers>> {
        self.paired.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The pairings of `player`, for one more of their lobby connections.
    pub fn watch_pairings(&self, player: PlayerId) -> PairedWatch {
        let mut paired = self.paired();
        let entry = paired
            .entry(player)
            .or_insert_with(|| (0, watch::channel(None).0));
        entry.0 += 1;
        entry.1.subscribe()
    }

    /// One of `player`'s lobby connections closed.
    pub fn unwatch_pairings(&self, player: PlayerId) {
        let mut paired = self.paired();
        if let Some(entry) = paired.get_mut(&player) {
            entry.0 -= 1;
            if entry.0 == 0 {
                paired.remove(&player);
            }
        }
    }

    fn tell_paired(&self, view: &Arc<PairedView>) {
        let paired = self.paired();
        for p in [view.players.white, view.players.black] {
            if let Some((_, tx)) = paired.get(&p) {
                tx.send_replace(Some(view.clone()));
            }
        }
    }

    /// The changes from now on.
    pub fn subscribe(&self) -> LobbyChanges {
        self.changes.subscribe()
    }

    /// Tells every lobby connection that the lobby changed.
    pub fn changed(&self) {
        // Counted even with no receiver: nobody has the lobby open.
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The games being played, newest first.
    pub fn games_playing(&self, limit: usize) -> Vec<PlayingView> {
        self.playing().values().rev().take(limit).cloned().collect()
    }

    /// The games being played by each named player (lower-cased name to the game's id).
    pub fn playing_by_name(&self) -> HashMap<String, String> {
        let mut by = HashMap::new();
        for g in self.playing().values() {
            for name in [&g.white, &g.black].into_iter().flatten() {
                by.insert(name.to_lowercase(), g.id.clone());
            }
        }
        by
    }

    /// Lists a game as being played.
    pub fn add_playing(&self, state: &GameState) {
        let mut playing = self.playing();
        if playing.len() >= MAX_PLAYING {
            return;
        }
        let name = |p: &Player| match p {
            Player::Human(n) => n.as_ref().map(|n| n.as_str().to_owned()),
            Player::Computer(_) => None,
        };
        self.playing_version
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        playing.insert(
            state.id.clone(),
            PlayingView {
                id: state.id.to_string(),
                variant: state.game.start().rules().variant.name(),
                white: name(&state.players.white),
                black: name(&state.players.black),
                clock: state.clock.map(|c| c.control.to_string()),
                rated: state.rated,
            },
        );
    }

    /// A game ended: it leaves the list of games being played.
    pub fn game_ended(&self, id: &GameId) {
        if self.playing().remove(id).is_some() {
            self.playing_version
                .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
            self.changed();
        }
    }
}

/// Tells the players that direct challenges to them are no longer open.
pub fn tell_gone(app: &AppState, gone: &[crate::lobby::Challenge], why: crate::notify::Gone) {
    for c in gone {
        if let Some(to) = c.to {
            let notice = crate::notify::Notice::ChallengeGone { id: c.id, why };
            app.notify.tell(to, &notice);
        }
    }
}

/// A player opened a page of the site (its notification channel, or the lobby): their
/// challenges live while one is open.
pub fn arrived(app: &AppState, player: PlayerId) {
    app.lobby.lock().enter(player);
}

/// One of a player's pages closed: with the last, their challenges (except correspondence
/// ones) and seeks are withdrawn, and those challenged are told.
pub fn left(app: &AppState, player: PlayerId) {
    let (changed, gone) = app.lobby.lock().leave(player);
    tell_gone(app, &gone, crate::notify::Gone::Withdrawn);
    if changed {
        app.lobby.changed();
    }
}

/// Withdraws the correspondence challenges left open too long (see
/// [`crate::lobby::CORRESPONDENCE_LIFE`]). Returns how many went.
pub fn expire_challenges(app: &AppState) -> bool {
    let (changed, gone) = app.lobby.lock().expire(app.now_ms());
    tell_gone(app, &gone, crate::notify::Gone::Expired);
    if changed {
        app.lobby.changed();
    }
    changed
}

/// The name shown for an entrant: their user name, if signed up.
fn shown(e: &Entrant) -> Player {
    Player::Human(e.name.as_ref().and_then(|n| Name::new(n.as_str()).ok()))
}

/// Starts the game of a pairing: both players seated by their sessions (no seat tokens),
/// the clock running from now, listed as being played, and both told.
///
/// # Errors
///
/// 500 when the database fails.
pub async fn start_pairing(app: &Arc<AppState>, pairing: Pairing) -> Result<GameState, ApiError> {
    let mut state = GameState::new(
        GameId::random(),
        Game::new(Position::new(pairing.terms.variant.rules())),
        Opponent::Friend,
        ByColor::new(shown(&pairing.white), shown(&pairing.black)),
        ByColor::new(None, None),
        app.now_ms() / 1000,
    );
    state.accounts = ByColor::new(Some(pairing.white.player), Some(pairing.black.player));
    state.rated = pairing.terms.rated;
    state.same_network = pairing.white.from == pairing.black.from;
    app.judge_rating(&mut state).await?;
    state.clock = pairing.terms.clock.map(|c| Clock::start(c, app.now_ms()));
    let live = app.create(state).await?;
    let state = live.snapshot().await;
    app.lobby.add_playing(&state);
    app.tell_started(&state);
    app.lobby.tell_paired(&Arc::new(PairedView {
        game: state.id.to_string(),
        players: ByColor::new(pairing.white.player, pairing.black.player),
    }));
    app.lobby.changed();
    Ok(state)
}
