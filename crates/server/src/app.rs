//! The shared state of the server: the store, the games in memory, the computer player and the
//! limits; and the one path by which a game changes (commit, then show, then tell watchers).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use morris_core::Color;
use tokio::sync::broadcast;

use crate::clock::{Millis, Now, SystemNow};
use crate::computer::Computer;
use crate::connections::ConnectionLimits;
use crate::error::ApiError;
use crate::game_state::GameState;
use crate::limits::RateLimiter;
use crate::queue::QueueLimits;
use crate::response::GameView;
use crate::seat::{GameId, Holder, Opponent, Seat};
use crate::store::Store;

/// How many updates a slow watcher may fall behind before it skips to the newest.
const UPDATES_KEPT: usize = 16;

/// A game in memory: its state behind a lock that serialises changes, and the channel that
/// carries every new state to the game's watchers.
#[derive(Debug)]
pub struct LiveGame {
    state: tokio::sync::Mutex<GameState>,
    updates: broadcast::Sender<Arc<GameView>>,
    /// Messages other than the game's state (chat lines, presence), as JSON text.
    events: broadcast::Sender<Arc<str>>,
    /// Which players are connected.
    presence: Mutex<crate::presence::Presence>,
    /// The recent chat lines of each side.
    chat_rate: Mutex<crate::chat::ChatRate>,
    /// The version the computer is choosing a ply for (0: none).
    searching: AtomicU64,
    /// When the game was last asked for, in seconds since the server started.
    touched: AtomicU64,
}

impl LiveGame {
    fn new(state: GameState, now: Millis) -> LiveGame {
        let played = morris_core::ByColor::from_fn(|c| state.has_moved(c));
        LiveGame {
            state: tokio::sync::Mutex::new(state),
            updates: broadcast::channel(UPDATES_KEPT).0,
            events: broadcast::channel(UPDATES_KEPT).0,
            presence: Mutex::new(crate::presence::Presence::new(played, now)),
            chat_rate: Mutex::new(crate::chat::ChatRate::default()),
            searching: AtomicU64::new(0),
            touched: AtomicU64::new(0),
        }
    }

    /// A copy of the state now.
    pub async fn snapshot(&self) -> GameState {
        self.state.lock().await.clone()
    }

    /// A receiver of every state from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<GameView>> {
        self.updates.subscribe()
    }

    /// A receiver of every other message (chat, presence) from now on.
    pub fn subscribe_events(&self) -> broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// Sends a message to every watcher.
    pub fn tell(&self, message: &impl serde::Serialize) {
        if let Ok(text) = serde_json::to_string(message) {
            // No receiver is no error: nobody watches.
            let _ = self.events.send(text.into());
        }
    }

    /// The presence of the players, locked.
    pub fn presence(&self) -> std::sync::MutexGuard<'_, crate::presence::Presence> {
        self.presence.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The chat's rate of each side, locked.
    pub fn chat_rate(&self) -> std::sync::MutexGuard<'_, crate::chat::ChatRate> {
        self.chat_rate.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Settings of the limits that protect the server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Games one client address may create per minute; 0 for no limit.
    pub games_per_minute: u32,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// How long a request's body may take to arrive, in all.
    pub body_time: Duration,
    /// The largest WebSocket message accepted, in bytes.
    pub max_ws_message: usize,
    /// How long a game nobody asks for stays in memory.
    pub idle: Duration,
    /// WebSockets open at once; more are refused until some close.
    pub max_sockets: usize,
    /// WebSockets open at once from one client address (an IPv6 /64 counting as one).
    pub sockets_per_addr: usize,
    /// Challenges open in the lobby from one client address.
    pub challenges_per_addr: usize,
    /// How long a game's WebSocket may say nothing before it is closed (the page pings
    /// every 30 seconds).
    pub socket_idle: Duration,
    /// How long a watcher may take to accept an update before its WebSocket is closed.
    pub send_timeout: Duration,
    /// The bounds of hints and analyses waiting for the engine.
    pub coaching: QueueLimits,
    /// How the computer's ply is committed again after a failure.
    pub retry: Retry,
    /// How often games left without a search are looked for, and idle games swept out.
    pub sweep: Duration,
    /// The limits on connections: how many, and how long they may stay silent.
    pub connections: ConnectionLimits,
    /// How often clocks are looked at for a fallen flag.
    pub clock_sweep: Duration,
    /// Sign-in attempts one client address may make per minute; 0 for no limit.
    pub sign_ins_per_minute: u32,
    /// The cost of the password hash.
    pub password_cost: crate::accounts::HashCost,
    /// The database's cap, in bytes (0: none): see [`crate::storage`].
    pub max_storage: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games_per_minute: 30,
            max_body: 64 * 1024,
            body_time: Duration::from_secs(20),
            max_ws_message: 4 * 1024,
            idle: Duration::from_secs(600),
            max_sockets: 10_000,
            sockets_per_addr: 16,
            challenges_per_addr: crate::lobby::MAX_PER_ADDR,
            socket_idle: Duration::from_secs(90),
            send_timeout: Duration::from_secs(15),
            coaching: QueueLimits::default(),
            retry: Retry::default(),
            sweep: Duration::from_secs(60),
            connections: ConnectionLimits::default(),
            clock_sweep: Duration::from_millis(250),
            sign_ins_per_minute: 10,
            password_cost: crate::accounts::HashCost::default(),
            max_storage: 8 << 30,
        }
    }
}

