//! Time controls and the clock of a game between people (or against the computer).
//!
//! The server is the clock's authority. Nothing here reads the time: every function is given
//! the time now, in milliseconds since 1970 ([`Millis`]), by its caller, who asks a [`Now`].
//! The server asks the system; a test asks a [`ManualNow`] that it moves on itself, so that a
//! flag falls in a test without any sleep.
//!
//! A Fischer clock: each side has a base time; the clock of the side to move runs from the
//! start of the game; a ply stops it, takes the time spent off and adds the increment. A
//! correspondence game gives each ply the same number of days. A side whose time is spent
//! has lost on time, whether or not anyone is connected to see it.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};

use morris_core::{ByColor, Color};
use serde::{Deserialize, Serialize};

/// A time in milliseconds since 1970 (UTC).
pub type Millis = i64;

/// One day in milliseconds.
pub const DAY: Millis = 86_400_000;

/// Where the time now comes from.
pub trait Now: Send + Sync + fmt::Debug {
    /// The time now, in milliseconds since 1970.
    fn now(&self) -> Millis;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemNow;

impl Now for SystemNow {
    fn now(&self) -> Millis {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| {
                Millis::try_from(d.as_millis()).unwrap_or(Millis::MAX)
            })
    }
}

/// A clock that moves only when told to: what tests of timers run on.
#[derive(Debug, Default)]
pub struct ManualNow(AtomicI64);

impl ManualNow {
    /// A clock standing at `start`.
    pub fn new(start: Millis) -> ManualNow {
        ManualNow(AtomicI64::new(start))
    }

    /// Moves the clock on by `ms`.
    pub fn advance(&self, ms: Millis) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Now for ManualNow {
    fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
}

/// The longest base time of a Fischer clock: three hours.
pub const MAX_BASE: Millis = 3 * 3_600_000;
/// The shortest base time of a Fischer clock: ten seconds.
pub const MIN_BASE: Millis = 10_000;
/// The largest increment: one minute.
pub const MAX_INCREMENT: Millis = 60_000;
/// The most days per ply of a correspondence game.
pub const MAX_DAYS: u8 = 14;

/// The common time controls, in minutes + seconds, offered for quick pairing.
pub const PRESETS: [(u32, u32); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];

/// How much time a game gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A base time for each side and an increment added after each of its plies.
    Fischer {
        /// The base time, in milliseconds.
        base: Millis,
        /// The increment, in milliseconds.
        increment: Millis,
    },
    /// The same number of days for every ply.
    Correspondence {
        /// Days per ply.
        days: u8,
    },
}

/// Why a time control cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControlError {
    /// The base time is outside [`MIN_BASE`]..=[`MAX_BASE`].
    Base(Millis),
    /// The increment is outside 0..=[`MAX_INCREMENT`].
    Increment(Millis),
    /// The days are outside 1..=[`MAX_DAYS`].
    Days(u8),
    /// The text is no time control.
    Unreadable(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Base(ms) => write!(
                f,
                "the base time must be from {} seconds to {} minutes, not {} seconds",
                MIN_BASE / 1000,
                MAX_BASE / 60_000,
                ms / 1000
            ),
            TimeControlError::Increment(ms) => write!(
                f,
                "the increment must be from 0 to {} seconds, not {} seconds",
                MAX_INCREMENT / 1000,
                ms / 1000
            ),
            TimeControlError::Days(d) => {
                write!(f, "days per move must be from 1 to {MAX_DAYS}, not {d}")
            }
            TimeControlError::Unreadable(t) => write!(f, "{t:?} is no time control"),
        }
    }
}

impl std::error::Error for TimeControlError {}

impl TimeControl {
    /// A Fischer clock, checked.
    ///
    /// # Errors
    ///
    /// When the base or the increment is out of bounds.
    pub fn fischer(base: Millis, increment: Millis) -> Result<TimeControl, TimeControlError> {
        if !(MIN_BASE..=MAX_BASE).contains(&base) {
            return Err(TimeControlError::Base(base));
        }
        if !(0..=MAX_INCREMENT).contains(&increment) {
            return Err(TimeControlError::Increment(increment));
        }
        Ok(TimeControl::Fischer { base, increment })
    }

    /// A correspondence clock, checked.
    ///
    /// # Errors
    ///
    /// When the days are out of bounds.
    pub fn correspondence(days: u8) -> Result<TimeControl, TimeControlError> {
        if !(1..=MAX_DAYS).contains(&days) {
            return Err(TimeControlError::Days(days));
        }
        Ok(TimeControl::Correspondence { days })
    }

    /// A preset given in minutes + seconds.
    ///
    /// # Errors
    ///
    /// When it is out of bounds.
    pub fn minutes(minutes: u32, seconds: u32) -> Result<TimeControl, TimeControlError> {
        TimeControl::fischer(Millis::from(minutes) * 60_000, Millis::from(seconds) * 1000)
    }

    /// The time each side starts with.
    pub fn initial(self) -> Millis {
        match self {
            TimeControl::Fischer { base, .. } => base,
            TimeControl::Correspondence { days } => Millis::from(days) * DAY,
        }
    }

