//! The accept loop: every connection counted against a limit per client address and one in
//! all, a request head that must arrive in time, a connection that moves no byte for too long
//! closed, and a log line (at most one every few seconds per cause) whenever a limit bites.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tower::ServiceExt;

/// The limits on connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once, over all clients.
    pub max: usize,
    /// Connections open at once from one client address.
    pub per_addr: usize,
    /// How long a client may take to send a request head, counted from when the server
    /// starts waiting for one: from the connection's opening, and on a kept-alive connection
    /// from the end of the last answer (so it is also how long an idle connection stays).
    pub header: Duration,
    /// How long a connection may move no byte either way before it is closed (a body that
    /// stops half-way, a client that stops reading the answer). WebSockets are not timed by
    /// it: they have their own send timeout.
    pub idle: Duration,
    /// How long a stopping server waits for the requests under way.
    pub grace: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max: 1024,
            per_addr: 64,
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            grace: Duration::from_secs(5),
        }
    }
}

/// The largest request head read, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;

/// The time between two log lines of one cause.
const NOTICE_EVERY: Duration = Duration::from_secs(10);

/// A log line per cause, at most one every [`NOTICE_EVERY`], counting what it did not say.
#[derive(Debug)]
struct Notice {
    what: &'static str,
    state: Mutex<(Option<Instant>, u64)>,
}

impl Notice {
    const fn new(what: &'static str) -> Notice {
        Notice {
            what,
            state: Mutex::new((None, 0)),
        }
    }

    fn bump(&self, addr: IpAddr) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.1 += 1;
        let now = Instant::now();
        if state
            .0
            .is_none_or(|t| now.duration_since(t) >= NOTICE_EVERY)
        {
            tracing::warn!(
                "{}: {} connection(s) (the last from {addr})",
                self.what,
                state.1
            );
            *state = (Some(now), 0);
        }
    }
}

static OVER_ADDR: Notice = Notice::new("refused: too many connections from one address");
static OVER_ALL: Notice = Notice::new("refused: as many connections open as allowed");
static SLOW_HEAD: Notice = Notice::new("closed: no request head in time");
static IDLE: Notice = Notice::new("closed: no byte moved for too long");

/// The group a client address is counted in: itself for IPv4, its /64 network for IPv6 (one
/// subscriber is given a whole /64), the IPv4 address inside an IPv4-mapped one.
pub fn client_group(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !((1u128 << 64) - 1),
            )),
        },
    }
}

/// Things open at once (connections, WebSockets), counted in all and per client group
/// ([`client_group`]).
#[derive(Debug)]
pub struct Budget {
    max: usize,
    per_addr: usize,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One thing counted open in a [`Budget`]; uncounted when released or dropped.
#[derive(Debug)]
pub struct Ticket(Arc<Held>);

#[derive(Debug)]
struct Held {
    budget: Arc<Budget>,
    group: IpAddr,
    released: std::sync::atomic::AtomicBool,
}

impl Held {
    fn release(&self) {
        if self.released.swap(true, Ordering::AcqRel) {
            return;
        }
        let mut open = self.budget.lock();
        open.0 -= 1;
        if let Some(n) = open.1.get_mut(&self.group) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.group);
            }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.release();
    }
}

/// The ticket of the HTTP connection a request came on, in the request's extensions: a
/// request that turns its connection into a WebSocket releases it (the socket is counted in
/// the sockets' own budget), so that WebSockets never take the room of pages and plies.
#[derive(Debug, Clone)]
pub struct ConnectionTicket(Arc<Held>);

impl ConnectionTicket {
    /// The connection no longer counts among the HTTP connections.
    pub fn release(&self) {
        self.0.release();
    }
}

