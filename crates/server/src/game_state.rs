//! One game as the server keeps it, and the changes a seat may make to it.
//!
//! Every change is a pure function from a state to the next state (version plus one) or a
//! refusal, so that the caller can commit the new state to the database before it replaces
//! the old one in memory. The rules are the core's: this module only asks it.

use std::fmt;

use morris_core::{ByColor, Color, Game, GameError, Outcome, Ply, PlyText, Reason, TextPlyError};

use crate::accounts::PlayerId;
use crate::clock::{Clock, Millis};
use crate::seat::{GameId, Holder, Opponent, Player, Seat, TokenHash};

/// How long a side of a game with a clock has for its first ply, from when its turn comes,
/// before the game is aborted (counting for nobody). A correspondence game gives its days
/// per ply instead.
pub const FIRST_PLY_GRACE: Millis = 30_000;

/// The fewest plies a rated game must have had played in it for its result to change the
/// ratings: a game that ends sooner (a resignation at once, a flag in the first plies) counts
/// for nobody.
pub const MIN_RATED_PLIES: usize = 4;

/// How many plies must be played after a side's draw offer was declined before it offers
/// again.
pub const OFFER_GAP: usize = 4;

/// The offers each side made that were declined, as the game's ply count at the decline: what
/// bounds offers made again and again. Kept in memory with the game only (a restart forgets
/// it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declined {
    /// A draw offer: again after [`OFFER_GAP`] plies.
    pub draw: ByColor<Option<usize>>,
    /// A take-back request: again after the next ply.
    pub takeback: ByColor<Option<usize>>,
    /// A rematch offer: once a game.
    pub rematch: ByColor<bool>,
}

impl Default for Declined {
    fn default() -> Declined {
        Declined {
            draw: ByColor::new(None, None),
            takeback: ByColor::new(None, None),
            rematch: ByColor::new(false, false),
        }
    }
}

/// Why a game refuses a change. The domain speaks no HTTP: the edge turns each refusal into
/// the API's error (`From<Refusal> for ApiError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The token holds no seat in this game.
    NoSeat,
    /// The other side is to move.
    NotYourTurn(Color),
    /// The game is over.
    GameOver(Outcome),
    /// The ply cannot be read, or is not legal here.
    Ply(TextPlyError),
    /// The ply, chosen by the computer, is not legal (or the game ended meanwhile).
    Game(GameError),
    /// It is not the computer's turn.
    NotComputersTurn,
    /// The holder has no ply of theirs to take back.
    NothingToTakeBack,
    /// The game ended by resignation or agreement: nothing of it is taken back.
    EndedByAgreement,
    /// A draw is already offered.
    DrawAlreadyOffered,
    /// No draw is offered to answer.
    NoDrawOffered,
    /// The holder answers their own offer.
    OwnDrawOffer,
    /// Hints and analyses are off in a game against a friend while it is played.
    NoCoaching,
    /// The mover's time ran out before the ply.
    OutOfTime,
    /// A game is aborted only in a game between people, before each side has played.
    TooLateToAbort,
    /// The opponent is connected, or has not been gone long enough.
    OpponentPresent,
    /// A rematch is offered only once the game is over.
    StillPlaying,
    /// The rematch was already agreed.
    Rematched,
    /// A side has not yet played its first ply: the game can be aborted, not claimed.
    NotStarted,
    /// The side's last offer of this kind was declined too recently.
    OfferTooSoon,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoSeat => {
                f.write_str("this token holds no seat in this game: you can only watch")
            }
            Refusal::NotYourTurn(turn) => {
                write!(f, "it is not your turn: {} is to move", turn.title())
            }
            Refusal::GameOver(o) => write!(f, "the game is over: {}", o.describe()),
            Refusal::Ply(TextPlyError::Parse(e)) => write!(f, "cannot read the ply: {e}"),
            Refusal::Ply(e) => write!(f, "{e}"),
            Refusal::Game(e) => write!(f, "{e}"),
            Refusal::NotComputersTurn => f.write_str("it is not the computer's turn"),
            Refusal::NothingToTakeBack => f.write_str("you have no ply to take back"),
            Refusal::EndedByAgreement => {
                f.write_str("the game ended by resignation or agreement: it cannot be taken back")
            }
            Refusal::DrawAlreadyOffered => f.write_str("a draw is already offered"),
            Refusal::NoDrawOffered => f.write_str("no draw is offered"),
            Refusal::OwnDrawOffer => {
                f.write_str("you offered this draw: the other side answers it")
            }
            Refusal::NoCoaching => f.write_str(
                "hints and analysis are off in a game against a friend until it is over",
            ),
            Refusal::OutOfTime => f.write_str("your time ran out before this ply"),
            Refusal::TooLateToAbort => f.write_str(
                "a game can be aborted only between people, before each side has played",
            ),
            Refusal::OpponentPresent => f.write_str(
                "your opponent is here or has not been gone long enough to claim the game",
            ),
            Refusal::StillPlaying => f.write_str("a rematch is offered once the game is over"),
            Refusal::Rematched => f.write_str("the rematch has started already"),
            Refusal::OfferTooSoon => write!(
                f,
                "your last offer was declined: offer a draw again after {OFFER_GAP} more plies, \
                 a take-back after the next ply, a rematch only once"
            ),
            Refusal::NotStarted => f.write_str(
                "a side has not played its first ply yet: the game can be aborted, not claimed",
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// A game with its players, seats, draw offer and version.
#[derive(Debug, Clone)]
pub struct GameState {
    /// The id.
    pub id: GameId,
    /// The game: start, plies, and any resignation or agreement.
    pub game: Game,
    /// Whom the creator plays.
    pub opponent: Opponent,
    /// Who sits in each seat.
    pub players: ByColor<Player>,
    /// The hash of each seat's token; `None` for the computer's seat. In a local game both
    /// seats hold the same hash.
    pub seats: ByColor<Option<TokenHash>>,
    /// The side that offers a draw, if one does.
    pub draw_offer: Option<Color>,
    /// Grows by one with every change.
    pub version: u64,
    /// When the game was created, in seconds since 1970.
    pub created: i64,
    /// The player of each seat when it is known: both in a game of the lobby, the creator's
    /// when a session created the game. A player holds their seat without its token.
    pub accounts: ByColor<Option<PlayerId>>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// Why a game whose terms asked for a rating is played unrated
    /// ([`crate::fair::rating_refusal`]).
    pub unrated_why: Option<String>,
    /// Whether both players came from one network (one client address group) when the game
    /// was made.
    pub same_network: bool,
    /// The clock, in a game that has one.
    pub clock: Option<Clock>,
    /// When each ply was played and the time its mover had left after it, one per ply.
    pub times: Vec<PlyTime>,
    /// When the game ended, in milliseconds since 1970.
    pub ended_at: Option<Millis>,
    /// How a rated game that ended changed the players' ratings.
    pub ratings: Option<ByColor<crate::rating::RatingChange>>,
    /// The side that offers a rematch, once the game is over.
    pub rematch_offer: Option<Color>,
    /// The rematch, once agreed.
    pub next_game: Option<GameId>,
    /// The side that asks to take back its last ply in a game between people, if one does.
    pub takeback_offer: Option<Color>,
    /// How many plies the record the game started from had: the plies before are no one's
    /// in this game.
    pub opening: usize,
    /// The side invited by a link who has not come yet: until it comes, no clock runs and
    /// nothing is claimed against it.
    pub awaiting: Option<Color>,
    /// The offers declined, that bound offers made again.
    pub declined: Declined,
}

/// When a ply was played and, with a clock, the time its mover had left after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyTime {
    /// When, in milliseconds since 1970.
    pub at: Millis,
    /// The mover's time left after the ply (its increment added), with a clock.
    pub left: Option<Millis>,
}

