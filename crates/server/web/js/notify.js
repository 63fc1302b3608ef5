// @ts-check
// The site's notifications on every page: one WebSocket per tab (`/api/notify/ws`,
// docs/api.md) tells the player of a challenge made to them (to accept or decline), a decline
// of their own challenge, a game that started, an offer of their opponent and their turn in a
// correspondence game. They are listed in a tray at the page's corner, counted in the tab's
// title, and sounded (or shown by the system when the tab is hidden and the player allowed
// it). While the channel is open the player is on the site, and their challenges live.
//
// `NoticeBoard` is the logic without the page (tested with node --test); `startNotices` wires
// it to the socket and the document.

import { api, setCsrf } from './api.js';
import { t } from './i18n.js';
import { loadSettings } from './settings.js';
import { play as playSound, unlockOnGesture } from './sound.js';
import { clockWords, ratingText } from './format.js';

/** The most notices other than challenges kept in the tray; older ones leave. */
export const KEPT = 8;

/**
 * @typedef {{id: number, by: string | null, rating: number, provisional: boolean,
 *   variant: string, clock_text: string | null, rated: boolean, color: string}} ChallengeView
 * @typedef {{key: string, kind: 'challenge', challenge: ChallengeView}
 *   | {key: string, kind: 'declined', id: number, by: string}
 *   | {key: string, kind: 'started', game: string, opponent: string | null}
 *   | {key: string, kind: 'offer', game: string, offer: string, by: string | null}
 *   | {key: string, kind: 'turn', game: string, opponent: string | null}} Item
 * @typedef {{changed: boolean, alert: boolean, open?: string}} Effect
 */

/** What the notices say: the challenges open to the player and the news since. */
export class NoticeBoard {
  constructor() {
    /** @type {Item[]} */
    this.items = [];
    this.serial = 0;
  }

  /** How many notices wait: the count in the tab's title. */
  count() {
    return this.items.length;
  }

  /**
   * Takes one message of the channel.
   * @param {any} msg
   * @param {string} path the page's path (a game already shown is not opened again)
   * @returns {Effect} whether the tray changed, whether to sound, and a path to open
   */
  take(msg, path) {
    const none = { changed: false, alert: false };
    if (!msg || typeof msg.type !== 'string') return none;
    switch (msg.type) {
      case 'hello': {
        const challenges = Array.isArray(msg.challenges) ? msg.challenges : [];
        const others = this.items.filter((i) => i.kind !== 'challenge');
        this.items = [...challenges.map((c) => this.challengeItem(c)), ...others];
        return { changed: true, alert: false };
      }
      case 'challenge':
        if (!msg.challenge || this.items.some((i) => i.kind === 'challenge' && i.challenge.id === msg.challenge.id)) return none;
        this.items.unshift(this.challengeItem(msg.challenge));
        return { changed: true, alert: true };
      case 'challenge_gone':
        return this.drop((i) => i.kind === 'challenge' && i.challenge.id === msg.id) ? { changed: true, alert: false } : none;
      case 'declined':
        this.add({ key: this.key(), kind: 'declined', id: msg.id, by: String(msg.by ?? '') });
        return { changed: true, alert: true };
      case 'started': {
        const game = String(msg.game ?? '');
        const at = `/g/${encodeURIComponent(game)}`;
        if (path === at) return none;
        // On a page without a game of its own the new game opens at once; in the middle of
        // another game it waits in the tray.
        if (!path.startsWith('/g/')) return { changed: false, alert: true, open: at };
        this.add({ key: this.key(), kind: 'started', game, opponent: msg.opponent ?? null });
        return { changed: true, alert: true };
      }
      case 'offer':
      case 'turn': {
        const game = String(msg.game ?? '');
        // The game's own page shows its offers and turns.
        if (path === `/g/${encodeURIComponent(game)}`) return none;
        this.drop((i) => i.kind === msg.type && 'game' in i && i.game === game);
        if (msg.type === 'offer') {
          this.add({ key: this.key(), kind: 'offer', game, offer: String(msg.offer), by: msg.by ?? null });
        } else {
          this.add({ key: this.key(), kind: 'turn', game, opponent: msg.opponent ?? null });
        }
        return { changed: true, alert: true };
      }
      default:
        return none;
    }
  }