/// How the computer's ply is committed again after the database refused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    /// Tries in all, the first included.
    pub tries: u32,
    /// The pause after the first failure; it doubles after each.
    pub first: Duration,
    /// The longest pause.
    pub longest: Duration,
}

impl Default for Retry {
    fn default() -> Retry {
        // About two minutes of tries: enough for a lock held by a backup or a disk that
        // fills for a moment.
        Retry {
            tries: 30,
            first: Duration::from_millis(100),
            longest: Duration::from_secs(5),
        }
    }
}

/// The games resumed after a start.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Games in which the computer now chooses its ply.
    pub games: usize,
    /// Games that wait for the computer but cannot be read, with the reason.
    pub skipped: Vec<(GameId, String)>,
}

/// Everything the handlers share, behind an `Arc`.
#[derive(Debug)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The engine pool.
    pub computer: Computer,
    /// The limits.
    pub limits: Limits,
    /// Games created per client address.
    pub creations: RateLimiter,
    /// The WebSockets open, in all and per client address.
    pub sockets: Arc<crate::connections::Budget>,
    /// Where the time of clocks comes from.
    pub now: Arc<dyn Now>,
    /// Sign-ins, sign-ups and password changes per client address.
    pub sign_ins: RateLimiter,
    /// The sessions known, by the hash of their cookie.
    pub sessions: crate::session::Sessions,
    /// The password hashing.
    pub passwords: Arc<crate::accounts::Passwords>,
    /// Password hashes computed at once (each takes memory and a core for a while).
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// Whether the session cookie is marked `Secure`.
    pub secure_cookies: bool,
    /// The names the site is reached by, besides its addresses and `localhost`.
    pub public_names: Vec<String>,
    /// The lobby.
    pub lobby: crate::lobby_hub::LobbyHub,
    /// The notification channel of every player with a page open.
    pub notify: Arc<crate::notify::Notifier>,
    /// The database's size against its cap.
    pub storage: crate::storage::Storage,
    /// Wrong passwords per account.
    pub sign_in_guard: crate::storage::SignInGuard,
    games: Mutex<HashMap<GameId, Arc<LiveGame>>>,
    /// When a flag falls in each game with a running clock.
    deadlines: Mutex<Deadlines>,
    started: Instant,
}

/// The games with a running clock, by when their flag falls.
#[derive(Debug, Default)]
struct Deadlines {
    by_time: BTreeSet<(Millis, GameId)>,
    by_game: HashMap<GameId, Millis>,
}