/// What a seat does about a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offers a draw.
    Offer,
    /// Accepts the other side's offer.
    Accept,
    /// Declines the other side's offer.
    Decline,
}

impl GameState {
    /// A new game with no players known, no clock, unrated, at version 1.
    pub fn new(
        id: GameId,
        game: Game,
        opponent: Opponent,
        players: ByColor<Player>,
        seats: ByColor<Option<TokenHash>>,
        created: i64,
    ) -> GameState {
        // The plies of an imported record were played before the game: no time is known.
        let before = PlyTime {
            at: created.saturating_mul(1000),
            left: None,
        };
        let game_plies = game.plies().len();
        let times = vec![before; game_plies];
        GameState {
            id,
            game,
            opponent,
            players,
            seats,
            draw_offer: None,
            version: 1,
            created,
            accounts: ByColor::new(None, None),
            rated: false,
            unrated_why: None,
            same_network: false,
            clock: None,
            times,
            ended_at: None,
            ratings: None,
            rematch_offer: None,
            next_game: None,
            takeback_offer: None,
            opening: game_plies,
            awaiting: None,
            declined: Declined::default(),
        }
    }

    /// The seat a token or a player holds, if any.
    pub fn seat_of<'a>(&self, who: impl Into<Holder<'a>>) -> Option<Seat> {
        let who = who.into();
        let hash = match who {
            Holder::Token(token) => Some(token.hash()),
            Holder::Player(_) => None,
        };
        let holds = |c: Color| match (who, &hash) {
            (Holder::Player(p), _) => *self.accounts.get(c) == Some(p),
            (Holder::Token(_), Some(hash)) => self.seats.get(c).is_some_and(|h| h.matches(hash)),
            (Holder::Token(_), None) => false,
        };
        match (holds(Color::White), holds(Color::Black)) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::One(Color::White)),
            (false, true) => Some(Seat::One(Color::Black)),
            (false, false) => None,
        }
    }

    fn require_seat(&self, who: Holder<'_>) -> Result<Seat, Refusal> {
        self.seat_of(who).ok_or(Refusal::NoSeat)
    }

    /// The plies `side` has played in this game (those of the record it started from are
    /// nobody's).
    pub fn plies_by(&self, side: Color) -> usize {
        let positions = self.game.positions();
        let plies = self.game.plies().len();
        (self.opening.min(plies)..plies)
            .filter(|&i| positions[i].turn() == side)
            .count()
    }

    /// Whether `side` has played its first ply in this game.
    pub fn has_moved(&self, side: Color) -> bool {
        self.plies_by(side) > 0
    }

    /// Whether both sides have played their first ply: from then on the game can no longer
    /// be aborted, and a player who leaves can be claimed against.
    pub fn started(&self) -> bool {
        Color::ALL.into_iter().all(|c| self.has_moved(c))
    }

    /// Whether the result changes the players' ratings: a rated game between two players
    /// that ended otherwise than aborted, after each side played and after at least
    /// [`MIN_RATED_PLIES`] plies.
    pub fn counts_for_rating(&self) -> bool {
        let (Some(white), Some(black)) = (self.accounts.white, self.accounts.black) else {
            return false;
        };
        let played = self.game.plies().len().saturating_sub(self.opening);
        self.rated
            && white != black
            && self
                .game
                .outcome()
                .is_some_and(|o| o.reason != Reason::Aborted)
            && self.started()
            && played >= MIN_RATED_PLIES
    }

    /// By when the side to move must play its first ply, or the game is aborted: in a game
    /// with a clock that is played, nobody is awaited, and the side to move has not played.
    pub fn first_ply_deadline(&self) -> Option<Millis> {
        let clock = self.clock.as_ref()?;
        let turn = self.game.position().turn();
        if self.is_over() || self.awaiting.is_some() || self.has_moved(turn) {
            return None;
        }
        let grace = match clock.control {
            crate::clock::TimeControl::Fischer { .. } => FIRST_PLY_GRACE,
            crate::clock::TimeControl::Correspondence { .. } => clock.control.initial(),
        };
        Some(clock.since.saturating_add(grace))
    }

    /// The side whose clock runs: the side to move, once it has played its first ply, in a
    /// game with a clock that is played and awaits nobody.
    pub fn running(&self) -> Option<Color> {
        let turn = self.game.position().turn();
        (self.clock.is_some() && !self.is_over() && self.awaiting.is_none() && self.has_moved(turn))
            .then_some(turn)
    }

    /// The time `side` has left at `now`: only a running clock counts down.
    pub fn left_at(&self, side: Color, now: Millis) -> Option<Millis> {
        let clock = self.clock.as_ref()?;
        Some(match self.running() {
            Some(turn) => clock.left_at(side, turn, now),
            None => *clock.left.get(side),
        })
    }

    /// When the game ends by the clock if the side to move does not play: its flag falls,
    /// or, before its first ply, the game is aborted.
    pub fn deadline(&self) -> Option<Millis> {
        if let Some(first) = self.first_ply_deadline() {
            return Some(first);
        }
        let turn = self.running()?;
        Some(self.clock.as_ref()?.deadline(turn))
    }

    /// The game ended by the clock, if the deadline of the side to move has passed at `now`:
    /// on time, or aborted when the side had not played its first ply.
    pub fn flag_fall(&self, now: Millis) -> Option<GameState> {
        let turn = self.game.position().turn();
        if self.deadline().is_none_or(|d| now < d) {
            return None;
        }
        let outcome = if self.has_moved(turn) {
            Outcome::win(!turn, Reason::Timeout)
        } else {
            Outcome::draw(Reason::Aborted)
        };
        let mut next = self.next();
        next.game.set_ended(Some(outcome));
        next.finish(now);
        Some(next)
    }

    /// Stops the clock and notes the end, in a state that has just ended.
    fn finish(&mut self, now: Millis) {
        if !self.is_over() {
            return;
        }
        self.draw_offer = None;
        self.takeback_offer = None;
        self.ended_at = Some(now);
        // The clock stands as it stood at the last ply, unless time ran out: then the loser
        // shows none left.
        let turn = self.game.position().turn();
        let ran = self.has_moved(turn) && self.awaiting.is_none();
        if let Some(clock) = &mut self.clock
            && ran
            && clock.flagged(turn, now)
        {
            *clock = clock.stopped(turn, now);
        }
    }

    /// Whether `who` holds the seat of the side invited by link who has not come yet.
    pub fn awaits<'a>(&self, who: impl Into<Holder<'a>>) -> bool {
        self.awaiting.is_some_and(|side| {
            !self.is_over() && self.seat_of(who).is_some_and(|seat| seat.plays(side))
        })
    }

    /// The side invited by link comes to the game at `now`, if `who` holds that seat: its
    /// clock (and the first-ply wait) starts now. `None` when nobody is awaited there.
    pub fn arrive<'a>(&self, who: impl Into<Holder<'a>>, now: Millis) -> Option<GameState> {
        let who = who.into();
        if !self.awaits(who) {
            return None;
        }
        let mut next = self.next();
        next.came(now);
        Some(next)
    }

    /// The awaited side came at `now`, noted in this state (no new version): for a change
    /// that brings the friend and does something in one.
    pub fn came(&mut self, now: Millis) {
        self.awaiting = None;
        if let Some(clock) = &mut self.clock {
            clock.since = now;
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Refuses when the game is over.
    ///
    /// # Errors
    ///
    /// [`Refusal::GameOver`].
    pub fn require_playing(&self) -> Result<(), Refusal> {
        match self.game.outcome() {
            Some(o) => Err(Refusal::GameOver(o)),
            None => Ok(()),
        }
    }

    /// Refuses hints and analyses in a game against a friend while it is played.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoCoaching`].
    pub fn require_coaching(&self) -> Result<(), Refusal> {
        if self.opponent == Opponent::Friend && !self.is_over() {
            return Err(Refusal::NoCoaching);
        }
        Ok(())
    }

    /// The level of the computer if it is the computer's turn in a game not over.
    pub fn computer_to_move(&self) -> Option<u8> {
        if self.is_over() {
            return None;
        }
        match self.players.get(self.game.position().turn()) {
            Player::Computer(level) => Some(*level),
            Player::Human(_) => None,
        }
    }

    /// Starts a clock at `now`. The plies already played (an imported record's) took no time
    /// on it: each is noted at `now` with the whole initial time, so that the game keeps one
    /// time per ply and the next ply's time is counted from the clock's start.
    pub fn start_clock(&mut self, control: crate::clock::TimeControl, now: Millis) {
        let left = Some(control.initial());
        self.times = vec![PlyTime { at: now, left }; self.game.plies().len()];
        self.clock = Some(Clock::start(control, now));
    }

    /// The colour the computer plays, if it plays.
    pub fn computer_color(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.players.get(*c).is_computer())
    }

    fn next(&self) -> GameState {
        let mut next = self.clone();
        next.version += 1;
        next
    }

    fn with_ply(&self, ply: Ply, now: Millis) -> Result<GameState, Refusal> {
        let mut next = self.next();
        let mover = self.game.position().turn();
        if self.deadline().is_some_and(|d| now >= d) {
            return Err(Refusal::OutOfTime);
        }
        if let Some(clock) = &self.clock {
            next.clock = Some(if self.running() == Some(mover) {
                clock
                    .after_ply(mover, now)
                    .map_err(|_| Refusal::OutOfTime)?
            } else {
                // A side's clock starts with its own first ply: the time before it is not
                // counted, and no increment is added.
                Clock {
                    since: now,
                    ..*clock
                }
            });
        }
        if next.awaiting == Some(mover) {
            next.awaiting = None;
        }
        next.game.play(ply).map_err(Refusal::Game)?;
        next.times.push(PlyTime {
            at: now,
            left: next.clock.map(|c| *c.left.get(mover)),
        });
        next.finish(now);
        // An offer lapses when the side it was made to plays on instead of accepting.
        if next.draw_offer.is_some_and(|c| c != mover) {
            next.draw_offer = None;
        }
        next.takeback_offer = None;
        Ok(next)
    }

    /// The token's holder plays a ply given in notation.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::NotYourTurn`], and
    /// [`Refusal::Ply`] for a ply that is not legal here, [`Refusal::OutOfTime`] when the
    /// mover's time ran out.
    pub fn play<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        text: &PlyText,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
        let turn = self.game.position().turn();
        if !seat.plays(turn) {
            return Err(Refusal::NotYourTurn(turn));
        }
        let ply = self
            .game
            .position()
            .ply_from_text(text)
            .map_err(Refusal::Ply)?;
        self.with_ply(ply, now)
    }

    /// The computer plays its chosen ply.
    ///
    /// # Errors
    ///
    /// 409 when it is not the computer's turn or the ply is illegal.
    pub fn play_computer(&self, ply: Ply, now: Millis) -> Result<GameState, Refusal> {
        if self.computer_to_move().is_none() {
            return Err(Refusal::NotComputersTurn);
        }
        self.with_ply(ply, now)
    }

    /// Takes back the token holder's last ply: against the computer, the computer's reply
    /// too; on one device the last ply. In a game between people a take-back is a request
    /// the opponent answers: this asks for it ([`GameState::takeback_request`]).
    ///
    /// # Errors
    ///
    /// 403 for a token without a seat; 409 when there is nothing of the holder's to take back,
    /// or the game ended by resignation or agreement (or a game between people is over).
    pub fn takeback<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let who = who.into();
        let seat = self.require_seat(who)?;
        if self.draw_or_resigned() {
            return Err(Refusal::EndedByAgreement);
        }
        let plies = self.game.plies().len();
        let count = match (self.opponent, seat) {
            (_, Seat::Both) => usize::from(plies > 0),
            (Opponent::Friend, Seat::One(_)) => {
                return self.takeback_request(who, DrawAction::Offer, now);
            }
            (Opponent::Computer | Opponent::Local, Seat::One(c)) => self.back_to_last_of(c),
        };
        if count == 0 {
            return Err(Refusal::NothingToTakeBack);
        }
        Ok(self.taken_back(count, now))
    }

    /// How many plies go to take back `side`'s last ply, with every ply after it.
    fn back_to_last_of(&self, side: Color) -> usize {
        let positions = self.game.positions();
        let plies = self.game.plies().len();
        (0..plies)
            .rev()
            .find(|&i| positions[i].turn() == side)
            .map_or(0, |i| plies - i)
    }

    /// The state with the last `count` plies taken back. Both clocks are as they stood when
    /// the position was first reached: each side's time after its last ply kept (its whole
    /// time before it), so that no increment of a ply taken back is kept and nobody is
    /// charged for thinking about it; the clock of the side to move starts at `now`.
    fn taken_back(&self, count: usize, now: Millis) -> GameState {
        let mut next = self.next();
        for _ in 0..count {
            next.game.undo();
        }
        let plies = next.game.plies().len();
        next.times.truncate(plies);
        next.opening = next.opening.min(plies);
        next.draw_offer = None;
        next.takeback_offer = None;
        if let Some(clock) = &mut next.clock {
            let positions = next.game.positions();
            for side in Color::ALL {
                let kept = (0..plies)
                    .rev()
                    .find(|&i| positions[i].turn() == side)
                    .and_then(|i| next.times[i].left);
                *clock.left.get_mut(side) = kept.unwrap_or_else(|| clock.control.initial());
            }
            clock.since = now;
        }
        next
    }

    fn draw_or_resigned(&self) -> bool {
        use morris_core::Reason;
        self.game
            .outcome()
            .is_some_and(|o| matches!(o.reason, Reason::Resignation | Reason::Agreement))
    }

    /// The token's holder resigns (on one device: the side to move).
    ///
    /// # Errors
    ///
    /// 403 for a token without a seat, 409 when the game is over.
    pub fn resign<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
        let color = match seat {
            Seat::One(c) => c,
            Seat::Both => self.game.position().turn(),
        };
        let mut next = self.next();
        next.game.resign(color);
        next.finish(now);
        Ok(next)
    }

    /// Acts on a draw. Against the computer an offer is answered at once: `computer_accepts`
    /// is the engine's judgement, asked by the caller; a declined offer leaves the game as it
    /// was.
    ///
    /// # Errors
    ///
    /// 403 for a token without a seat; 409 when the game is over, or there is no offer to
    /// answer, or the holder answers their own offer, or offers twice.
    pub fn draw<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        action: DrawAction,
        computer_accepts: bool,
        now: Millis,
    ) -> Result<Option<GameState>, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
        let own = |c: Color| seat.plays(c);
        match action {
            DrawAction::Offer => {
                if self.draw_offer.is_some() {
                    return Err(Refusal::DrawAlreadyOffered);
                }
                if self.computer_color().is_some() {
                    if !computer_accepts {
                        return Ok(None);
                    }
                    let mut next = self.next();
                    next.game.agree_draw();
                    next.finish(now);
                    return Ok(Some(next));
                }
                let by = match seat {
                    Seat::One(c) => c,
                    Seat::Both => self.game.position().turn(),
                };
                let plies = self.game.plies().len();
                if seat != Seat::Both
                    && self
                        .declined
                        .draw
                        .get(by)
                        .is_some_and(|at| plies < at + OFFER_GAP)
                {
                    return Err(Refusal::OfferTooSoon);
                }
                let mut next = self.next();
                next.draw_offer = Some(by);
                Ok(Some(next))
            }
            DrawAction::Accept | DrawAction::Decline => {
                let Some(by) = self.draw_offer else {
                    return Err(Refusal::NoDrawOffered);
                };
                if seat != Seat::Both && own(by) {
                    return Err(Refusal::OwnDrawOffer);
                }
                let mut next = self.next();
                next.draw_offer = None;
                if action == DrawAction::Accept {
                    next.game.agree_draw();
                    next.finish(now);
                } else {
                    *next.declined.draw.get_mut(by) = Some(self.game.plies().len());
                }
                Ok(Some(next))
            }
        }
    }

    /// Acts on a request to take back in a game between people: the requester's last ply,
    /// and the opponent's answer if there is one, go when the opponent accepts.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::NothingToTakeBack`], and the
    /// refusals of answering a request that is not there, or one's own.
    pub fn takeback_request<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        action: DrawAction,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
        if self.opponent != Opponent::Friend || seat == Seat::Both {
            return Err(Refusal::NothingToTakeBack);
        }
        let mine = self.own_side(seat);
        match action {
            DrawAction::Offer => {
                if self.takeback_offer.is_some() {
                    return Err(Refusal::DrawAlreadyOffered);
                }
                if self.back_to_last_of(mine) == 0 {
                    return Err(Refusal::NothingToTakeBack);
                }
                let plies = self.game.plies().len();
                if *self.declined.takeback.get(mine) == Some(plies) {
                    return Err(Refusal::OfferTooSoon);
                }
                let mut next = self.next();
                next.takeback_offer = Some(mine);
                Ok(next)
            }
            DrawAction::Decline | DrawAction::Accept => {
                let Some(by) = self.takeback_offer else {
                    return Err(Refusal::NoDrawOffered);
                };
                if by == mine {
                    return Err(Refusal::OwnDrawOffer);
                }
                if action == DrawAction::Accept {
                    return Ok(self.taken_back(self.back_to_last_of(by), now));
                }
                let mut next = self.next();
                next.takeback_offer = None;
                *next.declined.takeback.get_mut(by) = Some(self.game.plies().len());
                Ok(next)
            }
        }
    }

    fn own_side(&self, seat: Seat) -> Color {
        match seat {
            Seat::One(c) => c,
            Seat::Both => self.game.position().turn(),
        }
    }

    /// The holder calls the game off: only in a game between people, while a side has not
    /// played its first ply. It then counts for nobody.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::TooLateToAbort`].
    pub fn abort<'a>(&self, who: impl Into<Holder<'a>>, now: Millis) -> Result<GameState, Refusal> {
        self.require_seat(who.into())?;
        self.require_playing()?;
        if self.opponent != Opponent::Friend || self.started() {
            return Err(Refusal::TooLateToAbort);
        }
        let mut next = self.next();
        next.game.set_ended(Some(Outcome::draw(Reason::Aborted)));
        next.finish(now);
        Ok(next)
    }

    /// The holder claims the game (a win, or a draw when `draw`) after the opponent has been
    /// gone for `opponent_gone` milliseconds, at least [`crate::presence::CLAIM_AFTER`]; only
    /// once both sides have played (before, the game is aborted instead). `None`: the
    /// opponent is here, or has never come.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::NotStarted`],
    /// [`Refusal::OpponentPresent`].
    pub fn claim<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        draw: bool,
        opponent_gone: Option<Millis>,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
        if self.opponent == Opponent::Friend && !self.started() {
            return Err(Refusal::NotStarted);
        }
        if self.opponent != Opponent::Friend
            || seat == Seat::Both
            || opponent_gone.is_none_or(|g| g < crate::presence::CLAIM_AFTER)
        {
            return Err(Refusal::OpponentPresent);
        }
        let mine = self.own_side(seat);
        let mut next = self.next();
        next.game.set_ended(Some(if draw {
            Outcome::draw(Reason::Abandonment)
        } else {
            Outcome::win(mine, Reason::Abandonment)
        }));
        next.finish(now);
        Ok(next)
    }

    /// Acts on a rematch once the game is over: offer, accept (then the `bool` is true, and
    /// the caller starts the rematch with [`GameState::rematch_game`]) or decline. An accept
    /// of a rematch already agreed changes nothing (`None`): accepting is idempotent.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::StillPlaying`], [`Refusal::Rematched`], and the
    /// refusals of answering an offer that is not there or is one's own.
    pub fn rematch<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        action: DrawAction,
    ) -> Result<Option<(GameState, bool)>, Refusal> {
        let seat = self.require_seat(who.into())?;
        if !self.is_over() || self.opponent != Opponent::Friend {
            return Err(Refusal::StillPlaying);
        }
        if self.next_game.is_some() {
            return match action {
                DrawAction::Accept => Ok(None),
                DrawAction::Offer | DrawAction::Decline => Err(Refusal::Rematched),
            };
        }
        let mine = self.own_side(seat);
        let mut next = self.next();
        match action {
            DrawAction::Offer => {
                if self.rematch_offer.is_some() {
                    return Err(Refusal::DrawAlreadyOffered);
                }
                if *self.declined.rematch.get(mine) && seat != Seat::Both {
                    return Err(Refusal::OfferTooSoon);
                }
                next.rematch_offer = Some(mine);
                Ok(Some((next, false)))
            }
            DrawAction::Accept | DrawAction::Decline => {
                let Some(by) = self.rematch_offer else {
                    return Err(Refusal::NoDrawOffered);
                };
                if by == mine && seat != Seat::Both {
                    return Err(Refusal::OwnDrawOffer);
                }
                next.rematch_offer = None;
                if action == DrawAction::Decline {
                    *next.declined.rematch.get_mut(by) = true;
                }
                Ok(Some((next, action == DrawAction::Accept)))
            }
        }
    }

    /// The rematch of a finished game: the same variant, clock and rating, the colours
    /// swapped (seats, players and tokens alike), started at `now`.
    pub fn rematch_game(&self, id: GameId, now: Millis) -> GameState {
        let start = morris_core::Position::new(*self.game.start().rules());
        let mut next = GameState::new(
            id,
            Game::new(start),
            self.opponent,
            self.players.clone().swap(),
            self.seats.swap(),
            now / 1000,
        );
        next.accounts = self.accounts.swap();
        next.rated = self.rated;
        next.same_network = self.same_network;
        next.clock = self.clock.map(|c| Clock::start(c.control, now));
        next
    }
}

