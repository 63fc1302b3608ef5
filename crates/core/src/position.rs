//! Positions: the pieces, the hands, the side to move; legal plies and playing them.

use std::fmt;

use smallvec::SmallVec;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::outcome::{Outcome, Reason};
use crate::ply::{Ply, PlyText};
use crate::point::Point;
use crate::setup::Setup;
use crate::variant::{DoubleMill, FullBoard, MillRemoval, Rules, Variant};
use crate::zobrist;

/// A list of plies. Up to 64 are kept inline, which covers all but rare positions (a flying
/// side with a mill to close and many pieces to choose from); longer lists move to the heap.
pub type PlyList = SmallVec<[Ply; 64]>;

/// A position that can occur in a game: pieces, hands, side to move and counters, under a set
/// of rules.
///
/// Positions are small and `Copy`; play a ply on a copy to keep the original.
///
/// ```
/// use morris_core::{Position, Variant};
/// let pos = Position::new(Variant::Nine.rules());
/// assert_eq!(pos.legal_plies().len(), 24);
/// let pos = pos.play_text("d6")?;
/// assert_eq!(pos.to_string(), ".../.W./.../....../.../.../... b 8 9 0 1");
/// # Ok::<_, morris_core::TextPlyError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    // Indexed by colour rather than kept as `ByColor`: reading one side's value after a ply
    // then loads just what the ply stored, which the processor forwards without a stall.
    pieces: [Bitboard; 2],
    in_hand: [u8; 2],
    turn: Color,
    plies_since_removal: u16,
    move_number: u32,
    hash: u64,
}

/// The error of [`Position::play`]: the ply is not legal. It hands the position back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayError {
    /// The position, unchanged.
    pub position: Position,
    /// The ply that is not legal in it.
    pub ply: Ply,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal ply {} in {}",
            self.ply.display(self.position.board()),
            self.position
        )
    }
}

impl std::error::Error for PlayError {}

/// The error of a ply given as text: it cannot be read, or it is not legal here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextPlyError {
    /// The text is not a ply.
    Parse(crate::ply::ParsePlyError),
    /// The text is a ply, but not a legal one in the position; the message says why.
    Illegal {
        /// The ply as written.
        ply: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl fmt::Display for TextPlyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextPlyError::Parse(e) => write!(f, "{e}"),
            TextPlyError::Illegal { ply, reason } => write!(f, "illegal ply {ply}: {reason}"),
        }
    }
}

impl std::error::Error for TextPlyError {}

impl From<crate::ply::ParsePlyError> for TextPlyError {
    fn from(e: crate::ply::ParsePlyError) -> TextPlyError {
        TextPlyError::Parse(e)
    }
}

impl Position {
    /// The starting position under these rules.
    ///
    /// The rules are not checked here; [`Setup::into_position`] checks them.
    pub fn new(rules: Rules) -> Position {
        Position::from_checked_setup(Setup::start(rules))
    }

    /// The starting position of a variant with its default rules.
    pub fn start(variant: Variant) -> Position {
        Position::new(variant.rules())
    }

    pub(crate) fn from_checked_setup(setup: Setup) -> Position {
        let mut pos = Position {
            rules: setup.rules,
            pieces: [setup.pieces.white, setup.pieces.black],
            in_hand: [setup.in_hand.white, setup.in_hand.black],
            turn: setup.turn,
            plies_since_removal: setup.plies_since_removal,
            move_number: setup.move_number,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position as an unchecked [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            rules: self.rules,
            pieces: self.pieces_by_color(),
            in_hand: ByColor::new(self.in_hand[0], self.in_hand[1]),
            turn: self.turn,
            plies_since_removal: self.plies_since_removal,
            move_number: self.move_number,
        }
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &'static Board {
        self.rules.board()
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The pieces of a side on the board.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// The pieces of both sides on the board.
    #[inline]
    pub fn pieces_by_color(&self) -> ByColor<Bitboard> {
        ByColor::new(self.pieces[0], self.pieces[1])
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty point.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.board().all() - self.occupied()
    }

    /// The colour of the piece on a point, if any.
    pub fn piece_at(&self, point: Point) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.pieces(c).contains(point))
    }