impl Deadlines {
    fn set(&mut self, id: &GameId, deadline: Option<Millis>) {
        if let Some(old) = self.by_game.remove(id) {
            self.by_time.remove(&(old, id.clone()));
        }
        if let Some(d) = deadline {
            self.by_game.insert(id.clone(), d);
            self.by_time.insert((d, id.clone()));
        }
    }

    /// The games whose deadline is at or before `now`.
    fn due(&self, now: Millis) -> Vec<GameId> {
        self.by_time
            .iter()
            .take_while(|(d, _)| *d <= now)
            .map(|(_, id)| id.clone())
            .collect()
    }
}

impl AppState {
    /// The state of a server on a store.
    pub fn new(store: Store, computer: Computer, limits: Limits) -> AppState {
        AppState::with_now(store, computer, limits, Arc::new(SystemNow))
    }

    /// The state of a server whose clocks read the time from `now`.
    pub fn with_now(
        store: Store,
        computer: Computer,
        limits: Limits,
        now: Arc<dyn Now>,
    ) -> AppState {
        let lobby = crate::lobby_hub::LobbyHub::default();
        lobby.lock().per_addr = Some(limits.challenges_per_addr);
        AppState {
            store,
            computer,
            limits,
            creations: RateLimiter::new(limits.games_per_minute, Duration::from_secs(60)),
            sockets: crate::connections::Budget::new(limits.max_sockets, limits.sockets_per_addr),
            now,
            sign_ins: RateLimiter::new(limits.sign_ins_per_minute, Duration::from_secs(60)),
            sessions: crate::session::Sessions::default(),
            passwords: Arc::new(crate::accounts::Passwords::new(limits.password_cost)),
            hashing: Arc::new(tokio::sync::Semaphore::new(2)),
            secure_cookies: false,
            public_names: Vec::new(),
            lobby,
            notify: Arc::default(),
            storage: crate::storage::Storage::new(limits.max_storage),
            sign_in_guard: crate::storage::SignInGuard::default(),
            games: Mutex::new(HashMap::new()),
            deadlines: Mutex::new(Deadlines::default()),
            started: Instant::now(),
        }
    }

    fn deadlines(&self) -> std::sync::MutexGuard<'_, Deadlines> {
        self.deadlines.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The time now, as the clocks read it.
    pub fn now_ms(&self) -> Millis {
        self.now.now()
    }

    /// Ends on time every game whose flag has fallen, whether or not anyone watches; games
    /// not in memory are read from the database. Returns how many ended.
    pub async fn sweep_clocks(self: &Arc<Self>) -> usize {
        let now = self.now_ms();
        let due = self.deadlines().due(now);
        let mut ended = 0;
        for id in due {
            let live = match self.game(&id).await {
                Ok(live) => live,
                Err(e) => {
                    tracing::warn!("cannot read game {id} to see its clock: {e}");
                    continue;
                }
            };
            match self.change(&live, |_| Ok::<_, ApiError>(None)).await {
                Ok(state) if state.is_over() => ended += 1,
                Ok(state) => self.deadlines().set(&id, state.deadline()),
                Err(e) => tracing::warn!("the flag in game {id} cannot be written yet: {e}"),
            }
        }
        ended
    }

    /// After a start: the clocks of the stored games that are played are watched again.
    ///
    /// # Errors
    ///
    /// 500 when the list cannot be read.
    pub async fn watch_stored_clocks(&self) -> Result<usize, ApiError> {
        let rows = self.store.deadlines().await?;
        let mut deadlines = self.deadlines();
        for (deadline, id) in &rows {
            deadlines.set(id, Some(*deadline));
        }
        Ok(rows.len())
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<LiveGame>>> {
        // A panic while the map is held leaves it whole (no method of it panics half-way).
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self, live: &LiveGame) {
        live.touched
            .store(self.started.elapsed().as_secs(), Ordering::Relaxed);
    }

    /// The game of an id, from memory or else from the database.
    ///
    /// # Errors
    ///
    /// 404 for an id that names no game; 500 when the database fails.
    pub async fn game(&self, id: &GameId) -> Result<Arc<LiveGame>, ApiError> {
        if let Some(live) = self.games().get(id).cloned() {
            self.touch(&live);
            return Ok(live);
        }
        let state = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| ApiError::no_game(id.as_str()))?;
        let live = self
            .games()
            .entry(id.clone())
            .or_insert_with(|| Arc::new(LiveGame::new(state, self.now_ms())))
            .clone();
        self.touch(&live);
        Ok(live)
    }

