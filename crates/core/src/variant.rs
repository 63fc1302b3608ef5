//! Variants of the game as data: a board and a set of rule options.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, BoardKind};

/// The named games of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Nine Men's Morris, the default.
    #[default]
    Nine,
    /// Three Men's Morris on a 3 × 3 grid: a line of three wins at once.
    Three,
    /// Six Men's Morris on two squares.
    Six,
    /// Twelve Men's Morris: the standard board with diagonals, 12 pieces.
    Twelve,
    /// Morabaraba: as Twelve Men's Morris.
    Morabaraba,
    /// Lasker Morris: 10 pieces, and a player may move instead of placing from the start.
    Lasker,
}

impl Variant {
    /// Every variant, in the order of the rule book.
    pub const ALL: [Variant; 6] = [
        Variant::Nine,
        Variant::Three,
        Variant::Six,
        Variant::Twelve,
        Variant::Morabaraba,
        Variant::Lasker,
    ];

    /// The name used on the command line, in protocols and in game records.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Nine => "nine",
            Variant::Three => "three",
            Variant::Six => "six",
            Variant::Twelve => "twelve",
            Variant::Morabaraba => "morabaraba",
            Variant::Lasker => "lasker",
        }
    }

    /// The English title, such as "Nine Men's Morris".
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Nine => "Nine Men's Morris",
            Variant::Three => "Three Men's Morris",
            Variant::Six => "Six Men's Morris",
            Variant::Twelve => "Twelve Men's Morris",
            Variant::Morabaraba => "Morabaraba",
            Variant::Lasker => "Lasker Morris",
        }
    }

    /// The board the variant is played on.
    pub const fn board_kind(self) -> BoardKind {
        match self {
            Variant::Nine | Variant::Lasker => BoardKind::Standard,
            Variant::Twelve | Variant::Morabaraba => BoardKind::Diagonal,
            Variant::Six => BoardKind::Six,
            Variant::Three => BoardKind::Three,
        }
    }

    /// The board the variant is played on.
    pub const fn board(self) -> &'static Board {
        self.board_kind().board()
    }

    /// The variant's rules with their default options.
    pub const fn rules(self) -> Rules {
        let base = Rules {
            variant: self,
            board: self.board_kind(),
            pieces: 9,
            fly_at: 3,
            fly_empty_hand: false,
            mill_removal: MillRemoval::UnlessAllInMills,
            double_mill: DoubleMill::One,
            full_board: FullBoard::Blocked,
            place_or_move: false,
            line_wins: false,
            repetition: 3,
            n_move: 100,
        };
        match self {
            Variant::Nine => base,
            Variant::Three => Rules {
                pieces: 3,
                fly_at: 0,
                line_wins: true,
                ..base
            },
            Variant::Six => Rules {
                pieces: 6,
                fly_at: 0,
                ..base
            },
            Variant::Twelve | Variant::Morabaraba => Rules {
                pieces: 12,
                full_board: FullBoard::Draw,
                ..base
            },
            Variant::Lasker => Rules {
                pieces: 10,
                place_or_move: true,
                ..base
            },
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of reading a [`Variant`] name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError {
    text: String,
}

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected nine, three, six, twelve, morabaraba or lasker)",
            self.text
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let lower = s.trim().to_ascii_lowercase();
        let found = match lower.as_str() {
            "nine" | "9" | "nine men's morris" | "ninemensmorris" | "standard" | "standard_9mm" => {
                Variant::Nine
            }
            "three" | "3" | "three men's morris" => Variant::Three,
            "six" | "6" | "six men's morris" => Variant::Six,
            "twelve" | "12" | "twelve men's morris" | "twelve_mens_morris" => Variant::Twelve,
            "morabaraba" => Variant::Morabaraba,
            "lasker" | "lasker morris" | "lasker_morris" => Variant::Lasker,
            _ => {
                return Err(ParseVariantError {
                    text: s.chars().take(40).collect(),
                });
            }
        };
        Ok(found)
    }
}

/// Which opposing pieces a mill may remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MillRemoval {
    /// Pieces in mills only when every opposing piece stands in a mill (the standard rule).
    UnlessAllInMills,
    /// Any opposing piece.
    Always,
    /// Never a piece in a mill; when all stand in mills the mill removes nothing.
    Never,
}

/// How many pieces a ply that closes two mills at once removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleMill {
    /// One piece, however many mills close (the standard rule).
    One,
    /// One piece for each mill closed.
    PerMill,
}

/// What happens when the placing phase fills every point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FullBoard {
    /// Nothing special: the side to move has no legal ply and so loses, blocked.
    Blocked,
    /// The game is drawn (Twelve Men's Morris, Morabaraba).
    Draw,
}