    /// The class its ratings are kept in.
    pub fn class(self) -> TimeClass {
        match self {
            TimeControl::Correspondence { .. } => TimeClass::Correspondence,
            TimeControl::Fischer { base, increment } => {
                // The length of a game of 40 plies a side.
                let estimate = base + 40 * increment;
                match estimate {
                    e if e < 3 * 60_000 => TimeClass::Bullet,
                    e if e < 8 * 60_000 => TimeClass::Blitz,
                    e if e < 25 * 60_000 => TimeClass::Rapid,
                    _ => TimeClass::Classical,
                }
            }
        }
    }
}

/// `3+2` (minutes + seconds; seconds of base written `0:30+0`), or `3d` for days per ply.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Fischer { base, increment } => {
                if base % 60_000 == 0 {
                    write!(f, "{}+{}", base / 60_000, increment / 1000)
                } else {
                    write!(
                        f,
                        "{}:{:02}+{}",
                        base / 60_000,
                        base % 60_000 / 1000,
                        increment / 1000
                    )
                }
            }
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads what [`Display`](fmt::Display) writes.
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError::Unreadable(s.chars().take(20).collect());
        if let Some(days) = s.strip_suffix('d') {
            return TimeControl::correspondence(days.parse().map_err(|_| bad())?);
        }
        let (base, inc) = s.split_once('+').ok_or_else(bad)?;
        let (minutes, seconds) = base.split_once(':').unwrap_or((base, "0"));
        let number = |t: &str| t.parse::<u32>().map(Millis::from).map_err(|_| bad());
        TimeControl::fischer(
            number(minutes)? * 60_000 + number(seconds)? * 1000,
            number(inc)? * 1000,
        )
    }
}

/// The time control of a request or an answer:
/// `{"kind": "fischer", "base": 180, "increment": 2}` (seconds) or
/// `{"kind": "correspondence", "days": 3}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControlView {
    /// Base and increment, in seconds.
    Fischer {
        /// Base time in seconds.
        base: u32,
        /// Increment in seconds.
        increment: u32,
    },
    /// Days per ply.
    Correspondence {
        /// Days per ply.
        days: u8,
    },
}

impl TryFrom<TimeControlView> for TimeControl {
    type Error = TimeControlError;

    fn try_from(v: TimeControlView) -> Result<TimeControl, TimeControlError> {
        match v {
            TimeControlView::Fischer { base, increment } => {
                TimeControl::fischer(Millis::from(base) * 1000, Millis::from(increment) * 1000)
            }
            TimeControlView::Correspondence { days } => TimeControl::correspondence(days),
        }
    }
}

impl From<TimeControl> for TimeControlView {
    fn from(c: TimeControl) -> TimeControlView {
        match c {
            TimeControl::Fischer { base, increment } => TimeControlView::Fischer {
                base: u32::try_from(base / 1000).unwrap_or(u32::MAX),
                increment: u32::try_from(increment / 1000).unwrap_or(u32::MAX),
            },
            TimeControl::Correspondence { days } => TimeControlView::Correspondence { days },
        }
    }
}

/// The classes of time control that ratings are kept by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeClass {
    /// Under 3 minutes for 40 plies a side.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// Longer.
    Classical,
    /// Days per ply.
    Correspondence,
}

impl TimeClass {
    /// Every class.
    pub const ALL: [TimeClass; 5] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
    ];

    /// The stable lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
        }
    }

    /// The class of a stable name.
    pub fn from_name(name: &str) -> Option<TimeClass> {
        TimeClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The clock of a game: the time each side had left when its clock last stopped, and when
/// the clock of the side to move started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Each side's time left when its clock last stopped, in milliseconds.
    pub left: ByColor<Millis>,
    /// When the clock of the side to move started.
    pub since: Millis,
}

/// The side to move has no time left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged(pub Color);

impl Clock {
    /// A clock started at `now`: both sides have the whole initial time.
    pub fn start(control: TimeControl, now: Millis) -> Clock {
        let t = control.initial();
        Clock {
            control,
            left: ByColor::new(t, t),
            since: now,
        }
    }

    /// The time `side` has left at `now`, with `turn` to move: the running clock counts down.
    pub fn left_at(&self, side: Color, turn: Color, now: Millis) -> Millis {
        let left = *self.left.get(side);
        if side == turn {
            (left - (now - self.since).max(0)).max(0)
        } else {
            left
        }
    }

    /// When the flag of `turn` falls if it does not play.
    pub fn deadline(&self, turn: Color) -> Millis {
        self.since.saturating_add(*self.left.get(turn))
    }

    /// Whether the flag of `turn` has fallen at `now`.
    pub fn flagged(&self, turn: Color, now: Millis) -> bool {
        now >= self.deadline(turn)
    }

    /// The clock after `mover` played at `now`: the time spent taken off, the increment
    /// added (or, in correspondence, the days given again), the other side's clock started.
    ///
    /// # Errors
    ///
    /// [`Flagged`] when the mover's time had run out before the ply.
    pub fn after_ply(&self, mover: Color, now: Millis) -> Result<Clock, Flagged> {
        if self.flagged(mover, now) {
            return Err(Flagged(mover));
        }
        let mut next = *self;
        let left = self.left_at(mover, mover, now);
        *next.left.get_mut(mover) = match self.control {
            TimeControl::Fischer { increment, .. } => left + increment,
            TimeControl::Correspondence { .. } => self.control.initial(),
        };
        next.since = now;
        Ok(next)
    }

