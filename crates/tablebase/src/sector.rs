//! Sectors: the positions with given numbers of pieces on the board and in hand, and the order
//! in which they are solved.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use morris_core::{Color, Rules};

/// The positions with `us` pieces on the board and `us_hand` in hand for the side to move, and
/// `them`, `them_hand` for the other side. Colours are normalised: the side to move is "us".
///
/// Written `W-B` for the moving phase (no pieces in hand) and `W-B-WF-BF` otherwise.
///
/// ```
/// use morris_tablebase::Sector;
/// let s: Sector = "4-3".parse()?;
/// assert_eq!((s.us, s.them, s.us_hand, s.them_hand), (4, 3, 0, 0));
/// assert_eq!("3-2-1-1".parse::<Sector>()?.to_string(), "3-2-1-1");
/// # Ok::<_, morris_tablebase::ParseSectorError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sector {
    /// Pieces of the side to move on the board.
    pub us: u8,
    /// Pieces of the other side on the board.
    pub them: u8,
    /// Pieces of the side to move in hand.
    pub us_hand: u8,
    /// Pieces of the other side in hand.
    pub them_hand: u8,
}

/// The error of a sector name that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSectorError(String);

impl fmt::Display for ParseSectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad sector {:?}: write W-B or W-B-WF-BF (pieces on the board and in hand, side to move first)",
            self.0
        )
    }
}

impl std::error::Error for ParseSectorError {}

impl FromStr for Sector {
    type Err = ParseSectorError;
    fn from_str(s: &str) -> Result<Sector, ParseSectorError> {
        let err = || ParseSectorError(s.to_string());
        let parts = s
            .trim()
            .split('-')
            .map(|p| p.parse::<u8>().map_err(|_| err()))
            .collect::<Result<Vec<u8>, _>>()?;
        match parts[..] {
            [us, them] => Ok(Sector::moving(us, them)),
            [us, them, us_hand, them_hand] => Ok(Sector {
                us,
                them,
                us_hand,
                them_hand,
            }),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_moving() {
            write!(f, "{}-{}", self.us, self.them)
        } else {
            write!(
                f,
                "{}-{}-{}-{}",
                self.us, self.them, self.us_hand, self.them_hand
            )
        }
    }
}

impl Sector {
    /// A moving-phase sector: no pieces in hand.
    pub const fn moving(us: u8, them: u8) -> Sector {
        Sector {
            us,
            them,
            us_hand: 0,
            them_hand: 0,
        }
    }

    /// Whether no piece is in hand.
    pub const fn is_moving(&self) -> bool {
        self.us_hand == 0 && self.them_hand == 0
    }

