//! The queue in front of the engines: a fixed number of slots, handed out to the computer's
//! own plies before any hint or analysis, with a bound on the coaching work that may wait and
//! a charge per client address.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

/// Who asks for engine time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// The computer's own ply, or a judgement a seated player waits for: served first.
    Play,
    /// A hint or an analysis that anyone watching may ask for: served when no ply waits,
    /// charged to the client's address.
    Coach(IpAddr),
}

/// The bounds of the coaching work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueLimits {
    /// Hints and analyses that may wait for a slot, over all clients.
    pub waiting: usize,
    /// Hints and analyses one client address may have waiting or running at once.
    pub per_client: usize,
    /// How long a hint or an analysis waits for a slot before it is refused.
    pub wait: Duration,
}

impl Default for QueueLimits {
    fn default() -> QueueLimits {
        QueueLimits {
            waiting: 16,
            per_client: 2,
            wait: Duration::from_secs(10),
        }
    }
}

/// Why the queue gives no slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueRefusal {
    /// The client already has as much coaching work as it may.
    ClientBusy,
    /// As many hints and analyses wait as the queue holds.
    Full,
    /// No slot came free within the wait.
    TimedOut,
    /// The queue is closed.
    Closed,
}

impl std::fmt::Display for QueueRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            QueueRefusal::ClientBusy => {
                "this address already waits for hints or analyses: wait for them to finish"
            }
            QueueRefusal::Full => "the engine is busy with other requests: try again in a moment",
            QueueRefusal::TimedOut => "the engine stayed busy: try again in a moment",
            QueueRefusal::Closed => "the server is shutting down",
        })
    }
}

impl std::error::Error for QueueRefusal {}

#[derive(Debug, Default)]
struct Inner {
    free: usize,
    plays: VecDeque<oneshot::Sender<Slot>>,
    coaching: VecDeque<oneshot::Sender<Slot>>,
    charged: HashMap<IpAddr, usize>,
}

/// The engine slots and the work waiting for them; cheap to clone.
#[derive(Debug, Clone)]
pub struct EngineQueue {
    inner: Arc<Mutex<Inner>>,
    limits: QueueLimits,
}

/// A slot of engine time; given back (to the next in line) when dropped.
#[derive(Debug)]
pub struct Slot {
    queue: Arc<Mutex<Inner>>,
    /// Whether dropping it gives a slot back (false once passed on).
    armed: bool,
}

impl Slot {
    fn new(queue: &Arc<Mutex<Inner>>) -> Slot {
        Slot {
            queue: queue.clone(),
            armed: true,
        }
    }
}

/// The charge of a client's coaching request, released when dropped.
#[derive(Debug)]
struct Charge {
    queue: Arc<Mutex<Inner>>,
    addr: IpAddr,
}

/// A slot with the client's charge, if any: both are given back when dropped.
#[derive(Debug)]
pub struct Granted {
    _slot: Slot,
    _charge: Option<Charge>,
}

fn lock(inner: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    // Nothing panics while the lock is held; a poisoned lock holds whole state.
    inner.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let mut inner = lock(&self.queue);
        let mut slot = Slot::new(&self.queue);
        loop {
            let next = match inner.plays.pop_front() {
                Some(waiter) => waiter,
                None => match inner.coaching.pop_front() {
                    Some(waiter) => waiter,
                    None => break,
                },
            };
            // A waiter that gave up returns the slot; try the next one.
            match next.send(slot) {
                Ok(()) => return,
                Err(back) => slot = back,
            }
        }
        inner.free += 1;
        drop(inner);
        // Nobody took it: it is counted free above, not given back twice.
        slot.armed = false;
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        let mut inner = lock(&self.queue);
        if let Some(n) = inner.charged.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                inner.charged.remove(&self.addr);
            }
        }
    }
}

impl EngineQueue {
    /// A queue of `slots` engine slots (at least one).
    pub fn new(slots: usize, limits: QueueLimits) -> EngineQueue {
        EngineQueue {
            inner: Arc::new(Mutex::new(Inner {
                free: slots.max(1),
                ..Inner::default()
            })),
            limits,
        }
    }

    /// The bounds of the coaching work.
    pub fn limits(&self) -> QueueLimits {
        self.limits
    }