    /// The clock after the side to move changed other than by a ply (a take-back): the time
    /// of `before` is stopped where it stands and the new side's clock starts at `now`.
    pub fn switched(&self, before: Color, now: Millis) -> Clock {
        let mut next = *self;
        *next.left.get_mut(before) = self.left_at(before, before, now);
        next.since = now;
        next
    }

    /// The clock stopped at `now` (the game ended): the running side's time as it stands.
    pub fn stopped(&self, turn: Color, now: Millis) -> Clock {
        self.switched(turn, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Millis = 1_700_000_000_000;

    #[test]
    fn a_ply_deducts_the_time_spent_and_adds_the_increment() {
        let control = TimeControl::minutes(3, 2).unwrap();
        let clock = Clock::start(control, T0);
        assert_eq!(
            clock.left_at(Color::White, Color::White, T0 + 10_000),
            170_000
        );
        assert_eq!(
            clock.left_at(Color::Black, Color::White, T0 + 10_000),
            180_000
        );
        let after = clock.after_ply(Color::White, T0 + 10_000).unwrap();
        assert_eq!(after.left.white, 172_000);
        assert_eq!(after.left.black, 180_000);
        assert_eq!(after.since, T0 + 10_000);
        assert_eq!(after.deadline(Color::Black), T0 + 190_000);
        let after = after.after_ply(Color::Black, T0 + 70_000).unwrap();
        assert_eq!(after.left.black, 122_000);
    }

    #[test]
    fn the_flag_falls_at_the_deadline_and_a_late_ply_is_refused() {
        let clock = Clock::start(TimeControl::minutes(1, 0).unwrap(), T0);
        assert!(!clock.flagged(Color::White, T0 + 59_999));
        assert!(clock.flagged(Color::White, T0 + 60_000));
        assert_eq!(
            clock.after_ply(Color::White, T0 + 60_000),
            Err(Flagged(Color::White))
        );
        assert_eq!(clock.left_at(Color::White, Color::White, T0 + 99_000), 0);
    }

    #[test]
    fn correspondence_gives_the_days_again_after_every_ply() {
        let clock = Clock::start(TimeControl::correspondence(2).unwrap(), T0);
        let after = clock.after_ply(Color::White, T0 + DAY + 5).unwrap();
        assert_eq!(after.left.white, 2 * DAY);
        assert_eq!(after.deadline(Color::Black), T0 + DAY + 5 + 2 * DAY);
        assert!(after.flagged(Color::Black, T0 + 3 * DAY + 5));
    }

    #[test]
    fn a_takeback_stops_one_clock_and_starts_the_other() {
        let clock = Clock::start(TimeControl::minutes(5, 3).unwrap(), T0);
        let back = clock.switched(Color::White, T0 + 4000);
        assert_eq!(back.left.white, 296_000);
        assert_eq!(back.since, T0 + 4000);
    }

    #[test]
    fn time_controls_are_bounded_and_round_trip_as_text() {
        for (m, s) in PRESETS {
            let c = TimeControl::minutes(m, s).unwrap();
            assert_eq!(c.to_string(), format!("{m}+{s}"));
            assert_eq!(c.to_string().parse::<TimeControl>(), Ok(c));
        }
        let c = TimeControl::fischer(30_000, 0).unwrap();
        assert_eq!(c.to_string(), "0:30+0");
        assert_eq!("0:30+0".parse::<TimeControl>(), Ok(c));
        assert_eq!("3d".parse::<TimeControl>(), TimeControl::correspondence(3));
        assert!(TimeControl::fischer(5_000, 0).is_err());
        assert!(TimeControl::fischer(60_000, 61_000).is_err());
        assert!(TimeControl::minutes(181, 0).is_err());
        assert!(TimeControl::correspondence(0).is_err());
        assert!(TimeControl::correspondence(15).is_err());
        assert!("x+y".parse::<TimeControl>().is_err());
        assert!("99999999999+0".parse::<TimeControl>().is_err());
    }

    #[test]
    fn classes_follow_the_estimated_length() {
        let class = |m, s| TimeControl::minutes(m, s).unwrap().class();
        assert_eq!(class(1, 0), TimeClass::Bullet);
        assert_eq!(class(3, 2), TimeClass::Blitz);
        assert_eq!(class(5, 3), TimeClass::Blitz);
        assert_eq!(class(10, 5), TimeClass::Rapid);
        assert_eq!(class(15, 10), TimeClass::Rapid);
        assert_eq!(class(30, 0), TimeClass::Classical);
        assert_eq!(
            TimeControl::correspondence(1).unwrap().class(),
            TimeClass::Correspondence
        );
    }

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let now = ManualNow::new(T0);
        assert_eq!(now.now(), T0);
        now.advance(1500);
        assert_eq!(now.now(), T0 + 1500);
    }
}
