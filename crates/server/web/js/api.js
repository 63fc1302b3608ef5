// The server's HTTP + WebSocket API (docs/api.md), and the seat tokens kept in this browser.

/** An answer of the server that is not a success; `message` is the server's own words. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** The session's CSRF token, sent with every request that changes something. */
let csrf = '';
export function setCsrf(token) {
  csrf = token || '';
}

async function request(method, path, body, token) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  // A seat's token goes in a header, never in a URL (logs and histories keep URLs).
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (method !== 'GET' && csrf) init.headers['X-Morris-CSRF'] = csrf;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('Cannot reach the server. Check the connection and try again.', 0);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = `The server answered ${res.status} ${res.statusText}`.trim();
    try {
      const err = JSON.parse(text);
      if (err && typeof err.error === 'string') message = err.error;
    } catch {
      /* not JSON: keep the status line */
    }
    throw new ApiError(message, res.status);
  }
  const type = res.headers.get('Content-Type') || '';
  return type.includes('json') ? JSON.parse(text) : text;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  variants: () => request('GET', '/api/variants'),
  levels: () => request('GET', '/api/levels'),
  create: (options) => request('POST', '/api/games', options),
  game: (id, token) => request('GET', game(id), undefined, token),
  move: (id, token, move) => request('POST', `${game(id)}/moves`, { move, token }),
  takeback: (id, token) => request('POST', `${game(id)}/takeback`, { token }),
  resign: (id, token) => request('POST', `${game(id)}/resign`, { token }),
  draw: (id, token, action) => request('POST', `${game(id)}/draw`, { token, action }),
  hint: (id) => request('GET', `${game(id)}/hint`),
  analysis: (id) => request('GET', `${game(id)}/analysis`),
  record: (id, format = 'morris') =>
    request('GET', `${game(id)}/record?format=${encodeURIComponent(format)}`),
  importList: (record, variant) => request('POST', '/api/import', { record, variant }),
  review: (id, body = {}) => request('POST', `${game(id)}/review`, body),
  checkPosition: (variant, position) => request('POST', '/api/positions/check', { variant, position }),
  takebackRequest: (id, token, action) => request('POST', `${game(id)}/takeback`, { token, action }),
  abort: (id, token) => request('POST', `${game(id)}/abort`, { token }),
  claim: (id, token, result) => request('POST', `${game(id)}/claim`, { token, result }),
  rematch: (id, token, action) => request('POST', `${game(id)}/rematch`, { token, action }),
  chat: (id) => request('GET', `${game(id)}/chat`),
  say: (id, token, text) => request('POST', `${game(id)}/chat`, { token, text }),
  session: () => request('GET', '/api/session'),
  signUp: (name, password) => request('POST', '/api/session/signup', { name, password }),
  signIn: (name, password) => request('POST', '/api/session/signin', { name, password }),
  signOut: () => request('POST', '/api/session/signout', {}),
  password: (old, next) => request('POST', '/api/session/password', { old, new: next }),
  sessions: () => request('GET', '/api/session/list'),
  endSession: (id) => request('DELETE', `/api/session/list/${encodeURIComponent(id)}`),
  myGames: (query = '') => request('GET', `/api/session/games${query}`),
  player: (name) => request('GET', `/api/players/${encodeURIComponent(name)}`),
  playerGames: (name, query = '') => request('GET', `/api/players/${encodeURIComponent(name)}/games${query}`),
  playing: () => request('GET', '/api/playing'),
  lobby: () => request('GET', '/api/lobby'),
  challenge: (terms) => request('POST', '/api/lobby/challenges', terms),
  accept: (id) => request('POST', `/api/lobby/challenges/${id}/accept`, {}),
  withdraw: (id) => request('DELETE', `/api/lobby/challenges/${id}`),
  decline: (id) => request('POST', `/api/lobby/challenges/${id}/decline`, {}),
  myTurn: () => request('GET', '/api/session/turn'),
  block: (name) => request('POST', `/api/players/${encodeURIComponent(name)}/block`, {}),
  unblock: (name) => request('DELETE', `/api/players/${encodeURIComponent(name)}/block`),
  blocks: () => request('GET', '/api/session/blocks'),
  report: (name, reason) => request('POST', `/api/players/${encodeURIComponent(name)}/report`, { reason }),
  follow: (name) => request('POST', `/api/players/${encodeURIComponent(name)}/follow`, {}),
  unfollow: (name) => request('DELETE', `/api/players/${encodeURIComponent(name)}/follow`),
  following: () => request('GET', '/api/session/following'),
  online: () => request('GET', '/api/online'),
  searchPlayers: (q) => request('GET', `/api/players?q=${encodeURIComponent(q)}`),
  modReports: (all = false) => request('GET', `/api/mod/reports?all=${all}`),
  modResolve: (id) => request('POST', `/api/mod/reports/${id}/resolve`, {}),
  modMute: (name, hours) => request('POST', `/api/mod/players/${encodeURIComponent(name)}/mute`, { hours }),
  modClose: (name, reason) => request('POST', `/api/mod/players/${encodeURIComponent(name)}/close`, { reason }),
  modLog: () => request('GET', '/api/mod/log'),
  leaderboard: (variant, timeClass) =>
    request('GET', `/api/leaderboard?variant=${encodeURIComponent(variant)}&class=${encodeURIComponent(timeClass)}`),
  quick: (clock, rated) => request('POST', '/api/lobby/quick', { clock, rated }),
  cancelQuick: () => request('DELETE', '/api/lobby/quick'),
};