    /// Waits for a slot: plays wait as long as it takes (each holds a slot only for one
    /// search), coaching work at most the configured wait.
    ///
    /// # Errors
    ///
    /// For coaching work: [`QueueRefusal::ClientBusy`] at once when the client has its share,
    /// [`QueueRefusal::Full`] at once when the queue is full, [`QueueRefusal::TimedOut`] after
    /// the wait.
    pub async fn acquire(&self, priority: Priority) -> Result<Granted, QueueRefusal> {
        let (charge, waiter) = {
            let mut inner = lock(&self.inner);
            let charge = match priority {
                Priority::Play => None,
                Priority::Coach(addr) => {
                    let n = inner.charged.get(&addr).copied().unwrap_or(0);
                    if n >= self.limits.per_client {
                        return Err(QueueRefusal::ClientBusy);
                    }
                    // Requests that were given up (a client gone) hold no place.
                    inner.coaching.retain(|tx| !tx.is_closed());
                    if inner.free == 0 && inner.coaching.len() >= self.limits.waiting {
                        return Err(QueueRefusal::Full);
                    }
                    *inner.charged.entry(addr).or_insert(0) += 1;
                    Some(Charge {
                        queue: self.inner.clone(),
                        addr,
                    })
                }
            };
            let queued_ahead = match priority {
                Priority::Play => !inner.plays.is_empty(),
                Priority::Coach(_) => !inner.plays.is_empty() || !inner.coaching.is_empty(),
            };
            if inner.free > 0 && !queued_ahead {
                inner.free -= 1;
                let slot = Slot::new(&self.inner);
                return Ok(Granted {
                    _slot: slot,
                    _charge: charge,
                });
            }
            let (tx, rx) = oneshot::channel();
            match priority {
                Priority::Play => inner.plays.push_back(tx),
                Priority::Coach(_) => inner.coaching.push_back(tx),
            }
            (charge, rx)
        };
        let slot = match priority {
            Priority::Play => waiter.await.map_err(|_| QueueRefusal::Closed)?,
            Priority::Coach(_) => match tokio::time::timeout(self.limits.wait, waiter).await {
                Ok(Ok(slot)) => slot,
                Ok(Err(_)) => return Err(QueueRefusal::Closed),
                Err(_) => {
                    // The sender is still queued; it finds the receiver gone and passes the
                    // slot on. Sweep the dead senders so that they do not fill the bound.
                    lock(&self.inner).coaching.retain(|tx| !tx.is_closed());
                    return Err(QueueRefusal::TimedOut);
                }
            },
        };
        Ok(Granted {
            _slot: slot,
            _charge: charge,
        })
    }

    /// Hints and analyses waiting now.
    pub fn coaching_waiting(&self) -> usize {
        lock(&self.inner).coaching.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    fn limits(waiting: usize, per_client: usize) -> QueueLimits {
        QueueLimits {
            waiting,
            per_client,
            wait: Duration::from_secs(30),
        }
    }

    #[tokio::test]
    async fn plays_go_before_waiting_coaching() {
        let queue = EngineQueue::new(1, limits(8, 8));
        let busy = queue.acquire(Priority::Play).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, priority) in [
            Priority::Coach(addr(1)),
            Priority::Coach(addr(2)),
            Priority::Play,
        ]
        .into_iter()
        .enumerate()
        {
            let queue = queue.clone();
            let order = order.clone();
            tasks.push(tokio::spawn(async move {
                let slot = queue.acquire(priority).await.unwrap();
                order.lock().unwrap().push(i);
                drop(slot);
            }));
            // Let each one take its place in the line before the next.
            tokio::task::yield_now().await;
            tokio::task::yield_now().await;
        }
        assert_eq!(queue.coaching_waiting(), 2);
        drop(busy);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            [2, 0, 1],
            "the ply first, then in order"
        );
    }

    #[tokio::test]
    async fn coaching_is_bounded_and_charged_per_client() {
        let queue = EngineQueue::new(1, limits(2, 1));
        let busy = queue.acquire(Priority::Play).await.unwrap();
        let a = tokio::spawn({
            let q = queue.clone();
            async move { q.acquire(Priority::Coach(addr(1))).await.map(drop) }
        });
        tokio::task::yield_now().await;
        assert_eq!(
            queue.acquire(Priority::Coach(addr(1))).await.unwrap_err(),
            QueueRefusal::ClientBusy
        );
        let b = tokio::spawn({
            let q = queue.clone();
            async move { q.acquire(Priority::Coach(addr(2))).await.map(drop) }
        });
        tokio::task::yield_now().await;
        assert_eq!(queue.coaching_waiting(), 2);
        assert_eq!(
            queue.acquire(Priority::Coach(addr(3))).await.unwrap_err(),
            QueueRefusal::Full
        );
        drop(busy);
        a.await.unwrap().unwrap();
        b.await.unwrap().unwrap();
        // Every charge and slot came back.
        let again = queue.acquire(Priority::Coach(addr(1))).await.unwrap();
        drop(again);
        assert!(lock(&queue.inner).charged.is_empty());
        assert_eq!(lock(&queue.inner).free, 1);
    }

    #[tokio::test]
    async fn coaching_gives_up_after_the_wait_and_the_slot_is_not_lost() {
        let queue = EngineQueue::new(
            1,
            QueueLimits {
                wait: Duration::from_millis(100),
                ..limits(4, 4)
            },
        );
        let busy = queue.acquire(Priority::Play).await.unwrap();
        assert_eq!(
            queue.acquire(Priority::Coach(addr(1))).await.unwrap_err(),
            QueueRefusal::TimedOut
        );
        assert_eq!(queue.coaching_waiting(), 0);
        drop(busy);
        let slot = queue.acquire(Priority::Coach(addr(1))).await.unwrap();
        drop(slot);
        assert_eq!(lock(&queue.inner).free, 1);
    }
}