    /// The colour of the side to move in the game's own terms: White when both have placed
    /// equally often (always in the moving phase), Black when White has placed once more.
    pub const fn turn(&self) -> Color {
        if self.us_hand == self.them_hand {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Checks that positions of this sector can occur under the rules and are stored (both
    /// sides have at least 3 pieces left).
    ///
    /// # Errors
    ///
    /// A message that says what does not fit.
    pub fn check(&self, rules: &Rules) -> Result<(), String> {
        let n = rules.pieces;
        let points = rules.board().len();
        if rules.place_or_move {
            return Err(format!(
                "tablebases do not support {} (placing or moving at will)",
                rules.variant
            ));
        }
        if self.us + self.us_hand > n || self.them + self.them_hand > n {
            return Err(format!("sector {self}: more than {n} pieces for a side"));
        }
        if self.us + self.us_hand < 3 || self.them + self.them_hand < 3 {
            return Err(format!(
                "sector {self}: a side with fewer than 3 pieces has lost; such positions are not stored"
            ));
        }
        if usize::from(self.us) + usize::from(self.them) > points {
            return Err(format!("sector {self}: more pieces than points"));
        }
        if !(self.us_hand == self.them_hand || self.us_hand == self.them_hand + 1) {
            return Err(format!(
                "sector {self}: the hands cannot occur (placements alternate, White first)"
            ));
        }
        if self.us > n - self.us_hand || self.them > n - self.them_hand {
            return Err(format!(
                "sector {self}: more pieces on the board than placed"
            ));
        }
        Ok(())
    }

    /// The sectors solved together with this one: a moving sector and its colour swap (plies
    /// without removal go back and forth between them), or the sector alone.
    pub fn group(&self) -> Vec<Sector> {
        if self.is_moving() && self.us != self.them {
            let mut g = vec![*self, Sector::moving(self.them, self.us)];
            g.sort();
            g
        } else {
            vec![*self]
        }
    }

    /// The sectors a ply from this one can lead to (those that are stored), this one's group
    /// included.
    pub fn children(&self, rules: &Rules) -> Vec<Sector> {
        let removals = !rules.line_wins;
        let mut out = Vec::new();
        let mut push = |s: Sector| {
            if s.check(rules).is_ok() && !out.contains(&s) {
                out.push(s);
            }
        };
        if self.us_hand > 0 {
            let (us, hand) = (self.us + 1, self.us_hand - 1);
            push(Sector {
                us: self.them,
                them: us,
                us_hand: self.them_hand,
                them_hand: hand,
            });
            if removals && self.them > 0 {
                push(Sector {
                    us: self.them - 1,
                    them: us,
                    us_hand: self.them_hand,
                    them_hand: hand,
                });
            }
        } else {
            push(Sector {
                us: self.them,
                them: self.us,
                us_hand: self.them_hand,
                them_hand: 0,
            });
            if removals && self.them > 0 {
                push(Sector {
                    us: self.them - 1,
                    them: self.us,
                    us_hand: self.them_hand,
                    them_hand: 0,
                });
            }
        }
        out
    }

    /// Every stored sector of the moving phase with at most `max_pieces` pieces on the board.
    pub fn moving_up_to(rules: &Rules, max_pieces: u8) -> Vec<Sector> {
        let n = rules.pieces;
        let mut out = Vec::new();
        for us in 3..=n {
            for them in 3..=n {
                let s = Sector::moving(us, them);
                if us + them <= max_pieces && s.check(rules).is_ok() {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The sector of the start of the game.
    pub fn start(rules: &Rules) -> Sector {
        Sector {
            us: 0,
            them: 0,
            us_hand: rules.pieces,
            them_hand: rules.pieces,
        }
    }
}

/// The order in which to solve sectors: groups in levels, each group depending only on groups
/// of lower levels, so that the groups of one level can be solved independently (on different
/// machines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The levels, lowest first; each is a list of groups, each group a list of sectors.
    pub levels: Vec<Vec<Vec<Sector>>>,
}

impl Plan {
    /// The plan that solves `targets` and everything they depend on.
    ///
    /// # Errors
    ///
    /// When a target does not fit the rules.
    pub fn new(rules: &Rules, targets: &[Sector]) -> Result<Plan, String> {
        for t in targets {
            t.check(rules)?;
        }
        // Collect the closure of groups.
        let mut deps: BTreeMap<Vec<Sector>, BTreeSet<Vec<Sector>>> = BTreeMap::new();
        let mut todo: Vec<Vec<Sector>> = targets.iter().map(Sector::group).collect();
        while let Some(group) = todo.pop() {
            if deps.contains_key(&group) {
                continue;
            }
            let mut children = BTreeSet::new();
            for s in &group {
                for c in s.children(rules) {
                    let g = c.group();
                    if g != group {
                        children.insert(g);
                    }
                }
            }
            todo.extend(children.iter().cloned());
            deps.insert(group, children);
        }
        let mut level: BTreeMap<Vec<Sector>, usize> = BTreeMap::new();
        fn level_of(
            g: &Vec<Sector>,
            deps: &BTreeMap<Vec<Sector>, BTreeSet<Vec<Sector>>>,
            level: &mut BTreeMap<Vec<Sector>, usize>,
        ) -> usize {
            if let Some(&l) = level.get(g) {
                return l;
            }
            let l = deps[g]
                .iter()
                .map(|c| level_of(c, deps, level) + 1)
                .max()
                .unwrap_or(0);
            level.insert(g.clone(), l);
            l
        }
        let mut levels: Vec<Vec<Vec<Sector>>> = Vec::new();
        for g in deps.keys() {
            let l = level_of(g, &deps, &mut level);
            if levels.len() <= l {
                levels.resize(l + 1, Vec::new());
            }
            levels[l].push(g.clone());
        }
        Ok(Plan { levels })
    }

    /// Every group in solving order.
    pub fn groups(&self) -> impl Iterator<Item = &Vec<Sector>> {
        self.levels.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_core::Variant;

    #[test]
    fn names_round_trip_and_bad_names_fail() {
        for s in ["3-3", "9-8", "0-0-9-9", "2-3-4-3"] {
            assert_eq!(s.parse::<Sector>().unwrap().to_string(), s);
        }
        for s in ["", "3", "3-3-3", "a-3", "3-3-1-1-1", "300-3"] {
            assert!(s.parse::<Sector>().is_err(), "{s}");
        }
    }

    #[test]
    fn checks_follow_the_rules() {
        let nine = Variant::Nine.rules();
        assert!(Sector::moving(3, 3).check(&nine).is_ok());
        assert!(Sector::moving(2, 3).check(&nine).is_err());
        assert!(Sector::moving(10, 3).check(&nine).is_err());
        assert!("0-0-9-9".parse::<Sector>().unwrap().check(&nine).is_ok());
        assert!("0-1-9-8".parse::<Sector>().unwrap().check(&nine).is_ok());
        assert!("0-0-8-9".parse::<Sector>().unwrap().check(&nine).is_err());
    }

    #[test]
    fn plan_puts_dependencies_first() {
        let nine = Variant::Nine.rules();
        let plan = Plan::new(&nine, &[Sector::moving(5, 4)]).unwrap();
        let names: Vec<Vec<String>> = plan
            .levels
            .iter()
            .map(|l| {
                l.iter()
                    .map(|g| {
                        g.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join("+")
                    })
                    .collect()
            })
            .collect();
        assert_eq!(
            names,
            [
                vec!["3-3"],
                vec!["3-4+4-3"],
                vec!["3-5+5-3", "4-4"],
                vec!["4-5+5-4"]
            ]
        );
        let six = Variant::Six.rules();
        let plan = Plan::new(&six, &[Sector::start(&six)]).unwrap();
        assert_eq!(plan.groups().last().unwrap(), &vec![Sector::start(&six)]);
        let total: usize = plan.groups().map(Vec::len).sum();
        assert!(total > 16);
    }
}