// Seat tokens, one per game, in local storage (the address bar never keeps them).
const key = (kind, id) => `morris.${kind}.${id}`;
function load(kind, id) {
  try {
    return localStorage.getItem(key(kind, id));
  } catch {
    return null; // storage disabled: the page still works as a spectator
  }
}
function store(kind, id, value) {
  try {
    if (value) localStorage.setItem(key(kind, id), value);
    else localStorage.removeItem(key(kind, id));
  } catch {
    /* storage disabled */
  }
}
export const tokens = {
  get: (id) => load('token', id),
  set: (id, token) => store('token', id, token),
  /** The invitation token of the other seat, kept for the creator of a friend game. */
  invite: (id) => load('invite', id),
  setInvite: (id, invite) => store('invite', id, invite),
  last: () => load('last', 'game'),
  setLast: (id) => store('last', 'game', id),
};

/**
 * Live updates of one game: a WebSocket that reconnects with backoff, and polling every
 * 2 s while it is down. `onGame` gets every GAME object; `onState` gets "live" or "offline".
 */
export class Live {
  constructor(id, token, onGame, onState, onEvent = () => {}) {
    Object.assign(this, { id, token, onGame, onState, onEvent });
    this.delay = 500;
    this.stopped = false;
    this.ws = null;
    this.poller = null;
    this.pinger = null;
    this.retry = null;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      // The token rides in a subprotocol, the one header a page may set on a WebSocket.
      const protocols = this.token ? ['morris', `token.${this.token}`] : ['morris'];
      ws = new WebSocket(`${scheme}//${location.host}${game(this.id)}/ws`, protocols);
    } catch {
      this.dropped();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.stopPolling();
      this.onState('live');
      // Keep idle connections through proxies alive; the server answers with a pong.
      this.pinger = setInterval(() => ws.send('{"type":"ping"}'), 30000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg && msg.id === this.id && typeof msg.version === 'number') this.onGame(msg);
      else if (msg && typeof msg.type === 'string') this.onEvent(msg);
    };
    ws.onclose = () => {
      if (this.ws === ws) this.dropped();
    };
  }

  dropped() {
    this.ws = null;
    clearInterval(this.pinger);
    if (this.stopped) return;
    this.onState('offline');
    this.startPolling();
    // Exponential backoff with a little jitter, at most 15 s between tries.
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, 15000);
    this.retry = setTimeout(() => this.connect(), wait);
  }

  startPolling() {
    if (this.poller) return;
    this.poller = setInterval(async () => {
      try {
        this.onGame(await api.game(this.id, this.token));
      } catch {
        /* still offline: the next tick tries again */
      }
    }, 2000);
  }

  stopPolling() {
    clearInterval(this.poller);
    this.poller = null;
  }

  stop() {
    this.stopped = true;
    this.stopPolling();
    clearInterval(this.pinger);
    clearTimeout(this.retry);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
