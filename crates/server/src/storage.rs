//! The database's size under a global cap, and the sign-in attempts of each account.
//!
//! Per-address limits bound what one client writes, not what many write together: the
//! database has a cap over all ([`Limits::max_storage`](crate::app::Limits)). Past nine
//! tenths of it, new visitors (guest sessions) and games made by guests are refused, so
//! that signed-up players keep room; past the cap, no new game is made at all. Games being
//! played go on in both cases. The sweeper measures the file each minute and ends the
//! sessions that expired, and with them the guests left with nothing.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ApiError;

/// The share of the cap, in tenths, past which guests are refused.
const GUEST_SHARE: u64 = 9;

/// The database's size as last measured, against the cap.
#[derive(Debug)]
pub struct Storage {
    cap: u64,
    used: AtomicU64,
}

impl Storage {
    /// A cap of `cap` bytes (0: none).
    pub fn new(cap: u64) -> Storage {
        Storage {
            cap,
            used: AtomicU64::new(0),
        }
    }

    /// Records the size measured.
    pub fn set_used(&self, bytes: u64) {
        self.used.store(bytes, Ordering::Relaxed);
    }

    /// The size last measured, in bytes.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    fn past(&self, tenths: u64) -> bool {
        self.cap > 0 && self.used().saturating_mul(10) >= self.cap.saturating_mul(tenths)
    }

    /// Whether a new guest (or a guest's new game) may be stored.
    ///
    /// # Errors
    ///
    /// 507 past nine tenths of the cap.
    pub fn admit_guest(&self) -> Result<(), ApiError> {
        if self.past(GUEST_SHARE) {
            return Err(ApiError::Full(
                "the site is nearly full: only signed-in players can start games now".into(),
            ));
        }
        Ok(())
    }

    /// Whether a new game may be stored, made by a guest or by a signed-in player.
    ///
    /// # Errors
    ///
    /// 507 past the cap, or past nine tenths of it for a guest.
    pub fn admit_game(&self, signed_in: bool) -> Result<(), ApiError> {
        if self.past(10) {
            return Err(ApiError::Full(
                "the site is full: no new game can be stored now".into(),
            ));
        }
        if signed_in {
            Ok(())
        } else {
            self.admit_guest()
        }
    }
}

/// The failures after which an account's sign-ins wait.
pub const FREE_FAILURES: u32 = 5;

/// The longest wait between two sign-in attempts of one account, in seconds.
pub const MAX_WAIT: i64 = 15 * 60;

/// The accounts tracked at most; past it the oldest half is dropped.
const MAX_TRACKED: usize = 50_000;

/// Wrong passwords given for each account, from all addresses: after [`FREE_FAILURES`], each
/// attempt waits twice as long as the one before (from 2 seconds to [`MAX_WAIT`]). A
/// client group that signed into the account before is spared the wait (it still has the
/// per-address limit), so that someone guessing from elsewhere cannot lock the owner out.
#[derive(Debug, Default)]
pub struct SignInGuard(Mutex<HashMap<String, Attempts>>);

#[derive(Debug, Default, Clone)]
struct Attempts {
    failures: u32,
    last: i64,
    known: Vec<IpAddr>,
}

impl Attempts {
    fn wait_until(&self) -> i64 {
        if self.failures < FREE_FAILURES {
            return 0;
        }
        let steps = (self.failures - FREE_FAILURES).min(20);
        self.last + (2i64 << steps).min(MAX_WAIT)
    }
}

impl SignInGuard {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Attempts>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether an attempt on `account` (its name case folded) from `group` may be checked at
    /// `now` (seconds).
    ///
    /// # Errors
    ///
    /// 429 with the seconds to wait.
    pub fn allow(&self, account: &str, group: IpAddr, now: i64) -> Result<(), ApiError> {
        let map = self.map();
        let Some(a) = map.get(&account.to_ascii_lowercase()) else {
            return Ok(());
        };
        if a.known.contains(&group) {
            return Ok(());
        }
        let until = a.wait_until();
        if now < until {
            return Err(ApiError::Busy(format!(
                "too many wrong passwords for this account: wait {} seconds",
                until - now
            )));
        }
        Ok(())
    }

    /// Counts a wrong password for `account` at `now`.
    pub fn failed(&self, account: &str, now: i64) {
        let mut map = self.map();
        if map.len() >= MAX_TRACKED {
            let mut lasts: Vec<i64> = map.values().map(|a| a.last).collect();
            lasts.sort_unstable();
            let median = lasts[lasts.len() / 2];
            map.retain(|_, a| a.last > median);
        }
        let a = map.entry(account.to_ascii_lowercase()).or_default();
        a.failures = a.failures.saturating_add(1);
        a.last = now;
    }

    /// A right password for `account` from `group`: the failures are forgotten and the
    /// group is known from now on.
    pub fn succeeded(&self, account: &str, group: IpAddr) {
        let mut map = self.map();
        let a = map.entry(account.to_ascii_lowercase()).or_default();
        a.failures = 0;
        if !a.known.contains(&group) {
            if a.known.len() >= 8 {
                a.known.remove(0);
            }
            a.known.push(group);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    #[test]
    fn guests_are_refused_first_and_everyone_at_the_cap() {
        let s = Storage::new(1000);
        s.set_used(899);
        assert!(s.admit_guest().is_ok());
        assert!(s.admit_game(false).is_ok());
        s.set_used(900);
        assert!(s.admit_guest().is_err());
        assert!(s.admit_game(false).is_err());
        assert!(s.admit_game(true).is_ok());
        s.set_used(1000);
        assert!(s.admit_game(true).is_err());
        let none = Storage::new(0);
        none.set_used(u64::MAX);
        assert!(none.admit_game(false).is_ok());
    }

    #[test]
    fn wrong_passwords_make_an_account_wait_longer_each_time() {
        let g = SignInGuard::default();
        for t in 0..5 {
            assert!(g.allow("Ann", ip(1), t).is_ok());
            g.failed("ann", t);
        }
        // The sixth attempt waits 2 s after the fifth failure; then 4 s, 8 s…
        assert!(g.allow("ann", ip(2), 5).is_err());
        assert!(g.allow("ann", ip(2), 6).is_ok());
        g.failed("ann", 6);
        assert!(g.allow("ann", ip(3), 9).is_err());
        assert!(g.allow("ann", ip(3), 10).is_ok());
        for t in 0..40 {
            g.failed("ann", 100 + t);
        }
        assert!(g.allow("ann", ip(3), 139 + MAX_WAIT - 1).is_err());
        assert!(g.allow("ann", ip(3), 139 + MAX_WAIT).is_ok());
        // Another account is not touched.
        assert!(g.allow("bob", ip(3), 139).is_ok());
    }

    #[test]
    fn the_owners_own_network_is_not_locked_out() {
        let g = SignInGuard::default();
        g.succeeded("ann", ip(7));
        for t in 0..30 {
            g.failed("ann", t);
        }
        assert!(g.allow("ann", ip(8), 30).is_err());
        assert!(g.allow("ann", ip(7), 30).is_ok());
        g.succeeded("ann", ip(7));
        assert!(g.allow("ann", ip(8), 30).is_ok());
    }
}