  /** Forgets the notices of a game (its page is shown). */
  seenGame(game) {
    return this.drop((i) => 'game' in i && i.game === game);
  }

  /**
   * Removes a notice by its key. Returns whether it was there.
   * @param {string} key
   */
  dismiss(key) {
    return this.drop((i) => i.key === key);
  }

  /** @param {(i: Item) => boolean} which */
  drop(which) {
    const before = this.items.length;
    this.items = this.items.filter((i) => !which(i));
    return this.items.length !== before;
  }

  /** @param {Item} item */
  add(item) {
    this.items.unshift(item);
    const news = this.items.filter((i) => i.kind !== 'challenge');
    if (news.length > KEPT) {
      const oldest = news[news.length - 1];
      this.items = this.items.filter((i) => i !== oldest);
    }
  }

  key() {
    this.serial += 1;
    return `n${this.serial}`;
  }

  /** @param {ChallengeView} challenge */
  challengeItem(challenge) {
    return /** @type {Item} */ ({ key: `c${challenge.id}`, kind: 'challenge', challenge });
  }
}

/**
 * The tab's title with the count of notices: `(2) Nine Men's Morris`.
 * @param {string} title the page's own title
 * @param {number} count
 */
export function titled(title, count) {
  const bare = title.replace(/^\(\d+\) /, '');
  return count > 0 ? `(${count}) ${bare}` : bare;
}

/**
 * What a notice says.
 * @param {Item} item
 */
export function noticeWords(item) {
  const anon = () => t('site.anonymous');
  switch (item.kind) {
    case 'challenge': {
      const c = item.challenge;
      const terms = [t(`variant.${c.variant}`), clockWords(c.clock_text) || t('site.no_clock'), c.rated ? t('site.rated') : t('site.casual')];
      return `${t('notice.challenge', { name: `${c.by ?? anon()} (${ratingText(c.rating, c.provisional)})` })} ${terms.join(' · ')}`;
    }
    case 'declined':
      return t('notice.declined', { name: item.by || anon() });
    case 'started':
      return t('notice.started', { name: item.opponent ?? anon() });
    case 'offer':
      return t(`notice.offer_${item.offer}`, { name: item.by ?? anon() });
    case 'turn':
      return t('notice.turn', { name: item.opponent ?? anon() });
    default:
      return '';
  }
}

/** The page's channel: the board, its socket and the tray. */
const channel = {
  board: new NoticeBoard(),
  /** @type {WebSocket | null} */
  socket: null,
  /** @type {ReturnType<typeof setInterval> | null} */
  ping: null,
  wait: 1000,
  stopped: true,
  /** @param {string} path */
  open: (path) => location.assign(path),
  /** @param {unknown} err */
  showError: (err) => console.warn(err),
};

/**
 * Starts the page's notification channel. On a page that has not loaded the session, it is
 * loaded first (the channel is a session's).
 * @param {{open?: (path: string) => void, showError?: (err: unknown) => void, session?: boolean}} [options]
 *   `open` follows a link inside the site; `session` says the page loaded the session already
 */
export async function startNotices(options = {}) {
  if (options.open) channel.open = options.open;
  if (options.showError) channel.showError = options.showError;
  if (!options.session) {
    try {
      setCsrf((await api.session()).csrf);
    } catch {
      /* the server is away: the socket's own retries reach it later */
    }
  }
  unlockOnGesture();
  window.addEventListener('pagehide', stopNotices);
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) connect();
  });
  document.addEventListener('visibilitychange', renderTray);
  // The page sets its own title as it goes (the game's turn): the count is put back before it.
  const title = document.querySelector('title');
  if (title) {
    new MutationObserver(() => {
      const want = titled(document.title, channel.board.count());
      if (document.title !== want) document.title = want;
    }).observe(title, { childList: true, characterData: true, subtree: true });
  }
  connect();
}

/** The session changed (signed in or out): the channel is opened again for the new one. */
export function restartNotices() {
  if (channel.stopped) return;
  stopNotices();
  channel.board = new NoticeBoard();
  renderTray();
  connect();
}

/** The page is left: the channel closes, so that the player counts as gone. */
export function stopNotices() {
  channel.stopped = true;
  const ws = channel.socket;
  channel.socket = null; // first, so that its close does not reconnect
  ws?.close();
  if (channel.ping) clearInterval(channel.ping);
  channel.ping = null;
}

