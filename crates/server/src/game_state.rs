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
        let times = vec![before; game.plies().len()];
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
            clock: None,
            times,
            ended_at: None,
            ratings: None,
            rematch_offer: None,
            next_game: None,
            takeback_offer: None,
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

    /// When the flag of the side to move falls, in a game with a clock that is played.
    pub fn deadline(&self) -> Option<Millis> {
        let clock = self.clock.as_ref()?;
        if self.is_over() {
            return None;
        }
        Some(clock.deadline(self.game.position().turn()))
    }

    /// The game ended on time, if the flag of the side to move has fallen at `now`.
    pub fn flag_fall(&self, now: Millis) -> Option<GameState> {
        let turn = self.game.position().turn();
        if self.deadline().is_none_or(|d| now < d) {
            return None;
        }
        let mut next = self.next();
        next.game
            .set_ended(Some(Outcome::win(!turn, Reason::Timeout)));
        next.finish(now);
        Some(next)
    }

    /// Stops the clock and notes the end, in a state that has just ended.
    fn finish(&mut self, now: Millis) {
        if !self.is_over() {
            return;
        }
        self.draw_offer = None;
        self.ended_at = Some(now);
        // The clock stands as it stood at the last ply, unless time ran out: then the loser
        // shows none left.
        if let Some(clock) = &mut self.clock {
            let turn = self.game.position().turn();
            if clock.flagged(turn, now) {
                *clock = clock.stopped(turn, now);
            }
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
        if let Some(clock) = &self.clock {
            next.clock = Some(
                clock
                    .after_ply(mover, now)
                    .map_err(|_| Refusal::OutOfTime)?,
            );
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

    /// Takes back the token holder's last ply: against the computer, the computer's reply too;
    /// in a friend game only while the friend has not answered it; on one device the last ply.
    ///
    /// # Errors
    ///
    /// 403 for a token without a seat; 409 when there is nothing of the holder's to take back,
    /// or the game ended by resignation or agreement (or a friend game is over).
    pub fn takeback<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        if self.draw_or_resigned() {
            return Err(Refusal::EndedByAgreement);
        }
        let plies = self.game.plies().len();
        let mover_of = |i: usize| self.game.positions()[i].turn();
        let count = match (self.opponent, seat) {
            (_, Seat::Both) => usize::from(plies > 0),
            (Opponent::Friend, Seat::One(c)) => {
                self.require_playing()?;
                usize::from(plies > 0 && mover_of(plies - 1) == c)
            }
            (Opponent::Computer | Opponent::Local, Seat::One(c)) => {
                // Back to the holder's last ply, inclusive.
                (0..plies)
                    .rev()
                    .find(|&i| mover_of(i) == c)
                    .map_or(0, |i| plies - i)
            }
        };
        if count == 0 {
            return Err(Refusal::NothingToTakeBack);
        }
        let mut next = self.next();
        let turn = self.game.position().turn();
        for _ in 0..count {
            next.game.undo();
        }
        next.times.truncate(next.game.plies().len());
        next.draw_offer = None;
        next.takeback_offer = None;
        if let Some(clock) = &mut next.clock {
            *clock = clock.switched(turn, now);
        }
        Ok(next)
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
                }
                Ok(Some(next))
            }
        }
    }

    /// Acts on a request to take back in a game between people, once the opponent has
    /// answered the ply (before that, [`GameState::takeback`] takes it back at once): the
    /// requester's last ply and the opponent's answer go when the opponent accepts.
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
        let mut next = self.next();
        match action {
            DrawAction::Offer => {
                if self.takeback_offer.is_some() {
                    return Err(Refusal::DrawAlreadyOffered);
                }
                let positions = self.game.positions();
                let has_ply = (0..self.game.plies().len()).any(|i| positions[i].turn() == mine);
                if !has_ply {
                    return Err(Refusal::NothingToTakeBack);
                }
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
                next.takeback_offer = None;
                if action == DrawAction::Accept {
                    // Back to the requester's last ply, inclusive.
                    let positions = self.game.positions();
                    let plies = self.game.plies().len();
                    let count = (0..plies)
                        .rev()
                        .find(|&i| positions[i].turn() == by)
                        .map_or(0, |i| plies - i);
                    let turn = self.game.position().turn();
                    for _ in 0..count {
                        next.game.undo();
                    }
                    next.times.truncate(next.game.plies().len());
                    next.draw_offer = None;
                    if let Some(clock) = &mut next.clock {
                        *clock = clock.switched(turn, now);
                    }
                }
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

    /// The holder calls the game off: only in a game between people, before each side has
    /// played its first ply. It then counts for nobody.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::TooLateToAbort`].
    pub fn abort<'a>(&self, who: impl Into<Holder<'a>>, now: Millis) -> Result<GameState, Refusal> {
        self.require_seat(who.into())?;
        self.require_playing()?;
        if self.opponent != Opponent::Friend || self.game.plies().len() >= 2 {
            return Err(Refusal::TooLateToAbort);
        }
        let mut next = self.next();
        next.game.set_ended(Some(Outcome::draw(Reason::Aborted)));
        next.finish(now);
        Ok(next)
    }

    /// The holder claims the game (a win, or a draw when `draw`) after the opponent has been
    /// gone for `opponent_gone` milliseconds, at least [`crate::presence::CLAIM_AFTER`].
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::GameOver`], [`Refusal::OpponentPresent`].
    pub fn claim<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        draw: bool,
        opponent_gone: Option<Millis>,
        now: Millis,
    ) -> Result<GameState, Refusal> {
        let seat = self.require_seat(who.into())?;
        self.require_playing()?;
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
    /// the caller starts the rematch with [`GameState::rematch_game`]) or decline.
    ///
    /// # Errors
    ///
    /// [`Refusal::NoSeat`], [`Refusal::StillPlaying`], [`Refusal::Rematched`], and the
    /// refusals of answering an offer that is not there or is one's own.
    pub fn rematch<'a>(
        &self,
        who: impl Into<Holder<'a>>,
        action: DrawAction,
    ) -> Result<(GameState, bool), Refusal> {
        let seat = self.require_seat(who.into())?;
        if !self.is_over() || self.opponent != Opponent::Friend {
            return Err(Refusal::StillPlaying);
        }
        if self.next_game.is_some() {
            return Err(Refusal::Rematched);
        }
        let mine = self.own_side(seat);
        let mut next = self.next();
        match action {
            DrawAction::Offer => {
                if self.rematch_offer.is_some() {
                    return Err(Refusal::DrawAlreadyOffered);
                }
                next.rematch_offer = Some(mine);
                Ok((next, false))
            }
            DrawAction::Accept | DrawAction::Decline => {
                let Some(by) = self.rematch_offer else {
                    return Err(Refusal::NoDrawOffered);
                };
                if by == mine && seat != Seat::Both {
                    return Err(Refusal::OwnDrawOffer);
                }
                next.rematch_offer = None;
                Ok((next, action == DrawAction::Accept))
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
    fn takeback_in_a_friend_game_only_before_the_answer() {
        let (s, white, black) = state(Opponent::Friend);
        let s = s.play(&white, &p("d6"), 0).unwrap();
        assert_eq!(
            s.takeback(&black, 0).unwrap_err(),
            Refusal::NothingToTakeBack
        );
        let s = s.play(&black, &p("f4"), 0).unwrap();
        assert_eq!(
            s.takeback(&white, 0).unwrap_err(),
            Refusal::NothingToTakeBack
        );
        assert!(s.takeback(&black, 0).unwrap().game.ply_texts() == ["d6"]);
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
    fn each_ply_is_timed_and_deducted() {
        let (s, white, black) = clocked(3, 2);
        let s = s.play(&white, &p("d6"), T0 + 5_000).unwrap();
        let s = s.play(&black, &p("f4"), T0 + 12_000).unwrap();
        let clock = s.clock.unwrap();
        assert_eq!(clock.left.white, 177_000);
        assert_eq!(clock.left.black, 175_000);
        assert_eq!(
            s.times,
            [
                PlyTime {
                    at: T0 + 5_000,
                    left: Some(177_000)
                },
                PlyTime {
                    at: T0 + 12_000,
                    left: Some(175_000)
                }
            ]
        );
        assert_eq!(s.deadline(), Some(T0 + 12_000 + 177_000));
    }

    #[test]
    fn a_flag_falls_with_nobody_there_and_a_late_ply_is_refused() {
        let (s, white, _) = clocked(1, 0);
        assert!(s.flag_fall(T0 + 59_999).is_none());
        assert_eq!(
            s.play(&white, &p("d6"), T0 + 60_000).unwrap_err(),
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
        let s = s.play(&white, &p("d6"), T0 + day - 1).unwrap();
        let s = s.play(&black, &p("f4"), T0 + 2 * day - 2).unwrap();
        assert!(s.flag_fall(T0 + 3 * day - 3).is_none());
        let over = s.flag_fall(T0 + 3 * day - 2).unwrap();
        assert_eq!(over.game.outcome().unwrap().winner, Some(Color::Black));
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
    fn a_game_is_claimed_only_after_the_opponent_was_gone_long_enough() {
        let (s, white, _) = state(Opponent::Friend);
        let wait = crate::presence::CLAIM_AFTER;
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
        let (offered, started) = over.rematch(&black, DrawAction::Offer).unwrap();
        assert!(!started);
        assert_eq!(offered.rematch_offer, Some(Color::Black));
        assert_eq!(
            offered.rematch(&black, DrawAction::Accept).unwrap_err(),
            Refusal::OwnDrawOffer
        );
        let (declined, started) = offered.rematch(&white, DrawAction::Decline).unwrap();
        assert!(!started && declined.rematch_offer.is_none());
        let (accepted, started) = offered.rematch(&white, DrawAction::Accept).unwrap();
        assert!(started);
        let next = accepted.rematch_game(GameId::random(), T0 + 1000);
        assert_eq!(next.seat_of(&white), Some(Seat::One(Color::Black)));
        assert_eq!(next.seat_of(&black), Some(Seat::One(Color::White)));
        assert_eq!(next.seat_of(PlayerId(1)), Some(Seat::One(Color::Black)));
        assert_eq!(next.players.white, s.players.black);
        assert!(next.rated);
        assert_eq!(next.clock.unwrap().left.white, 180_000);
        assert!(next.game.plies().is_empty());
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
}