/// The rules of one game: a board and every option that rule books vary.
///
/// ```
/// use morris_core::{Variant, DoubleMill};
/// let mut rules = Variant::Nine.rules();
/// assert_eq!((rules.pieces, rules.fly_at), (9, 3));
/// rules.double_mill = DoubleMill::PerMill;
/// assert!(rules.check().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The variant these rules start from; names the game in records and protocols.
    pub variant: Variant,
    /// The board.
    pub board: BoardKind,
    /// Pieces per side.
    pub pieces: u8,
    /// A player with exactly this many pieces left (on the board and in hand) may fly; 0 means
    /// never.
    pub fly_at: u8,
    /// Whether flying also needs an empty hand. Off by default: in Lasker Morris a player with
    /// three pieces flies while some are still in hand, as the known value of the game was
    /// computed; Sanmill plays it on.
    pub fly_empty_hand: bool,
    /// Which pieces a mill may remove.
    pub mill_removal: MillRemoval,
    /// Removals for a ply that closes several mills.
    pub double_mill: DoubleMill,
    /// What a board filled in the placing phase means.
    pub full_board: FullBoard,
    /// Whether a player with pieces in hand may move a piece instead of placing (Lasker).
    pub place_or_move: bool,
    /// Whether completing a line wins at once and nothing is removed (Three Men's Morris).
    pub line_wins: bool,
    /// The occurrence of the same position that draws (3 for threefold repetition); 0 is off.
    pub repetition: u8,
    /// Plies in a row without placement or removal that draw; 0 is off.
    pub n_move: u16,
}

/// The largest number of pieces per side that rules may give.
pub const MAX_PIECES: u8 = 12;

/// The error of rules whose options do not fit together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// The board.
    #[inline]
    pub const fn board(&self) -> &'static Board {
        self.board.board()
    }

    /// Checks that the options fit together.
    ///
    /// # Errors
    ///
    /// When there are fewer than 3 or more than 12 pieces per side, more pieces than the board
    /// has points, or the repetition count is 1.
    pub fn check(&self) -> Result<(), RulesError> {
        if !(3..=MAX_PIECES).contains(&self.pieces) {
            return Err(RulesError(format!(
                "pieces per side must be 3 to {MAX_PIECES}, not {}",
                self.pieces
            )));
        }
        if 2 * self.pieces as usize > self.board().len() {
            return Err(RulesError(format!(
                "{} pieces per side do not fit on a board of {} points",
                self.pieces,
                self.board().len()
            )));
        }
        if self.repetition == 1 {
            return Err(RulesError(
                "a repetition count of 1 would draw every position".into(),
            ));
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Variant::Nine.rules()
    }
}

/// The names of the rule options as a game record's tags give them, after its `Variant` tag:
/// `[FlyAt "0"]`, `[DoubleMill "per_mill"]`.
pub const OPTION_TAGS: [&str; 10] = [
    "Diagonals",
    "Pieces",
    "FlyAt",
    "FlyEmptyHand",
    "MillRemoval",
    "DoubleMill",
    "FullBoard",
    "PlaceOrMove",
    "Repetition",
    "NMove",
];

fn flag(name: &str, value: &str) -> Result<bool, RulesError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(RulesError(format!(
            "rule {name}: expected true or false, found '{}'",
            value.chars().take(24).collect::<String>()
        ))),
    }
}

fn count<T: FromStr>(name: &str, value: &str) -> Result<T, RulesError> {
    value.trim().parse().map_err(|_| {
        RulesError(format!(
            "rule {name}: expected a number, found '{}'",
            value.chars().take(24).collect::<String>()
        ))
    })
}