/** A game's page is shown: its notices leave the tray. */
export function noticesSeenGame(game) {
  if (channel.board.seenGame(game)) renderTray();
}

function connect() {
  if (channel.socket) return;
  channel.stopped = false;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${scheme}//${location.host}/api/notify/ws`, ['morris']);
  channel.socket = ws;
  ws.onopen = () => {
    channel.wait = 1000;
  };
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    const effect = channel.board.take(msg, location.pathname);
    if (effect.alert) alertPlayer();
    if (effect.changed) renderTray();
    if (effect.open) channel.open(effect.open);
  };
  ws.onclose = () => {
    if (channel.socket !== ws) return;
    channel.socket = null;
    // The server may be restarting: again after 1 s, growing to 30 s.
    const wait = channel.wait;
    channel.wait = Math.min(wait * 2, 30000);
    setTimeout(() => !channel.stopped && connect(), wait);
  };
  if (channel.ping) clearInterval(channel.ping);
  // The server closes a channel that says nothing for 90 s.
  channel.ping = setInterval(() => {
    if (channel.socket?.readyState === WebSocket.OPEN) channel.socket.send('{"type":"ping"}');
  }, 30000);
}

/** A sound, and a system notification while the tab is hidden and the player allowed them. */
function alertPlayer() {
  playSound('notice', loadSettings().sound);
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const item = channel.board.items[0];
  if (!item) return;
  try {
    const shown = new Notification(document.title, { body: noticeWords(item), tag: item.key });
    shown.onclick = () => {
      window.focus();
      if ('game' in item) channel.open(`/g/${encodeURIComponent(item.game)}`);
    };
  } catch {
    /* notifications refused by the browser */
  }
}

/** @param {string} tag @param {string} className @param {string} [text] */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(text, className, onClick) {
  const b = /** @type {HTMLButtonElement} */ (el('button', className, text));
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** Draws the tray (and the tab's title) from the board. */
export function renderTray() {
  if (typeof document === 'undefined') return;
  const board = channel.board;
  document.title = titled(document.title, board.count());
  let tray = document.getElementById('notices');
  if (!board.items.length) {
    tray?.remove();
    return;
  }
  if (!tray) {
    tray = el('aside', 'notices');
    tray.id = 'notices';
    tray.setAttribute('aria-live', 'polite');
    document.body.append(tray);
  }
  tray.setAttribute('aria-label', t('notice.title'));
  const list = el('ul', 'notice-list');
  for (const item of board.items) {
    const li = el('li', `notice-item notice-${item.kind}`);
    li.dataset.key = item.key;
    li.append(el('span', 'notice-text', noticeWords(item)));
    const actions = el('span', 'notice-actions');
    if (item.kind === 'challenge') {
      const id = item.challenge.id;
      actions.append(
        button(t('site.accept'), 'small primary notice-accept', async () => {
          try {
            const answer = await api.accept(id);
            board.dismiss(item.key);
            renderTray();
            if (answer.game) channel.open(`/g/${encodeURIComponent(answer.game)}`);
          } catch (err) {
            board.dismiss(item.key);
            renderTray();
            channel.showError(err);
          }
        }),
        button(t('notice.decline'), 'small notice-decline', async () => {
          board.dismiss(item.key);
          renderTray();
          try {
            await api.decline(id);
          } catch (err) {
            channel.showError(err);
          }
        }),
      );
    } else {
      if ('game' in item) {
        actions.append(
          button(t('notice.open'), 'small primary notice-open', () => {
            board.dismiss(item.key);
            renderTray();
            channel.open(`/g/${encodeURIComponent(item.game)}`);
          }),
        );
      }
      const close = button('×', 'small notice-dismiss', () => {
        board.dismiss(item.key);
        renderTray();
      });
      close.setAttribute('aria-label', t('notice.dismiss'));
      actions.append(close);
    }
    li.append(actions);
    list.append(li);
  }
  const foot = el('div', 'notice-foot');
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
    foot.append(
      button(t('notice.desktop'), 'small notice-desktop', async () => {
        try {
          await Notification.requestPermission();
        } finally {
          renderTray();
        }
      }),
    );
  }
  tray.replaceChildren(list, foot);
}