    /// Stores a new game and keeps it in memory; the computer starts if it is to move.
    ///
    /// # Errors
    ///
    /// 500 when the database fails.
    pub async fn create(self: &Arc<Self>, state: GameState) -> Result<Arc<LiveGame>, ApiError> {
        self.store.insert(&state).await?;
        Ok(self.keep(state))
    }

    /// Keeps in memory a game just stored, follows its clock, and starts the computer if it
    /// is to move.
    fn keep(self: &Arc<Self>, state: GameState) -> Arc<LiveGame> {
        self.deadlines().set(&state.id, state.deadline());
        let live = Arc::new(LiveGame::new(state.clone(), self.now_ms()));
        self.touch(&live);
        self.games().insert(state.id.clone(), live.clone());
        self.start_computer(&live, &state);
        live
    }

    /// Changes a game: `change` computes the next state from the current one (or `None` for
    /// no change); the next state is committed to the database, then kept, then sent to the
    /// watchers, and the computer starts if it is now to move. Returns the state after.
    ///
    /// A flag that has fallen is seen first: the game ends on time (committed and shown like
    /// any change) and `change` is then asked about the finished game.
    ///
    /// # Errors
    ///
    /// The refusal of `change`; 500 when the database fails (the game is then unchanged).
    pub async fn change<E>(
        self: &Arc<Self>,
        live: &Arc<LiveGame>,
        change: impl FnOnce(&GameState) -> Result<Option<GameState>, E>,
    ) -> Result<GameState, ApiError>
    where
        ApiError: From<E>,
    {
        let mut guard = live.state.lock().await;
        if let Some(flagged) = guard.flag_fall(self.now_ms()) {
            self.commit(live, &mut guard, flagged).await?;
        }
        let Some(next) = change(&guard)? else {
            return Ok(guard.clone());
        };
        let next = self.commit(live, &mut guard, next).await?;
        drop(guard);
        self.start_computer(live, &next);
        Ok(next)
    }

    /// The holder of a seat in a game between people showed itself (a socket, a poll, a
    /// request): it counts as present from now; with `arrive`, a friend invited by link has
    /// come (its clock may start). A change of the seat brings the friend in the same
    /// change instead (see `change_by_seat`), so that a refused request changes nothing.
    ///
    /// # Errors
    ///
    /// 500 when the arrival cannot be written.
    pub async fn seen(
        self: &Arc<Self>,
        live: &Arc<LiveGame>,
        who: Holder<'_>,
        arrive: bool,
    ) -> Result<(), ApiError> {
        let (side, awaited) = {
            let state = live.state.lock().await;
            if state.opponent != Opponent::Friend {
                return Ok(());
            }
            match state.seat_of(who) {
                Some(Seat::One(c)) => (c, state.awaiting == Some(c)),
                _ => return Ok(()),
            }
        };
        if awaited && arrive {
            let now = self.now_ms();
            self.change(live, |s| Ok::<_, ApiError>(s.arrive(who, now)))
                .await?;
        }
        let now = self.now_ms();
        let changed = live.presence().seen(side, now);
        if changed {
            let view = live.presence().view(now);
            live.tell(&view);
        }
        Ok(())
    }