#[cfg(test)]
mod tests {
    use morris_core::{Position, Reason, Variant};

    use super::*;
    use crate::seat::Name;
    use crate::seat::Token;

    fn p(text: &str) -> PlyText {
        text.parse().unwrap()
    }

    fn state(opponent: Opponent) -> (GameState, Token, Token) {
        let (a, b) = (Token::random(), Token::random());
        let black_seat = match opponent {
            Opponent::Friend => Some(b.hash()),
            Opponent::Local => Some(a.hash()),
            Opponent::Computer => None,
        };
        let black = match opponent {
            Opponent::Computer => Player::Computer(3),
            _ => Player::Human(None),
        };
        let s = GameState::new(
            GameId::random(),
            Game::new(Position::start(Variant::Nine)),
            opponent,
            ByColor::new(Player::Human(Name::new("Ann").ok()), black),
            ByColor::new(Some(a.hash()), black_seat),
            0,
        );
        (s, a, b)
    }

    #[test]
    fn plies_are_refereed() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(s.version, 2);
        assert_eq!(
            s.play(&white, &p("f4"), 0).unwrap_err(),
            Refusal::NotYourTurn(Color::Black)
        );
        assert!(matches!(
            s.play(&black, &p("d6"), 0).unwrap_err(),
            Refusal::Ply(TextPlyError::Illegal { .. })
        ));
        assert_eq!(
            s.play(&Token::random(), &p("f4"), 0).unwrap_err(),
            Refusal::NoSeat
        );
        let s = s.play(&black, &p("F4"), 0).unwrap();
        assert_eq!(s.game.ply_texts(), ["d6", "f4"]);
    }

    #[test]
    fn seats_are_told_apart() {
        let (s, white, black) = state(Opponent::Friend);
        assert_eq!(s.seat_of(&white), Some(Seat::One(Color::White)));
        assert_eq!(s.seat_of(&black), Some(Seat::One(Color::Black)));
        let (s, one, _) = state(Opponent::Local);
        assert_eq!(s.seat_of(&one), Some(Seat::Both));
    }

    #[test]
    fn takeback_against_the_computer_takes_back_its_reply_too() {
        let (s, white, _) = state(Opponent::Computer);
        assert_eq!(
            s.takeback(&white, 0).unwrap_err(),
            Refusal::NothingToTakeBack
        );
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(s.computer_to_move(), Some(3));
        let reply = s.game.position().parse_ply("f4").unwrap();
        let s = s.play_computer(reply, 0).unwrap();
        assert_eq!(s.computer_to_move(), None);
        let back = s.takeback(&white, 0).unwrap();
        assert!(back.game.plies().is_empty());
        // While the computer thinks, only the human's ply goes.
        let s = s.play(&white, &p("d2"), 0).unwrap();
        let back = s.takeback(&white, 0).unwrap();
        assert_eq!(back.game.ply_texts(), ["d6", "f4"]);
    }

    #[test]
    fn a_takeback_between_people_is_always_a_request_even_before_the_answer() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(
            s.takeback(&black, 0).unwrap_err(),
            Refusal::NothingToTakeBack
        );
        let asked = s.takeback(&white, 0).unwrap();
        assert_eq!(
            asked.game.ply_texts(),
            ["d6"],
            "nothing goes without consent"
        );
        assert_eq!(asked.takeback_offer, Some(Color::White));
        let back = asked
            .takeback_request(&black, DrawAction::Accept, 0)
            .unwrap();
        assert!(back.game.plies().is_empty());
    }

    #[test]
    fn draw_offers_are_answered_by_the_other_side() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s
            .draw(&white, DrawAction::Offer, false, 0)
            .unwrap()
            .unwrap();
        assert_eq!(s.draw_offer, Some(Color::White));
        assert_eq!(
            s.draw(&white, DrawAction::Accept, false, 0).unwrap_err(),
            Refusal::OwnDrawOffer
        );
        let declined = s
            .draw(&black, DrawAction::Decline, false, 0)
            .unwrap()
            .unwrap();
        assert_eq!(declined.draw_offer, None);
        assert!(!declined.is_over());
        let agreed = s
            .draw(&black, DrawAction::Accept, false, 0)
            .unwrap()
            .unwrap();
        assert_eq!(agreed.game.outcome().unwrap().reason, Reason::Agreement);
        assert!(matches!(
            agreed.play(&white, &p("d6"), 0).unwrap_err(),
            Refusal::GameOver(_)
        ));
        assert_eq!(
            agreed.takeback(&white, 0).unwrap_err(),
            Refusal::EndedByAgreement
        );
    }

    #[test]
    fn declined_offers_are_not_made_again_at_once() {
        let (s, white, black) = state(Opponent::Friend);
        let offer = |s: &GameState, who: &Token| s.draw(who, DrawAction::Offer, false, 0);
        let offered = offer(&s, &white).unwrap().unwrap();
        let declined = offered
            .draw(&black, DrawAction::Decline, false, 0)
            .unwrap()
            .unwrap();
        assert_eq!(offer(&declined, &white).unwrap_err(), Refusal::OfferTooSoon);
        assert!(offer(&declined, &black).is_ok(), "the other side may offer");
        let mut later = declined;
        for (i, ply) in ["d6", "f4", "d2"].iter().enumerate() {
            later = later
                .play(if i % 2 == 0 { &white } else { &black }, &p(ply), 0)
                .unwrap();
            assert_eq!(offer(&later, &white).unwrap_err(), Refusal::OfferTooSoon);
        }
        let later = later.play(&black, &p("b4"), 0).unwrap();
        assert!(offer(&later, &white).is_ok(), "after {OFFER_GAP} plies");

        // A take-back request declined is not asked again before the next ply.
        let asked = later
            .takeback_request(&white, DrawAction::Offer, 0)
            .unwrap();
        let no = asked
            .takeback_request(&black, DrawAction::Decline, 0)
            .unwrap();
        assert_eq!(
            no.takeback_request(&white, DrawAction::Offer, 0)
                .unwrap_err(),
            Refusal::OfferTooSoon
        );
        let on = no.play(&white, &p("d1"), 0).unwrap();
        assert!(on.takeback_request(&white, DrawAction::Offer, 0).is_ok());

        // A rematch offer declined is not made again.
        let over = on.resign(&black, 0).unwrap();
        let (offered, _) = over.rematch(&white, DrawAction::Offer).unwrap().unwrap();
        let (no, _) = offered
            .rematch(&black, DrawAction::Decline)
            .unwrap()
            .unwrap();
        assert_eq!(
            no.rematch(&white, DrawAction::Offer).unwrap_err(),
            Refusal::OfferTooSoon
        );
        assert!(no.rematch(&black, DrawAction::Offer).is_ok());
    }

    #[test]
    fn an_offer_lapses_when_the_other_side_plays() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s
            .draw(&white, DrawAction::Offer, false, 0)
            .unwrap()
            .unwrap();
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(
            s.draw_offer,
            Some(Color::White),
            "the offerer's own ply keeps it"
        );
        let s = s.play(&black, &p("f4"), 0).unwrap();
        assert_eq!(s.draw_offer, None);
    }

    #[test]
    fn the_computer_answers_offers_at_once() {
        let (s, white, _) = state(Opponent::Computer);
        assert!(
            s.draw(&white, DrawAction::Offer, false, 0)
                .unwrap()
                .is_none()
        );
        let agreed = s.draw(&white, DrawAction::Offer, true, 0).unwrap().unwrap();
        assert!(agreed.is_over());
    }

    #[test]
    fn resigning_ends_the_game() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s.resign(&black, 0).unwrap();
        let o = s.game.outcome().unwrap();
        assert_eq!(o.winner, Some(Color::White));
        assert!(matches!(
            s.resign(&white, 0).unwrap_err(),
            Refusal::GameOver(_)
        ));
    }

    fn clocked(minutes: u32, seconds: u32) -> (GameState, Token, Token) {
        let (mut s, white, black) = state(Opponent::Friend);
        let control = crate::clock::TimeControl::minutes(minutes, seconds).unwrap();
        s.clock = Some(Clock::start(control, T0));
        (s, white, black)
    }

    const T0: Millis = 1_700_000_000_000;

    #[test]
    fn each_sides_clock_starts_with_its_own_first_ply() {
        let (s, white, black) = clocked(3, 2);
        assert_eq!(s.running(), None, "nothing runs before White's first ply");
        assert_eq!(s.left_at(Color::White, T0 + 20_000), Some(180_000));
        let s = s.play(&white, &p("d6"), T0 + 5_000).unwrap();
        assert_eq!(s.running(), None, "nor before Black's");
        let s = s.play(&black, &p("f4"), T0 + 12_000).unwrap();
        let clock = s.clock.unwrap();
        assert_eq!(clock.left.white, 180_000, "no time spent, no increment");
        assert_eq!(clock.left.black, 180_000);
        assert_eq!(s.running(), Some(Color::White));
        let s = s.play(&white, &p("d2"), T0 + 22_000).unwrap();
        let s = s.play(&black, &p("b4"), T0 + 27_000).unwrap();
        let clock = s.clock.unwrap();
        assert_eq!(clock.left.white, 172_000);
        assert_eq!(clock.left.black, 177_000);
        assert_eq!(
            s.times[2..],
            [
                PlyTime {
                    at: T0 + 22_000,
                    left: Some(172_000)
                },
                PlyTime {
                    at: T0 + 27_000,
                    left: Some(177_000)
                }
            ]
        );
        assert_eq!(s.deadline(), Some(T0 + 27_000 + 172_000));
    }

    #[test]
    fn a_side_that_does_not_play_its_first_ply_in_time_aborts_the_game_unrated() {
        let (mut s, white, black) = clocked(1, 0);
        s.rated = true;
        s.accounts = ByColor::new(Some(PlayerId(1)), Some(PlayerId(2)));
        assert_eq!(s.first_ply_deadline(), Some(T0 + FIRST_PLY_GRACE));
        assert!(s.flag_fall(T0 + FIRST_PLY_GRACE - 1).is_none());
        let aborted = s.flag_fall(T0 + FIRST_PLY_GRACE).unwrap();
        let o = aborted.game.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (None, Reason::Aborted));
        assert!(!aborted.counts_for_rating());
        assert_eq!(aborted.clock.unwrap().left.white, 60_000);
        assert_eq!(
            s.play(&white, &p("d6"), T0 + FIRST_PLY_GRACE).unwrap_err(),
            Refusal::OutOfTime
        );
        // Black's wait starts with White's first ply.
        let s = s.play(&white, &p("d6"), T0 + 29_000).unwrap();
        assert_eq!(s.deadline(), Some(T0 + 29_000 + FIRST_PLY_GRACE));
        let aborted = s.flag_fall(T0 + 59_000).unwrap();
        assert_eq!(aborted.game.outcome().unwrap().reason, Reason::Aborted);
        let s = s.play(&black, &p("f4"), T0 + 58_000).unwrap();
        assert_eq!(s.first_ply_deadline(), None);
        assert_eq!(s.deadline(), Some(T0 + 58_000 + 60_000));
    }

    #[test]
    fn a_flag_falls_with_nobody_there_and_a_late_ply_is_refused() {
        let (s, white, black) = clocked(1, 0);
        let s = s.play(&white, &p("d6"), T0).unwrap();
        let s = s.play(&black, &p("f4"), T0).unwrap();
        assert!(s.flag_fall(T0 + 59_999).is_none());
        assert_eq!(
            s.play(&white, &p("d2"), T0 + 60_000).unwrap_err(),
            Refusal::OutOfTime
        );
        let over = s.flag_fall(T0 + 60_000).unwrap();
        let outcome = over.game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(Color::Black));
        assert_eq!(outcome.reason, Reason::Timeout);
        assert_eq!(over.ended_at, Some(T0 + 60_000));
        assert_eq!(over.clock.unwrap().left.white, 0);
        assert_eq!(over.deadline(), None);
        assert!(over.flag_fall(T0 + 120_000).is_none(), "a game ends once");
    }

    #[test]
    fn correspondence_gives_days_per_ply() {
        let (mut s, white, black) = state(Opponent::Friend);
        let control = crate::clock::TimeControl::correspondence(1).unwrap();
        s.clock = Some(Clock::start(control, T0));
        let day = crate::clock::DAY;
        assert_eq!(
            s.first_ply_deadline(),
            Some(T0 + day),
            "a day for the first ply"
        );
        let s = s.play(&white, &p("d6"), T0 + day - 1).unwrap();
        let s = s.play(&black, &p("f4"), T0 + 2 * day - 2).unwrap();
        let s = s.play(&white, &p("d2"), T0 + 3 * day - 3).unwrap();
        assert!(s.flag_fall(T0 + 4 * day - 4).is_none());
        let over = s.flag_fall(T0 + 4 * day - 3).unwrap();
        assert_eq!(over.game.outcome().unwrap().winner, Some(Color::White));
    }

    #[test]
    fn a_friend_invited_by_link_is_awaited_before_anything_runs_or_is_claimed() {
        let (mut s, white, black) = clocked(3, 2);
        s.awaiting = Some(Color::Black);
        assert_eq!(s.deadline(), None, "no wait runs before the friend comes");
        assert!(s.arrive(&white, T0).is_none(), "the creator is no arrival");
        let s = s.play(&white, &p("d6"), T0 + 600_000).unwrap();
        assert_eq!(s.deadline(), None);
        assert_eq!(
            s.claim(&white, false, None, T0).unwrap_err(),
            Refusal::NotStarted
        );
        let came = s.arrive(&black, T0 + 900_000).unwrap();
        assert_eq!(came.awaiting, None);
        assert_eq!(came.version, s.version + 1);
        assert_eq!(came.deadline(), Some(T0 + 900_000 + FIRST_PLY_GRACE));
        assert!(came.arrive(&black, T0).is_none(), "one arrival");
        // A ply of the awaited side is its arrival too.
        let (mut s, white, black) = clocked(3, 2);
        s.awaiting = Some(Color::White);
        let s = s.play(&white, &p("d6"), T0 + 5000).unwrap();
        assert_eq!(s.awaiting, None);
        assert_eq!(s.deadline(), Some(T0 + 5000 + FIRST_PLY_GRACE));
        assert!(s.play(&black, &p("f4"), T0 + 6000).is_ok());
    }

    #[test]
    fn a_rated_result_counts_only_after_both_sides_played_enough_plies() {
        let (mut s, white, black) = clocked(3, 2);
        s.rated = true;
        s.accounts = ByColor::new(Some(PlayerId(1)), Some(PlayerId(2)));
        assert!(
            !s.resign(&black, T0).unwrap().counts_for_rating(),
            "at once"
        );
        let mut t = s.clone();
        for (i, ply) in ["d6", "f4", "d2"].iter().enumerate() {
            let who = if i % 2 == 0 { &white } else { &black };
            t = t.play(who, &p(ply), T0 + 1000).unwrap();
            assert!(!t.resign(&black, T0 + 2000).unwrap().counts_for_rating());
        }
        let t = t.play(&black, &p("b4"), T0 + 3000).unwrap();
        assert_eq!(t.game.plies().len(), MIN_RATED_PLIES);
        assert!(t.resign(&black, T0 + 4000).unwrap().counts_for_rating());
        let mut casual = t.clone();
        casual.rated = false;
        assert!(
            !casual
                .resign(&black, T0 + 4000)
                .unwrap()
                .counts_for_rating()
        );
        let mut same = t;
        same.accounts = ByColor::new(Some(PlayerId(1)), Some(PlayerId(1)));
        assert!(!same.resign(&black, T0 + 4000).unwrap().counts_for_rating());
    }

    #[test]
    fn a_player_holds_their_seat_without_the_token() {
        let (mut s, _, _) = state(Opponent::Friend);
        let (ann, bob) = (PlayerId(1), PlayerId(2));
        s.accounts = ByColor::new(Some(ann), Some(bob));
        assert_eq!(s.seat_of(ann), Some(Seat::One(Color::White)));
        assert_eq!(s.seat_of(PlayerId(3)), None);
        let s = s.play(ann, &p("d6"), 0).unwrap();
        assert_eq!(
            s.play(ann, &p("f4"), 0).unwrap_err(),
            Refusal::NotYourTurn(Color::Black)
        );
        assert!(s.play(bob, &p("f4"), 0).is_ok());
    }

    #[test]
    fn a_game_is_aborted_only_in_its_first_plies_and_counts_for_nobody() {
        let (s, white, black) = state(Opponent::Friend);
        let s1 = s.play(&white, &p("d6"), 0).unwrap();
        let aborted = s1.abort(&black, 0).unwrap();
        let o = aborted.game.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (None, Reason::Aborted));
        assert_eq!(o.result(), "*");
        let s2 = s1.play(&black, &p("f4"), 0).unwrap();
        assert_eq!(s2.abort(&white, 0).unwrap_err(), Refusal::TooLateToAbort);
        let (c, w, _) = state(Opponent::Computer);
        assert_eq!(c.abort(&w, 0).unwrap_err(), Refusal::TooLateToAbort);
    }

    #[test]
    fn a_game_is_claimed_only_after_both_played_and_the_opponent_was_gone_long_enough() {
        let (s, white, black) = state(Opponent::Friend);
        let wait = crate::presence::CLAIM_AFTER;
        assert_eq!(
            s.claim(&white, false, Some(wait), 0).unwrap_err(),
            Refusal::NotStarted,
            "nobody has played"
        );
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(
            s.claim(&white, false, Some(wait), 0).unwrap_err(),
            Refusal::NotStarted,
            "Black has not played: the game is aborted, not claimed"
        );
        assert!(s.abort(&white, 0).is_ok());
        let s = s.play(&black, &p("f4"), 0).unwrap();
        assert_eq!(
            s.claim(&white, false, None, 0).unwrap_err(),
            Refusal::OpponentPresent
        );
        assert_eq!(
            s.claim(&white, false, Some(wait - 1), 0).unwrap_err(),
            Refusal::OpponentPresent
        );
        let won = s.claim(&white, false, Some(wait), 0).unwrap();
        let o = won.game.outcome().unwrap();
        assert_eq!(
            (o.winner, o.reason),
            (Some(Color::White), Reason::Abandonment)
        );
        let drawn = s.claim(&white, true, Some(wait), 0).unwrap();
        assert_eq!(drawn.game.outcome().unwrap().winner, None);
    }

    #[test]
    fn a_rematch_is_offered_accepted_once_and_swaps_the_colours() {
        let (mut s, white, black) = clocked(3, 2);
        s.accounts = ByColor::new(Some(PlayerId(1)), Some(PlayerId(2)));
        s.rated = true;
        assert_eq!(
            s.rematch(&white, DrawAction::Offer).unwrap_err(),
            Refusal::StillPlaying
        );
        let over = s.resign(&black, T0).unwrap();
        let (offered, started) = over.rematch(&black, DrawAction::Offer).unwrap().unwrap();
        assert!(!started);
        assert_eq!(offered.rematch_offer, Some(Color::Black));
        assert_eq!(
            offered.rematch(&black, DrawAction::Accept).unwrap_err(),
            Refusal::OwnDrawOffer
        );
        let (declined, started) = offered
            .rematch(&white, DrawAction::Decline)
            .unwrap()
            .unwrap();
        assert!(!started && declined.rematch_offer.is_none());
        let (mut accepted, started) = offered
            .rematch(&white, DrawAction::Accept)
            .unwrap()
            .unwrap();
        assert!(started);
        let next = accepted.rematch_game(GameId::random(), T0 + 1000);
        accepted.next_game = Some(next.id.clone());
        assert_eq!(next.seat_of(&white), Some(Seat::One(Color::Black)));
        assert_eq!(next.seat_of(&black), Some(Seat::One(Color::White)));
        assert_eq!(next.seat_of(PlayerId(1)), Some(Seat::One(Color::Black)));
        assert_eq!(next.players.white, s.players.black);
        assert!(next.rated);
        assert_eq!(next.clock.unwrap().left.white, 180_000);
        assert!(next.game.plies().is_empty());
        assert_eq!(
            next.deadline(),
            Some(T0 + 1000 + FIRST_PLY_GRACE),
            "a rematch nobody opens is aborted, not lost"
        );
        // Accepting again, by either side, changes nothing; offering again is refused.
        assert!(
            accepted
                .rematch(&white, DrawAction::Accept)
                .unwrap()
                .is_none()
        );
        assert!(
            accepted
                .rematch(&black, DrawAction::Accept)
                .unwrap()
                .is_none()
        );
        assert_eq!(
            accepted.rematch(&white, DrawAction::Offer).unwrap_err(),
            Refusal::Rematched
        );
    }

    #[test]
    fn a_takeback_after_the_answer_is_a_request_the_opponent_answers() {
        let (s, white, black) = state(Opponent::Friend);
        assert_eq!(
            s.takeback_request(&white, DrawAction::Offer, 0)
                .unwrap_err(),
            Refusal::NothingToTakeBack
        );
        let s = s.play(&white, &p("d6"), 0).unwrap();
        let s = s.play(&black, &p("f4"), 0).unwrap();
        let asked = s.takeback_request(&white, DrawAction::Offer, 0).unwrap();
        assert_eq!(asked.takeback_offer, Some(Color::White));
        assert_eq!(
            asked
                .takeback_request(&white, DrawAction::Accept, 0)
                .unwrap_err(),
            Refusal::OwnDrawOffer
        );
        let declined = asked
            .takeback_request(&black, DrawAction::Decline, 0)
            .unwrap();
        assert_eq!(declined.game.ply_texts(), ["d6", "f4"]);
        assert_eq!(declined.takeback_offer, None);
        let accepted = asked
            .takeback_request(&black, DrawAction::Accept, 0)
            .unwrap();
        assert!(
            accepted.game.plies().is_empty(),
            "White's ply and Black's answer go"
        );
        let lapsed = asked.play(&white, &p("d2"), 0).unwrap();
        assert_eq!(lapsed.takeback_offer, None, "a ply lets the request lapse");
    }

    #[test]
    fn a_takeback_restores_both_clocks_and_banks_no_increment() {
        let (s, white, black) = clocked(1, 10);
        let s = s.play(&white, &p("d6"), T0 + 1000).unwrap();
        let mut s = s.play(&black, &p("f4"), T0 + 2000).unwrap();
        let mut now = T0 + 2000;
        let before = s.clock.unwrap().left;
        for _ in 0..20 {
            now += 1000;
            let played = s.play(&white, &p("d2"), now).unwrap();
            assert_eq!(played.clock.unwrap().left.white, 60_000 - 1000 + 10_000);
            // Black thinks 3 s about the ply before White asks for it back.
            now += 3000;
            let asked = played.takeback(&white, now).unwrap();
            assert_eq!(
                asked.game.ply_texts().len(),
                3,
                "not without Black's consent"
            );
            s = asked
                .takeback_request(&black, DrawAction::Accept, now)
                .unwrap();
            assert_eq!(s.game.ply_texts(), ["d6", "f4"]);
            assert_eq!(s.clock.unwrap().left, before, "as the position was reached");
            assert_eq!(s.clock.unwrap().since, now);
            assert_eq!(s.running(), Some(Color::White));
        }
        // Taken back past a side's first ply, that side's first-ply wait starts again.
        let asked = s.takeback(&black, now).unwrap();
        let back = asked
            .takeback_request(&white, DrawAction::Accept, now)
            .unwrap();
        assert_eq!(back.game.ply_texts(), ["d6"]);
        assert_eq!(back.running(), None);
        assert_eq!(back.first_ply_deadline(), Some(now + FIRST_PLY_GRACE));
    }
}
