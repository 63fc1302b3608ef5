//! A limit of events per client address in a window of time.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The addresses kept before old windows are swept out.
const SWEEP_AT: usize = 10_000;

/// Counts events per address in fixed windows; refuses those over the limit.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl RateLimiter {
    /// At most `limit` events per address per `window`; a limit of 0 allows everything.
    pub fn new(limit: u32, window: Duration) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts an event of `addr` now; false if it is over the limit (and then not counted).
    pub fn allow(&self, addr: IpAddr) -> bool {
        self.allow_at(addr, Instant::now())
    }

    fn allow_at(&self, addr: IpAddr, now: Instant) -> bool {
        if self.limit == 0 {
            return true;
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= SWEEP_AT {
            let window = self.window;
            seen.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = seen.entry(addr).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            return false;
        }
        entry.1 += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_address_per_window() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "::1".parse().unwrap();
        let t = Instant::now();
        assert!(limiter.allow_at(a, t));
        assert!(limiter.allow_at(a, t));
        assert!(!limiter.allow_at(a, t));
        assert!(limiter.allow_at(b, t));
        assert!(limiter.allow_at(a, t + Duration::from_secs(61)));
    }

    #[test]
    fn zero_is_no_limit() {
        let limiter = RateLimiter::new(0, Duration::from_secs(60));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        assert!((0..1000).all(|_| limiter.allow(a)));
    }
}