    /// Agrees a rematch of `live` (or declines or offers one) for `who`, as one change: the
    /// rematch is written in the same transaction as the game that names it, so that
    /// however many accepts race, one rematch exists, and an accept of one already agreed
    /// answers with it. Returns the old game's state and the rematch, if one started now.
    ///
    /// # Errors
    ///
    /// The refusals of [`GameState::rematch`]; 500 when the database fails.
    pub async fn rematch(
        self: &Arc<Self>,
        live: &Arc<LiveGame>,
        who: Holder<'_>,
        action: crate::game_state::DrawAction,
    ) -> Result<(GameState, Option<GameState>), ApiError> {
        let mut guard = live.state.lock().await;
        let Some((mut next, accepted)) = guard.rematch(who, action)? else {
            return Ok((guard.clone(), None));
        };
        if !accepted {
            let next = self.commit(live, &mut guard, next).await?;
            return Ok((next, None));
        }
        let now = self.now_ms();
        let mut game = next.rematch_game(GameId::random(), now);
        self.judge_rating(&mut game).await?;
        next.next_game = Some(game.id.clone());
        self.store.insert_rematch(&next, &game).await?;
        self.tell_started(&game);
        *guard = next.clone();
        let _ = live.updates.send(Arc::new(GameView::new(&next, None, now)));
        drop(guard);
        self.keep(game.clone());
        Ok((next, Some(game)))
    }

    /// Writes the next state, keeps it, tells the watchers and follows its clock.
    async fn commit(
        &self,
        live: &LiveGame,
        guard: &mut GameState,
        mut next: GameState,
    ) -> Result<GameState, ApiError> {
        let ratings = self.store.update(&next).await?;
        if ratings.is_some() {
            next.ratings = ratings;
        }
        self.tell_players(guard, &next);
        *guard = next.clone();
        self.deadlines().set(&next.id, next.deadline());
        if next.is_over() {
            self.lobby.game_ended(&next.id);
        }
        // No receiver is no error: nobody watches.
        let _ = live
            .updates
            .send(Arc::new(GameView::new(&next, None, self.now_ms())));
        Ok(next)
    }

    /// Tells the players of a game between accounts, on every page they have open, what
    /// changed for them from `before` to `next`: an offer of their opponent, or their turn in
    /// a correspondence game.
    fn tell_players(&self, before: &GameState, next: &GameState) {
        use crate::notify::{Notice, OfferKind};
        if next.opponent != Opponent::Friend {
            return;
        }
        let game = next.id.to_string();
        let name = |c: Color| next.players.get(c).shown_name();
        let offers = [
            (before.draw_offer, next.draw_offer, OfferKind::Draw),
            (
                before.takeback_offer,
                next.takeback_offer,
                OfferKind::Takeback,
            ),
            (before.rematch_offer, next.rematch_offer, OfferKind::Rematch),
        ];
        for (was, now, offer) in offers {
            let Some(by) = now.filter(|&c| was != Some(c)) else {
                continue;
            };
            if let Some(to) = *next.accounts.get(!by) {
                let notice = Notice::Offer {
                    game: game.clone(),
                    offer,
                    by: name(by),
                };
                self.notify.tell(to, &notice);
            }
        }
        let correspondence = next
            .clock
            .is_some_and(|c| c.control.class() == crate::clock::TimeClass::Correspondence);
        if correspondence && !next.is_over() && next.game.plies().len() > before.game.plies().len()
        {
            let mover = next.game.position().turn();
            if let Some(to) = *next.accounts.get(mover) {
                let notice = Notice::Turn {
                    game,
                    opponent: name(!mover),
                };
                self.notify.tell(to, &notice);
            }
        }
    }

    /// Tells both players of a new game between accounts that it started.
    pub fn tell_started(&self, state: &GameState) {
        for c in [Color::White, Color::Black] {
            if let Some(to) = *state.accounts.get(c) {
                let notice = crate::notify::Notice::Started {
                    game: state.id.to_string(),
                    color: c.name(),
                    opponent: state.players.get(!c).shown_name(),
                };
                self.notify.tell(to, &notice);
            }
        }
    }