impl Rules {
    /// Sets the rule option a record tag names: one of [`OPTION_TAGS`] (`Diagonals` puts the
    /// diagonal lines on a board of 24 points, or takes them off), or one of Sanmill's rule
    /// settings (`piecesCount`, `flyPieceCount`, `mayFly`, `hasDiagonalLines`,
    /// `mayMoveInPlacingPhase`, `mayRemoveMultiple`, `mayRemoveFromMillsAlways`, `nMoveRule`,
    /// `threefoldRepetitionRule`). Names are compared ignoring case.
    ///
    /// ```
    /// use morris_core::Variant;
    /// let mut rules = Variant::Nine.rules();
    /// assert_eq!(rules.set_option("FlyAt", "0"), Ok(true));
    /// assert_eq!(rules.fly_at, 0);
    /// assert_eq!(rules.set_option("White", "Ann"), Ok(false));
    /// ```
    ///
    /// # Errors
    ///
    /// A [`RulesError`] when the value does not fit the option. The rules as a whole are not
    /// checked here; [`Rules::check`] does that.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RulesError> {
        let key = name.to_ascii_lowercase();
        let word = value.trim().to_ascii_lowercase();
        let bad = |what: &str| {
            RulesError(format!(
                "rule {name}: expected {what}, found '{}'",
                value.chars().take(24).collect::<String>()
            ))
        };
        match key.as_str() {
            "pieces" | "piecescount" => self.pieces = count(name, value)?,
            "flyat" | "flypiececount" => self.fly_at = count(name, value)?,
            "mayfly" => {
                if !flag(name, value)? {
                    self.fly_at = 0;
                } else if self.fly_at == 0 {
                    self.fly_at = 3;
                }
            }
            "flyemptyhand" => self.fly_empty_hand = flag(name, value)?,
            "millremoval" => {
                self.mill_removal = match word.as_str() {
                    "unless_all_in_mills" => MillRemoval::UnlessAllInMills,
                    "always" => MillRemoval::Always,
                    "never" => MillRemoval::Never,
                    _ => return Err(bad("unless_all_in_mills, always or never")),
                }
            }
            "mayremovefrommillsalways" => {
                self.mill_removal = if flag(name, value)? {
                    MillRemoval::Always
                } else {
                    MillRemoval::UnlessAllInMills
                }
            }
            "doublemill" => {
                self.double_mill = match word.as_str() {
                    "one" => DoubleMill::One,
                    "per_mill" => DoubleMill::PerMill,
                    _ => return Err(bad("one or per_mill")),
                }
            }
            "mayremovemultiple" => {
                self.double_mill = if flag(name, value)? {
                    DoubleMill::PerMill
                } else {
                    DoubleMill::One
                }
            }
            "fullboard" => {
                self.full_board = match word.as_str() {
                    "blocked" => FullBoard::Blocked,
                    "draw" => FullBoard::Draw,
                    _ => return Err(bad("blocked or draw")),
                }
            }
            "placeormove" | "maymoveinplacingphase" => self.place_or_move = flag(name, value)?,
            "repetition" => self.repetition = count(name, value)?,
            "threefoldrepetitionrule" => self.repetition = if flag(name, value)? { 3 } else { 0 },
            "nmove" | "nmoverule" => self.n_move = count(name, value)?,
            "diagonals" | "hasdiagonallines" => {
                if self.board().len() != 24 {
                    return Err(RulesError(format!(
                        "rule {name}: the board of {} has no diagonals to add",
                        self.variant
                    )));
                }
                self.board = if flag(name, value)? {
                    BoardKind::Diagonal
                } else {
                    BoardKind::Standard
                };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The options that differ from the defaults of the rules' variant, as record tags
    /// ([`OPTION_TAGS`]) and their values, in the order of [`OPTION_TAGS`].
    pub fn changed_options(&self) -> Vec<(&'static str, String)> {
        let base = self.variant.rules();
        let mut out = Vec::new();
        if self.board != base.board {
            out.push(("Diagonals", (self.board == BoardKind::Diagonal).to_string()));
        }
        if self.pieces != base.pieces {
            out.push(("Pieces", self.pieces.to_string()));
        }
        if self.fly_at != base.fly_at {
            out.push(("FlyAt", self.fly_at.to_string()));
        }
        if self.fly_empty_hand != base.fly_empty_hand {
            out.push(("FlyEmptyHand", self.fly_empty_hand.to_string()));
        }
        if self.mill_removal != base.mill_removal {
            let name = match self.mill_removal {
                MillRemoval::UnlessAllInMills => "unless_all_in_mills",
                MillRemoval::Always => "always",
                MillRemoval::Never => "never",
            };
            out.push(("MillRemoval", name.to_string()));
        }
        if self.double_mill != base.double_mill {
            let name = match self.double_mill {
                DoubleMill::One => "one",
                DoubleMill::PerMill => "per_mill",
            };
            out.push(("DoubleMill", name.to_string()));
        }
        if self.full_board != base.full_board {
            let name = match self.full_board {
                FullBoard::Blocked => "blocked",
                FullBoard::Draw => "draw",
            };
            out.push(("FullBoard", name.to_string()));
        }
        if self.place_or_move != base.place_or_move {
            out.push(("PlaceOrMove", self.place_or_move.to_string()));
        }
        if self.repetition != base.repetition {
            out.push(("Repetition", self.repetition.to_string()));
        }
        if self.n_move != base.n_move {
            out.push(("NMove", self.n_move.to_string()));
        }
        out
    }
}