    /// The pieces of a side still to be placed.
    #[inline]
    pub fn in_hand(&self, color: Color) -> u8 {
        self.in_hand[color.index()]
    }

    /// The pieces of a side on the board and in hand.
    #[inline]
    pub fn pieces_left(&self, color: Color) -> usize {
        self.pieces(color).count() + self.in_hand(color) as usize
    }

    /// Plies since the last placement or removal, the counter of the N-move rule.
    #[inline]
    pub fn plies_since_removal(&self) -> u16 {
        self.plies_since_removal
    }

    /// The move number: starts at 1 and grows after each of Black's plies.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The Zobrist hash of pieces, hands and side to move (not the counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Recomputes the hash from scratch. Equal to [`Position::hash`], which is kept up to date
    /// incrementally.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for p in self.pieces(color) {
                h ^= zobrist::piece(color, p);
            }
            h ^= zobrist::hand(color, self.in_hand(color));
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }

    /// Whether a side may fly now: it has exactly the rules' number of pieces left, on the
    /// board and in hand (so in Lasker Morris also while pieces remain in hand, unless the
    /// rules ask for an empty hand).
    #[inline]
    pub fn can_fly(&self, color: Color) -> bool {
        self.rules.fly_at != 0
            && self.pieces_left(color) == self.rules.fly_at as usize
            && !(self.rules.fly_empty_hand && self.in_hand(color) > 0)
    }

    /// Whether a side may move pieces on the board now (rather than only place).
    #[inline]
    pub fn can_move_pieces(&self, color: Color) -> bool {
        self.in_hand(color) == 0 || self.rules.place_or_move
    }

    /// The pieces of `victim` that a mill closed by the other side may remove now.
    #[inline]
    pub fn removable(&self, victim: Color) -> Bitboard {
        removable(self.board(), self.rules.mill_removal, self.pieces(victim))
    }

    /// The points where a piece of the side to move, placed or moved there, would close a mill
    /// (for a placement, ignoring whether the side has pieces in hand).
    #[inline]
    pub fn mill_points(&self, color: Color) -> Bitboard {
        let own = self.pieces(color);
        let empty = self.empty();
        let board = self.board();
        let mut out = Bitboard::EMPTY;
        for &mill in board.mills() {
            let missing = mill - own;
            // exactly one point missing
            if missing.0 & missing.0.wrapping_sub(1) == 0 {
                out |= missing;
            }
        }
        out & empty
    }

    /// The result of the game in this position by the rules of play alone (fewer than three
    /// pieces, blocked, a line in Three Men's Morris, a full board), or `None` while it goes on.
    ///
    /// The draw rules that need the game's history (repetition, the N-move rule) are
    /// [`crate::Game`]'s.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.outcome_before_blocking() {
            return Some(o);
        }
        if !self.has_legal_ply_ignoring_end() {
            return Some(Outcome::win(!self.turn, Reason::Blocked));
        }
        None
    }

    /// The end of the game by every rule of play but being blocked, which the callers that
    /// generate plies find out for themselves.
    #[inline(always)]
    fn outcome_before_blocking(&self) -> Option<Outcome> {
        let us = self.turn;
        let them = !us;
        if self.rules.line_wins {
            let board = self.board();
            if board.in_mills(self.pieces(them)).any() {
                return Some(Outcome::win(them, Reason::Line));
            }
            if board.in_mills(self.pieces(us)).any() {
                return Some(Outcome::win(us, Reason::Line));
            }
        }
        if self.pieces_left(us) < 3 {
            return Some(Outcome::win(them, Reason::FewerThanThree));
        }
        if self.pieces_left(them) < 3 {
            return Some(Outcome::win(us, Reason::FewerThanThree));
        }
        if self.rules.full_board == FullBoard::Draw && self.empty().is_empty() {
            return Some(Outcome::draw(Reason::FullBoard));
        }
        None
    }

    /// Whether the game is over by the rules of play alone (see [`Position::outcome`]).
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether the N-move counter has reached the rules' limit (a draw in a [`crate::Game`]).
    pub fn n_move_limit_reached(&self) -> bool {
        self.rules.n_move != 0 && self.plies_since_removal >= self.rules.n_move
    }

    fn has_legal_ply_ignoring_end(&self) -> bool {
        let us = self.turn;
        let empty = self.empty();
        if empty.is_empty() {
            return false;
        }
        if self.in_hand(us) > 0 {
            return true;
        }
        let own = self.pieces(us);
        if self.can_fly(us) {
            return own.any();
        }
        let board = self.board();
        own.into_iter().any(|p| (board.adjacent(p) & empty).any())
    }

    /// Calls `f(from, to, mills closed)` for every placement (`from` = `None`) and every move of
    /// the side to move, ignoring whether the game is over.
    #[inline]
    fn for_each_step(&self, mut f: impl FnMut(Option<Point>, Point, usize)) {
        let us = self.turn;
        let board = self.board();
        let own = self.pieces(us);
        let empty = self.empty();
        let line_wins = self.rules.line_wins;
        if self.in_hand(us) > 0 {
            for to in empty {
                let closed = if line_wins {
                    0
                } else {
                    board.mills_closed_at(to, own | Bitboard::from_point(to))
                };
                f(None, to, closed);
            }
        }
        if self.can_move_pieces(us) {
            let flying = self.can_fly(us);
            for from in own {
                let targets = if flying {
                    empty
                } else {
                    board.adjacent(from) & empty
                };
                let rest = own - Bitboard::from_point(from);
                for to in targets {
                    let closed = if line_wins {
                        0
                    } else {
                        board.mills_closed_at(to, rest | Bitboard::from_point(to))
                    };
                    f(Some(from), to, closed);
                }
            }
        }
    }

    fn step_ply(from: Option<Point>, to: Point, remove: Bitboard) -> Ply {
        match from {
            None => Ply::Place { to, remove },
            Some(from) => Ply::Move { from, to, remove },
        }
    }

    /// Every legal ply, or none when the game is over.
    pub fn legal_plies(&self) -> PlyList {
        let mut list = PlyList::new();
        self.legal_plies_into(&mut list);
        list
    }

    /// Appends every legal ply to `list`; nothing when the game is over.
    pub fn legal_plies_into(&self, list: &mut PlyList) {
        // A blocked side simply has no plies to list.
        if self.outcome_before_blocking().is_some() {
            return;
        }
        let victim = !self.turn;
        let opp = self.pieces(victim);
        let removable = self.removable(victim);
        let per_mill = self.rules.double_mill == DoubleMill::PerMill;
        self.for_each_step(|from, to, closed| {
            if closed == 0 || removable.is_empty() {
                list.push(Position::step_ply(from, to, Bitboard::EMPTY));
            } else if closed == 1 || !per_mill {
                for r in removable {
                    list.push(Position::step_ply(from, to, r.into()));
                }
            } else {
                let mut sets = Vec::new();
                removal_sets(
                    self.board(),
                    self.rules.mill_removal,
                    opp,
                    Bitboard::EMPTY,
                    closed,
                    &mut sets,
                );
                sets.sort_unstable();
                sets.dedup();
                for set in sets {
                    list.push(Position::step_ply(from, to, set));
                }
            }
        });
    }

    /// The number of legal plies, counted without listing them where the rules allow.
    #[inline]
    pub fn count_legal(&self) -> usize {
        if self.rules.double_mill == DoubleMill::PerMill || self.rules.line_wins {
            return self.legal_plies().len();
        }
        // A blocked side simply counts no plies.
        if self.outcome_before_blocking().is_some() {
            return 0;
        }
        let us = self.turn;
        let board = self.board();
        let own = self.pieces(us);
        let empty = self.empty();
        let mut steps = 0;
        let mut closing = 0;
        if self.in_hand(us) > 0 {
            steps += empty.count();
            closing += (self.mill_points(us) & empty).count();
        }
        if self.can_move_pieces(us) {
            let flying = self.can_fly(us);
            for from in own {
                let targets = if flying {
                    empty
                } else {
                    board.adjacent(from) & empty
                };
                steps += targets.count();
                let rest = own - Bitboard::from_point(from);
                for to in targets {
                    if board.closes_mill_at(to, rest | Bitboard::from_point(to)) {
                        closing += 1;
                    }
                }
            }
        }
        if closing > 0 {
            let removals = self.removable(!us).count();
            if removals > 1 {
                steps += closing * (removals - 1);
            }
        }
        steps
    }

    /// Whether a ply is legal here.
    pub fn is_legal(&self, ply: Ply) -> bool {
        let us = self.turn;
        let board = self.board();
        let own = self.pieces(us);
        let empty = self.empty();
        let to = ply.to();
        if to.index() >= board.len() || !empty.contains(to) {
            return false;
        }
        let after = match ply {
            Ply::Place { .. } => {
                if self.in_hand(us) == 0 {
                    return false;
                }
                own | Bitboard::from_point(to)
            }
            Ply::Move { from, .. } => {
                if !self.can_move_pieces(us) || !own.contains(from) {
                    return false;
                }
                if !self.can_fly(us) && !board.adjacent(from).contains(to) {
                    return false;
                }
                (own - Bitboard::from_point(from)) | Bitboard::from_point(to)
            }
        };
        let closed = if self.rules.line_wins {
            0
        } else {
            board.mills_closed_at(to, after)
        };
        let wanted = match self.rules.double_mill {
            DoubleMill::One => closed.min(1),
            DoubleMill::PerMill => closed,
        };
        valid_removals(
            board,
            self.rules.mill_removal,
            self.pieces(!us),
            ply.removals(),
            wanted,
        ) && !self.is_over()
    }

    /// Plays a ply that the caller guarantees to be legal.
    ///
    /// An illegal ply leaves a position that may break the invariants of this type (for example
    /// two pieces on one point); it does not make anything unsafe.
    #[inline(always)]
    pub fn play_unchecked(&mut self, ply: Ply) {
        let hash = self.hash ^ self.hash_change(ply);
        self.apply(ply);
        self.hash = hash;
    }

    /// The position after a ply that the caller guarantees to be legal: the same as playing
    /// it on a copy with [`Position::play_unchecked`], and often faster where the result is
    /// read at once.
    #[inline(always)]
    #[must_use]
    pub fn after_unchecked(&self, ply: Ply) -> Position {
        let mut child = self.after_unhashed(ply);
        child.hash = self.hash ^ self.hash_change(ply);
        child
    }

    /// What playing a ply changes in the hash.
    #[inline(always)]
    fn hash_change(&self, ply: Ply) -> u64 {
        let us = self.turn;
        let mut change = zobrist::piece(us, ply.to()) ^ zobrist::black_to_move();
        match ply {
            Ply::Place { .. } => {
                let hand = self.in_hand(us);
                change ^= zobrist::hand(us, hand) ^ zobrist::hand(us, hand.wrapping_sub(1));
            }
            Ply::Move { from, .. } => change ^= zobrist::piece(us, from),
        }
        for r in ply.removals() {
            change ^= zobrist::piece(!us, r);
        }
        change
    }

    /// Plays a ply on everything but the hash.
    #[inline(always)]
    fn apply(&mut self, ply: Ply) {
        *self = self.after_unhashed(ply);
    }

    /// The position after a ply, its hash left as it was.
    ///
    /// Built from scratch rather than by changing a copy: each field is stored once, whole,
    /// so that reading it again finds it ready in the store buffer.
    #[inline(always)]
    fn after_unhashed(&self, ply: Ply) -> Position {
        let us = self.turn;
        let them = !us;
        let mut pieces = self.pieces;
        let mut in_hand = self.in_hand;
        let mut reset = false;
        match ply {
            Ply::Place { .. } => {
                in_hand[us.index()] = in_hand[us.index()].wrapping_sub(1);
                reset = true;
            }
            Ply::Move { from, .. } => pieces[us.index()].remove(from),
        }
        pieces[us.index()].insert(ply.to());
        let remove = ply.removals();
        if remove.any() {
            reset = true;
            pieces[them.index()] = pieces[them.index()] - remove;
        }
        Position {
            rules: self.rules,
            pieces,
            in_hand,
            turn: them,
            plies_since_removal: if reset {
                0
            } else {
                self.plies_since_removal.saturating_add(1)
            },
            move_number: if us == Color::Black {
                self.move_number.saturating_add(1)
            } else {
                self.move_number
            },
            hash: self.hash,
        }
    }

    /// The number of legal plies after a legal ply, counted without updating the hash, which
    /// the count does not need.
    #[inline]
    pub(crate) fn count_legal_after(&self, ply: Ply) -> usize {
        self.after_unhashed(ply).count_legal()
    }

    /// Plays a ply if it is legal.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] that hands the position back when the ply is not legal.
    pub fn play(mut self, ply: Ply) -> Result<Position, PlayError> {
        if self.is_legal(ply) {
            self.play_unchecked(ply);
            Ok(self)
        } else {
            Err(PlayError {
                position: self,
                ply,
            })
        }
    }

    /// Turns a ply in notation into a legal ply of this position.
    ///
    /// A ply that closes a mill must name its removal, unless there is nothing to remove.
    ///
    /// # Errors
    ///
    /// [`TextPlyError::Illegal`] with the reason when the ply is not legal here.
    pub fn ply_from_text(&self, text: &PlyText) -> Result<Ply, TextPlyError> {
        let board = self.board();
        let illegal = |reason: String| TextPlyError::Illegal {
            ply: text.to_string(),
            reason,
        };
        let point = |sq| {
            board
                .point_at(sq)
                .ok_or_else(|| illegal(format!("the board has no point {sq}")))
        };
        let to = point(text.to)?;
        let from = text.from.map(point).transpose()?;
        let mut remove = Bitboard::EMPTY;
        for &sq in &text.remove {
            let p = point(sq)?;
            if remove.contains(p) {
                return Err(illegal(format!("{sq} is removed twice")));
            }
            remove.insert(p);
        }
        let ply = Position::step_ply(from, to, remove);
        if self.is_legal(ply) {
            return Ok(ply);
        }
        Err(illegal(self.why_illegal(ply)))
    }

    /// Reads a ply in notation and checks that it is legal here.
    ///
    /// # Errors
    ///
    /// [`TextPlyError::Parse`] when the text is not a ply, [`TextPlyError::Illegal`] when it is
    /// not legal here.
    pub fn parse_ply(&self, text: &str) -> Result<Ply, TextPlyError> {
        self.ply_from_text(&text.trim().parse::<PlyText>()?)
    }

    /// Reads a ply, checks it and plays it.
    ///
    /// # Errors
    ///
    /// As [`Position::parse_ply`].
    pub fn play_text(mut self, text: &str) -> Result<Position, TextPlyError> {
        let ply = self.parse_ply(text)?;
        self.play_unchecked(ply);
        Ok(self)
    }

    fn why_illegal(&self, ply: Ply) -> String {
        let board = self.board();
        let us = self.turn;
        let name = |p: Point| board.square(p);
        if let Some(outcome) = self.outcome() {
            return format!("the game is over ({})", outcome.describe());
        }
        let to = ply.to();
        if !self.empty().contains(to) {
            return format!("{} is not empty", name(to));
        }
        match ply {
            Ply::Place { .. } if self.in_hand(us) == 0 => {
                return format!("{} has no pieces in hand", us.title());
            }
            Ply::Move { .. } if !self.can_move_pieces(us) => {
                return format!(
                    "{} must place a piece while pieces remain in hand",
                    us.title()
                );
            }
            Ply::Move { from, .. } if !self.pieces(us).contains(from) => {
                return format!("{} has no piece on {}", us.title(), name(from));
            }
            Ply::Move { from, .. } if !self.can_fly(us) && !board.adjacent(from).contains(to) => {
                return format!("{} is not next to {}", name(to), name(from));
            }
            _ => {}
        }
        let bare = ply.with_removals(Bitboard::EMPTY);
        let removal_counts: Vec<usize> = self
            .legal_plies()
            .iter()
            .filter(|p| p.with_removals(Bitboard::EMPTY) == bare)
            .map(|p| p.removals().count())
            .collect();
        let needs_removal = removal_counts.iter().any(|&n| n > 0);
        if needs_removal && !ply.is_removal() {
            return "it closes a mill: add the piece to remove, as in d6xa1".into();
        }
        if !needs_removal && ply.is_removal() {
            let own = self.pieces(us) - ply.from().map_or(Bitboard::EMPTY, Bitboard::from_point);
            let closes = !self.rules.line_wins
                && board.mills_closed_at(to, own | Bitboard::from_point(to)) > 0;
            return if closes {
                "it closes a mill, but no opposing piece may be removed".into()
            } else {
                "it closes no mill, so it removes nothing".into()
            };
        }
        if let Some(&owed) = removal_counts.first() {
            if ply.removals().count() != owed {
                let noun = if owed == 1 { "piece" } else { "pieces" };
                return format!("it removes {owed} {noun}, not {}", ply.removals().count());
            }
        }
        let them = !us;
        for r in ply.removals() {
            if !self.pieces(them).contains(r) {
                return format!("{} has no piece on {}", them.title(), name(r));
            }
        }
        "that piece may not be removed (it stands in a mill while others do not)".into()
    }

    /// The position seen through a symmetry of the board.
    #[must_use]
    pub fn transform(&self, sym: &crate::board::Symmetry) -> Position {
        let mut pos = *self;
        pos.pieces = self.pieces.map(|p| sym.apply_set(p));
        pos.hash = pos.compute_hash();
        pos
    }

    /// The representative of this position's class under the board's symmetries (the image
    /// with the smallest pair of White's and Black's sets), and the index of the symmetry that
    /// maps this position to it.
    pub fn canonical(&self) -> (Position, usize) {
        let mut best = (*self, 0);
        let mut best_key = (self.pieces[0], self.pieces[1]);
        for (i, sym) in self.board().symmetries().iter().enumerate().skip(1) {
            let key = (sym.apply_set(self.pieces[0]), sym.apply_set(self.pieces[1]));
            if key < best_key {
                best_key = key;
                best = (self.transform(sym), i);
            }
        }
        best
    }
}