    /// Starts the computer choosing a ply in a game where it is to move, unless it already
    /// chooses one for this version. Its ply is played if the game has not changed meanwhile;
    /// a commit that fails is tried again with growing pauses (see [`Limits::retry`]), and
    /// when the tries run out the game is left for [`AppState::restart_stuck`].
    pub fn start_computer(self: &Arc<Self>, live: &Arc<LiveGame>, state: &GameState) {
        let Some(level) = state.computer_to_move() else {
            return;
        };
        let version = state.version;
        if live.searching.swap(version, Ordering::AcqRel) == version {
            return;
        }
        let app = self.clone();
        let live = live.clone();
        let game = state.game.clone();
        let clock = state.clock.map(|c| {
            let turn = state.game.position().turn();
            let ms = |m: Millis| Duration::from_millis(u64::try_from(m.max(0)).unwrap_or(0));
            let inc = match c.control {
                crate::clock::TimeControl::Fischer { increment, .. } => ms(increment),
                crate::clock::TimeControl::Correspondence { .. } => Duration::ZERO,
            };
            morris_engine::Clock {
                time: morris_core::ByColor::from_fn(|side| {
                    ms(c.left_at(side, turn, self.now_ms()))
                }),
                inc: morris_core::ByColor::new(inc, inc),
            }
        });
        let seed = seed(&state.id, version);
        let id = state.id.clone();
        tokio::spawn(async move {
            let result = app
                .computer_turn(&live, (&id, version), game, (level, clock), seed)
                .await;
            let _ =
                live.searching
                    .compare_exchange(version, 0, Ordering::AcqRel, Ordering::Relaxed);
            if let Err(e) = result {
                let e = e.to_string();
                tracing::error!(
                    "the computer could not play in game {id}: {}",
                    crate::error::log_safe(&e)
                );
            }
        });
    }