impl Budget {
    /// A budget of `max` in all and `per_addr` per client group.
    pub fn new(max: usize, per_addr: usize) -> Arc<Budget> {
        Arc::new(Budget {
            max,
            per_addr,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, HashMap<IpAddr, usize>)> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many are open in all.
    pub fn open(&self) -> usize {
        self.lock().0
    }

    fn take(self: &Arc<Self>, addr: IpAddr) -> Result<Ticket, &'static Notice> {
        let group = client_group(addr);
        let mut open = self.lock();
        if open.0 >= self.max {
            return Err(&OVER_ALL);
        }
        let mine = open.1.entry(group).or_insert(0);
        if *mine >= self.per_addr {
            return Err(&OVER_ADDR);
        }
        *mine += 1;
        open.0 += 1;
        Ok(Ticket(Arc::new(Held {
            budget: self.clone(),
            group,
            released: std::sync::atomic::AtomicBool::new(false),
        })))
    }

    /// One more open for `addr`, if its group and the whole have room.
    pub fn admit(self: &Arc<Self>, addr: IpAddr) -> Option<Ticket> {
        self.take(addr).ok()
    }
}

/// A socket that notes when it last moved a byte, and holds its connection's ticket for as
/// long as it lives (also after an upgrade to a WebSocket).
#[derive(Debug)]
struct Tracked {
    stream: TcpStream,
    moved: Arc<AtomicU64>,
    epoch: Instant,
    _ticket: Ticket,
}

impl Tracked {
    fn note(&self) {
        let ms = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.moved.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.note();
        }
        poll
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.note();
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The answer written to a connection refused over a limit, before it is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
connection: close\r\ncontent-length: 55\r\n\r\n{\"error\":\"too many connections: try again in a moment\"}";

/// Serves `router` on `listener` until `shutdown` completes, then waits up to the grace time
/// for the requests under way.
///
/// # Errors
///
/// None today: failures to accept (out of descriptors) are logged and waited out.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let counts = Budget::new(limits.max, limits.per_addr);
    let (stop, stopping) = watch::channel(false);
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of descriptors, most likely: wait for some to close instead of spinning.
                static ACCEPT: Notice = Notice::new("cannot accept");
                tracing::debug!("accept failed: {e}");
                ACCEPT.bump(IpAddr::from([0, 0, 0, 0]));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let ticket = match counts.take(peer.ip()) {
            Ok(ticket) => ticket,
            Err(notice) => {
                notice.bump(peer.ip());
                let _ = stream.try_write(REFUSED);
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        tasks.spawn(connection(
            stream,
            peer,
            ticket,
            router.clone(),
            limits,
            stopping.clone(),
        ));
    }
    let _ = stop.send(true);
    drop(listener);
    let drained = tokio::time::timeout(limits.grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            "{} connection(s) still busy after {:?}: closed",
            tasks.len(),
            limits.grace
        );
        tasks.abort_all();
    }
    Ok(())
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    ticket: Ticket,
    router: Router,
    limits: ConnectionLimits,
    mut stopping: watch::Receiver<bool>,
) {
    let epoch = Instant::now();
    let moved = Arc::new(AtomicU64::new(0));
    let handle = ConnectionTicket(ticket.0.clone());
    let io = TokioIo::new(Tracked {
        stream,
        moved: moved.clone(),
        epoch,
        _ticket: ticket,
    });
    let service = router.map_request(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(handle.clone());
        request
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // A request head larger than this is refused (431), so that unfinished heads
        // cost little memory each.
        .max_buf_size(MAX_HEAD)
        .header_read_timeout(limits.header)
        .keep_alive(true);
    let conn = builder
        .serve_connection(io, TowerToHyperService::new(service))
        .with_upgrades();
    tokio::pin!(conn);
    let check_every = (limits.idle / 4).max(Duration::from_millis(10));
    let mut check = tokio::time::interval(check_every);
    let mut closing = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    if e.is_timeout() {
                        SLOW_HEAD.bump(peer.ip());
                    } else {
                        tracing::debug!("connection from {peer}: {e}");
                    }
                }
                return;
            }
            _ = check.tick() => {
                let last = Duration::from_millis(moved.load(Ordering::Relaxed));
                if epoch.elapsed().saturating_sub(last) >= limits.idle {
                    IDLE.bump(peer.ip());
                    return;
                }
            }
            changed = stopping.changed(), if !closing => {
                closing = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_whole_answer() {
        let text = std::str::from_utf8(REFUSED).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())));
        assert!(serde_json::from_str::<serde_json::Value>(body).is_ok());
    }

    #[test]
    fn connections_are_counted_per_address_and_in_all() {
        let counts = Budget::new(3, 2);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        let first = counts.admit(a).unwrap();
        let _second = counts.admit(a).unwrap();
        assert!(counts.admit(a).is_none());
        let _third = counts.admit(b).unwrap();
        assert!(counts.admit(b).is_none(), "over the limit in all");
        drop(first);
        assert!(counts.admit(a).is_some());
    }

    #[test]
    fn an_ipv6_network_counts_as_one_client_and_a_release_counts_once() {
        let counts = Budget::new(100, 2);
        let host = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 7, 0, 0, 0, last]);
        let _a = counts.admit(host(1)).unwrap();
        let b = counts.admit(host(2)).unwrap();
        assert!(counts.admit(host(3)).is_none(), "one /64, many addresses");
        assert!(
            counts
                .admit(IpAddr::from([0x2001, 0xdb8, 0, 8, 0, 0, 0, 1]))
                .is_some()
        );
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(client_group(mapped), IpAddr::from([10, 0, 0, 1]));
        let handle = ConnectionTicket(b.0.clone());
        handle.release();
        handle.release();
        assert_eq!(counts.open(), 1);
        drop(b);
        assert_eq!(counts.open(), 1, "released once, whatever drops after");
        assert!(counts.admit(host(4)).is_some());
    }
}