#[inline]
fn removable(board: &Board, rule: MillRemoval, victim: Bitboard) -> Bitboard {
    match rule {
        MillRemoval::Always => victim,
        MillRemoval::UnlessAllInMills => {
            let free = victim - board.in_mills(victim);
            if free.any() { free } else { victim }
        }
        MillRemoval::Never => victim - board.in_mills(victim),
    }
}

/// Collects every set of up to `left` removals made one after another from `victim`.
fn removal_sets(
    board: &Board,
    rule: MillRemoval,
    victim: Bitboard,
    chosen: Bitboard,
    left: usize,
    out: &mut Vec<Bitboard>,
) {
    let now = removable(board, rule, victim);
    if left == 0 || now.is_empty() {
        out.push(chosen);
        return;
    }
    for r in now {
        let r = Bitboard::from_point(r);
        removal_sets(board, rule, victim - r, chosen | r, left - 1, out);
    }
}

/// Whether `remove` is a set of removals that can be made one after another from `victim` when
/// `wanted` are owed: as many as owed, or fewer when nothing more may be removed.
pub(crate) fn valid_removals(
    board: &Board,
    rule: MillRemoval,
    victim: Bitboard,
    remove: Bitboard,
    wanted: usize,
) -> bool {
    let now = removable(board, rule, victim);
    if remove.is_empty() {
        return wanted == 0 || now.is_empty();
    }
    if wanted == 0 {
        return false;
    }
    (remove & now).into_iter().any(|r| {
        let r = Bitboard::from_point(r);
        valid_removals(board, rule, victim - r, remove - r, wanted - 1)
    })
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.rules.variant, self)
    }
}