    /// Chooses the computer's ply for `version` and commits it, trying the commit again while
    /// the database refuses it.
    async fn computer_turn(
        self: &Arc<Self>,
        live: &Arc<LiveGame>,
        (id, version): (&GameId, u64),
        game: morris_core::Game,
        (level, clock): (u8, Option<morris_engine::Clock>),
        seed: u64,
    ) -> Result<(), ApiError> {
        let Some(ply) = self.computer.choose(game, level, seed, clock).await? else {
            return Ok(());
        };
        let retry = self.limits.retry;
        let mut pause = retry.first;
        let mut tries = 1;
        loop {
            let result = self
                .change(live, |now| {
                    if now.version == version {
                        now.play_computer(ply, self.now_ms()).map(Some)
                    } else {
                        Ok(None)
                    }
                })
                .await;
            match result {
                Ok(_) => {
                    if tries > 1 {
                        tracing::info!(
                            "the computer's ply in game {id} is kept after {tries} tries"
                        );
                    }
                    return Ok(());
                }
                Err(e @ (ApiError::Internal(_) | ApiError::Unavailable(_)))
                    if tries < retry.tries =>
                {
                    tracing::warn!(
                        "the computer's ply in game {id} cannot be kept yet \
                         (try {tries} of {}): {e}; again in {pause:?}",
                        retry.tries
                    );
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(retry.longest);
                    tries += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Starts the computer again in every game in memory where it is to move and nothing
    /// searches (its last commit kept failing). Returns how many.
    pub async fn restart_stuck(self: &Arc<Self>) -> usize {
        let games: Vec<Arc<LiveGame>> = self.games().values().cloned().collect();
        let mut restarted = 0;
        for live in games {
            if live.searching.load(Ordering::Acquire) != 0 {
                continue;
            }
            let state = live.snapshot().await;
            if state.computer_to_move().is_some() {
                self.start_computer(&live, &state);
                restarted += 1;
            }
        }
        restarted
    }

    /// After a start: the computer moves in every stored game that waits for it. A game that
    /// cannot be read is skipped (and reported), the others are resumed.
    ///
    /// # Errors
    ///
    /// 500 when the list of waiting games cannot be read.
    pub async fn resume_computer_games(self: &Arc<Self>) -> Result<Resumed, ApiError> {
        let ids = self.store.waiting_for_computer().await?;
        let mut resumed = Resumed::default();
        for id in ids {
            let live = match self.game(&id).await {
                Ok(live) => live,
                Err(e) => {
                    resumed.skipped.push((id, e.to_string()));
                    continue;
                }
            };
            let state = live.snapshot().await;
            self.start_computer(&live, &state);
            resumed.games += 1;
        }
        Ok(resumed)
    }

    /// Drops from memory the games nobody watches, that the computer is not playing in and
    /// that nobody asked for during the idle time. They stay in the database. Returns how
    /// many were dropped.
    pub fn evict_idle(&self) -> usize {
        let now = self.started.elapsed().as_secs();
        let idle = self.limits.idle.as_secs();
        let mut games = self.games();
        let before = games.len();
        games.retain(|_, live| {
            Arc::strong_count(live) > 1
                || live.updates.receiver_count() > 0
                || live.searching.load(Ordering::Acquire) != 0
                || now.saturating_sub(live.touched.load(Ordering::Relaxed)) < idle
        });
        before - games.len()
    }

    /// A guest signed in to an account: the seats of their games in memory become the
    /// account's, as the store made those of the stored rows, so that the player goes on
    /// playing them signed in.
    pub async fn seats_to_account(
        &self,
        guest: crate::accounts::PlayerId,
        account: crate::accounts::PlayerId,
        name: &crate::accounts::UserName,
    ) -> usize {
        let lives: Vec<Arc<LiveGame>> = self.games().values().cloned().collect();
        let mut moved = 0;
        for live in lives {
            let mut state = live.state.lock().await;
            for side in [morris_core::Color::White, morris_core::Color::Black] {
                if *state.accounts.get(side) != Some(guest) {
                    continue;
                }
                *state.accounts.get_mut(side) = Some(account);
                if let crate::seat::Player::Human(shown @ None) = state.players.get_mut(side) {
                    *shown = crate::seat::Name::new(name.as_str()).ok();
                }
                moved += 1;
            }
        }
        moved
    }

    /// A new game whose terms ask for a rating between two accounts is played unrated when
    /// the pair has played too many rated games lately ([`crate::fair`]).
    ///
    /// # Errors
    ///
    /// 500 when the database fails.
    pub async fn judge_rating(&self, state: &mut GameState) -> Result<(), ApiError> {
        let (true, Some(white), Some(black)) =
            (state.rated, state.accounts.white, state.accounts.black)
        else {
            return Ok(());
        };
        let since = self.now_ms() / 1000 - crate::fair::WINDOW;
        let (total, same) = self.store.rated_between(white, black, since).await?;
        if let Some(why) = crate::fair::rating_refusal(total, same, state.same_network) {
            tracing::info!(
                "game {} between players {white} and {black} is unrated: {why}",
                state.id
            );
            state.rated = false;
            state.unrated_why = Some(why);
        }
        Ok(())
    }

    /// Measures the database for its cap ([`crate::storage`]).
    pub async fn measure_storage(&self) {
        match self.store.size().await {
            Ok(bytes) => {
                let was_full = self.storage.admit_guest().is_err();
                self.storage.set_used(bytes);
                let full = self.storage.admit_guest().is_err();
                if full && !was_full {
                    tracing::warn!(
                        "the database holds {bytes} bytes, near its cap of {}: guests are refused",
                        self.limits.max_storage
                    );
                }
            }
            Err(e) => tracing::warn!("cannot measure the database: {e}"),
        }
    }

    /// Ends the sessions that expired (and the guests left with nothing), from the
    /// database and from memory.
    pub async fn end_expired_sessions(&self) -> usize {
        use crate::accounts::{SESSION_IDLE, SESSION_MAX_AGE};
        let now = self.now_ms() / 1000;
        match self
            .store
            .end_expired_sessions(now - SESSION_IDLE, now - SESSION_MAX_AGE)
            .await
        {
            Ok(n) => {
                if n > 0 {
                    self.sessions.forget_expired(now);
                    tracing::debug!("{n} sessions expired");
                }
                n
            }
            Err(e) => {
                tracing::warn!("cannot end the expired sessions: {e}");
                0
            }
        }
    }

    /// The number of games in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games().len()
    }
}

/// The seed of the computer's choice: the same game at the same version gets the same ply,
/// before and after a restart.
fn seed(id: &GameId, version: u64) -> u64 {
    id.as_str().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ version.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
