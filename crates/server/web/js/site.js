// The site around the board: the session and account dialog, the lobby page (quick
// pairing, challenges, games being played), "My games", players' pages with their rating
// chart and games (both lists drawn by gamelist.js), and the parts of a game between people
// beside the board (clocks, presence, abort, claim, rematch, chat). Everything the server or
// a player wrote goes in as textContent.

import { api, setCsrf } from './api.js';
import { formatClock, isLow, timeLeft, warnLow } from './clock.js';
import { leftAt } from './plyclock.js';
import { play as playSound } from './sound.js';
import { loadSettings } from './settings.js';
import { h } from './panels.js';
import { gameList } from './gamelist.js';
import { language, localeOf, t } from './i18n.js';
import { canAskTakeBack, takebackDeclined } from './offers.js';
import { clockWords, ratingText } from './format.js';
import { startNotices, restartNotices, noticesSeenGame } from './notify.js';

const $ = (id) => document.getElementById(id);

/** The session: `{player, name, csrf, moderator}`. */
export const session = { player: null, name: null, csrf: '', moderator: false };

let showError = (message) => console.warn(message);
let showNotice = (message) => console.info(message);
let describe = (err) => err.message;
let navigate = (path) => {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
};

/**
 * The address to go to for a game this page was paired into, or null when the page is there
 * already: the answer of `POST /api/lobby/quick` and the lobby socket's `paired` message both
 * name the game, and only the first may open it.
 * @param {string} current the page's path
 * @param {string} game
 */
export function pairedPath(current, game) {
  const path = `/g/${encodeURIComponent(game)}`;
  return current === path ? null : path;
}

/** Opens the game of a pairing, once. */
function openPaired(game) {
  const path = pairedPath(location.pathname, game);
  if (path) navigate(path);
}

/** A link inside the page that the router follows without a reload. */
function link(path, text, className = '') {
  const a = h('a', className, text);
  a.href = path;
  a.addEventListener('click', (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(path);
  });
  return a;
}

async function loadSession() {
  const s = await api.session();
  const changed = s.player !== session.player || s.name !== session.name;
  const before = session.player;
  Object.assign(session, s);
  setCsrf(s.csrf);
  renderAccount();
  // The notification channel is the session's: a new session opens it again.
  if (before !== null && before !== s.player) restartNotices();
  // A page of the site drawn for the session before (a guest's games, the lobby's terms).
  if (changed && page) siteRoute(location.pathname).catch((err) => showError(() => describe(err)));
}

// ----- the account button and dialog -----

function renderAccount() {
  const button = $('btn-account');
  if (!button) return;
  button.textContent = session.name ? session.name : t('site.sign_in');
  button.title = session.name ? t('site.account_title', { name: session.name }) : t('site.sign_in');
}

function accountDialog() {
  let dialog = $('account');
  if (dialog) return dialog;
  dialog = document.createElement('dialog');
  dialog.id = 'account';
  document.body.append(dialog);
  return dialog;
}

function field(label, name, type, autocomplete) {
  const row = h('label', 'row');
  row.append(h('span', '', label));
  const input = document.createElement('input');
  Object.assign(input, { name, type, autocomplete, required: true });
  row.append(input);
  return { row, input };
}

/**
 * Whether the two entries of a new password agree (a sign-up is sent only then).
 * @param {string} password
 * @param {string} again
 */
export function passwordsAgree(password, again) {
  return password.length > 0 && password === again;
}

function openAccount() {
  const dialog = accountDialog();
  const form = h('form', 'game-form');
  const error = h('p', 'dialog-error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const fail = (err) => {
    error.textContent = err?.own ? err.message : describe(err);
    error.hidden = false;
  };
  const actions = h('div', 'actions');
  const close = h('button', '', t('export.close'));
  close.type = 'button';
  close.addEventListener('click', () => dialog.close());
  if (session.name) {
    form.append(h('h2', '', t('site.account_title', { name: session.name })));
    const mine = link(`/@/${encodeURIComponent(session.name)}`, t('site.my_page'));
    mine.addEventListener('click', () => dialog.close());
    form.append(mine);
    const old = field(t('site.password_old'), 'old', 'password', 'current-password');
    const next = field(t('site.password_new'), 'new', 'password', 'new-password');
    form.append(old.row, next.row, error);
    const change = h('button', 'small', t('site.password_change'));
    change.type = 'submit';
    const out = h('button', 'danger', t('site.sign_out'));
    out.type = 'button';
    out.addEventListener('click', async () => {
      try {
        await api.signOut();
        await loadSession();
        dialog.close();
      } catch (err) {
        fail(err);
      }
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.password(old.input.value, next.input.value);
        // A new password begins a new session (a new cookie and CSRF token).
        await loadSession();
        dialog.close();
      } catch (err) {
        fail(err);
      }
    });
    const sessions = h('section', 'sessions');
    sessions.id = 'account-sessions';
    form.append(sessions);
    showSessions(sessions, fail);
    actions.append(close, out, change);
  } else {
    form.append(h('h2', '', t('site.sign_in')));
    form.append(h('p', 'fine', t('site.anonymous_note')));
    const mine = link('/games', t('site.my_games'));
    mine.addEventListener('click', () => dialog.close());
    form.append(mine);
    const name = field(t('site.user_name'), 'name', 'text', 'username');
    name.input.maxLength = 20;
    const password = field(t('site.password'), 'password', 'password', 'current-password');
    password.input.maxLength = 128;
    // Signing up asks for the password twice, to catch a typo; signing in once.
    const again = field(t('site.password_again'), 'again', 'password', 'new-password');
    again.input.maxLength = 128;
    again.input.required = false;
    again.row.hidden = true;
    form.append(name.row, password.row, again.row, error);
    const up = h('button', '', t('site.sign_up'));
    up.type = 'button';
    up.id = 'account-sign-up';
    const inBtn = h('button', 'primary', t('site.sign_in'));
    inBtn.type = 'submit';
    inBtn.id = 'account-sign-in';
    const go = async (call) => {
      try {
        await call(name.input.value.trim(), password.input.value);
        await loadSession();
        dialog.close();
      } catch (err) {
        fail(err);
      }
    };
    up.addEventListener('click', () => {
      if (again.row.hidden && !again.input.value) {
        // The first click asks for the password again; the second signs up.
        again.row.hidden = false;
        password.input.autocomplete = 'new-password';
        again.input.focus();
        return;
      }
      again.row.hidden = false;
      if (!passwordsAgree(password.input.value, again.input.value)) {
        fail({ message: t('site.password_mismatch'), own: true });
        again.input.focus();
        return;
      }
      go(api.signUp);
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go(api.signIn);
    });
    actions.append(close, up, inBtn);
  }
  form.append(actions);
  dialog.replaceChildren(form);
  if (!dialog.open) dialog.showModal();
}

/**
 * A browser's name as a person knows it, from its `User-Agent`: the browser and the system.
 * @param {string} agent
 * @returns {string}
 */
export function browserName(agent) {
  if (!agent) return '';
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrom(?:e|ium)\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([re]) => re.test(agent))?.[1] ?? agent.split(/[ /]/)[0];
  const system = [
    [/Android/, 'Android'],
    [/iPhone|iPad/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ].find(([re]) => re.test(agent))?.[1];
  return system ? `${browser}, ${system}` : browser;
}

/** Fills the account dialog's list of the player's sessions, each with a way to end it. */
async function showSessions(section, fail) {
  let list;
  try {
    list = await api.sessions();
  } catch (err) {
    fail(err);
    return;
  }
  const rows = h('ul', 'session-list');
  for (const s of list.sessions) {
    const row = h('li');
    const name = browserName(s.agent) || t('site.session_unknown');
    row.append(h('span', 'session-agent', name));
    row.title = s.agent;
    const when = new Date(s.seen * 1000).toLocaleString(localeOf(language()), {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    if (s.current) {
      row.append(h('span', 'fine', t('site.session_this')));
    } else {
      row.append(h('span', 'fine', t('site.session_seen', { date: when })));
      const end = h('button', 'small', t('site.session_end'));
      end.type = 'button';
      end.addEventListener('click', async () => {
        try {
          await api.endSession(s.id);
          row.remove();
        } catch (err) {
          fail(err);
        }
      });
      row.append(end);
    }
    rows.append(row);
  }
  section.replaceChildren(h('h3', '', t('site.sessions_title')), rows);
}

// ----- pages of the site: the lobby and players' pages -----

let page = null; // the page shown instead of the board, if any
let lobbySocket = null;
let lobbyConnect = null; // opens the lobby page's socket (again), while the lobby is shown

function showPage(section) {
  leavePage();
  // The page is the document's main part while the board's is hidden.
  page = document.createElement('main');
  page.className = 'site-main';
  page.append(section);
  document.querySelector('main.layout').hidden = true;
  document.body.insertBefore(page, document.querySelector('main.layout'));
}

/** Leaves a page of the site (the board is shown again). */
export function leavePage() {
  closeLobbySocket();
  if (peopleTimer) clearInterval(peopleTimer);
  peopleTimer = null;
  lobbyConnect = null;
  page?.remove();
  page = null;
  const main = document.querySelector('main.layout');
  if (main) main.hidden = false;
}

function closeLobbySocket() {
  const ws = lobbySocket;
  lobbySocket = null; // first, so that its close does not reconnect
  ws?.close();
}

/**
 * The page is left for the browser's back/forward cache (`pagehide`): the lobby's socket is
 * closed, so that the player's challenges and seeks go as they would with the tab closed.
 */
export function suspendSite() {
  closeLobbySocket();
}

/** The page is shown again from the back/forward cache (`pageshow`): the lobby reconnects. */
export function resumeSite() {
  if (lobbyConnect && !lobbySocket) lobbyConnect();
}

/** Marks the top bar's link of the page shown, if it has one. */
function markCurrent(path) {
  for (const a of document.querySelectorAll('header.topbar .lobby-link')) {
    if (a.getAttribute('href') === path) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** The timer that asks again who is on the site, while the lobby is shown. */
let peopleTimer = null;

/** Shows the page of a path of the site; false for a path that is not one. */
export async function siteRoute(path) {
  markCurrent(path);
  if (path === '/lobby') {
    showLobby();
    return true;
  }
  if (path === '/games') {
    await showMyGames();
    return true;
  }
  if (path === '/leaderboard') {
    await showLeaderboard();
    return true;
  }
  if (path === '/mod') {
    await showModeration();
    return true;
  }
  const m = /^\/@\/([^/]+)\/?$/.exec(path);
  if (m) {
    await showPlayer(decodeURIComponent(m[1]));
    return true;
  }
  leavePage();
  return false;
}

const clockText = (c) => clockWords(c?.text ?? c);
const presetText = (p) => `${Math.round(p.base / 60)}+${p.increment}`;

/**
 * How many players wait for a pairing at `clock`, from the lobby's `waiting`.
 * @param {{clock: string, players: number}[] | undefined} waiting
 * @param {string | undefined} clock
 */
export function poolSize(waiting, clock) {
  return (waiting ?? []).filter((w) => w.clock === clock).reduce((sum, w) => sum + w.players, 0);
}

/**
 * How many games of the pool at `clock` are being played, from the lobby's `waiting`.
 * @param {{clock: string, games?: number}[] | undefined} waiting
 * @param {string | undefined} clock
 */
export function poolGames(waiting, clock) {
  return (waiting ?? []).filter((w) => w.clock === clock).reduce((sum, w) => sum + (w.games ?? 0), 0);
}

/** A game being played, in a list: its variant, clock, and whether it is rated. */
const playingTerms = (g) =>
  [t(`variant.${g.variant}`), clockText(g.clock), g.rated ? t('site.rated') : t('site.casual')].join(' · ');

function showLobby() {
  const section = h('section', 'card site-page lobby');
  section.id = 'lobby';
  section.append(h('h2', '', t('site.lobby')));
  const quick = h('div', 'quick');
  quick.setAttribute('aria-label', t('site.quick'));
  const waiting = h('p', 'fine');
  const cancel = h('button', 'small', t('site.quick_cancel'));
  cancel.type = 'button';
  cancel.hidden = true;
  cancel.addEventListener('click', () => api.cancelQuick().catch((err) => showError(() => describe(err))));
  // Rated or casual is the player's choice; a guest plays casual games only.
  const quickRated = document.createElement('input');
  quickRated.type = 'checkbox';
  quickRated.id = 'quick-rated';
  quickRated.checked = Boolean(session.name);
  quickRated.disabled = !session.name;
  const quickRatedLabel = h('label', 'check');
  quickRatedLabel.append(quickRated, ' ', t('site.rated'));
  const quickNote = h('p', 'quick-note', session.name ? t('site.quick_rated_note') : t('site.quick_guest_note'));
  section.append(h('h3', '', t('site.quick')), quickRatedLabel, quick, quickNote, waiting, cancel);

  const form = challengeForm();
  section.append(h('h3', '', t('site.challenge_new')), form);
  const challenges = h('ul', 'challenges');
  challenges.id = 'challenges';
  const openCount = h('p', 'fine');
  openCount.id = 'challenges-open';
  section.append(h('h3', '', t('site.challenges')), openCount, challenges);
  const playing = h('ul', 'playing');
  playing.id = 'playing';
  section.append(h('h3', '', t('site.playing')), playing);
  // Who is on the site, the players followed, and a search by name.
  const people = h('div', 'people');
  const onlineLine = h('p', 'fine');
  onlineLine.id = 'online-count';
  const follows = h('ul', 'following');
  follows.id = 'following';
  const search = h('form', 'player-search');
  search.setAttribute('role', 'search');
  const q = document.createElement('input');
  q.name = 'q';
  q.maxLength = 20;
  q.placeholder = t('site.search_players');
  q.setAttribute('aria-label', t('site.search_players'));
  const found = h('ul', 'found');
  found.id = 'found-players';
  search.append(q);
  search.addEventListener('submit', (e) => e.preventDefault());
  let asked = 0;
  q.addEventListener('input', async () => {
    const text = q.value.trim();
    const mine = (asked += 1);
    if (!text) {
      found.replaceChildren();
      return;
    }
    try {
      const names = await api.searchPlayers(text);
      if (mine !== asked) return;
      found.replaceChildren(...names.map((n) => {
        const li = h('li');
        li.append(link(`/@/${encodeURIComponent(n)}`, n));
        return li;
      }));
      if (!names.length) found.append(h('li', 'fine', t('site.search_none')));
    } catch (err) {
      showError(() => describe(err));
    }
  });
  people.append(h('h3', '', t('site.people')), onlineLine, search, found);
  if (session.name) people.append(h('h4', '', t('site.following')), follows);
  section.append(people);
  const drawPeople = async () => {
    try {
      const online = await api.online();
      onlineLine.textContent = t('site.online_count', { count: online.players });
      if (!session.name) return;
      const list = await api.following();
      follows.replaceChildren();
      if (!list.length) follows.append(h('li', 'fine', t('site.following_none')));
      for (const f of list) {
        const li = h('li');
        li.append(link(`/@/${encodeURIComponent(f.name)}`, f.name));
        if (f.playing) li.append(link(`/g/${encodeURIComponent(f.playing)}`, t('site.playing_now'), 'terms'));
        else li.append(h('span', 'terms', f.online ? t('site.online') : t('site.offline')));
        follows.append(li);
      }
    } catch (err) {
      showError(() => describe(err));
    }
  };
  const mine = h('p');
  mine.append(link('/', t('top.new')), ' · ', link('/games', t('site.my_games')), ' · ', link('/leaderboard', t('site.leaderboard')));
  if (session.moderator) mine.append(' · ', link('/mod', t('mod.title')));
  if (session.name) {
    mine.append(' · ', link(`/@/${encodeURIComponent(session.name)}`, t('site.my_page')));
  }
  section.append(mine);
  showPage(section);
  drawPeople();
  // Who is on the site changes without the lobby changing: asked again every 10 s.
  peopleTimer = setInterval(() => {
    if (!document.hidden) drawPeople();
  }, 10000);

  const render = (lobby) => {
    // The buttons stay as they are while the lobby changes: a click is never lost to a redraw.
    const drawn = [...quick.children].map((b) => b.dataset.clock).join(' ');
    if (drawn !== lobby.presets.map(presetText).join(' ')) quick.replaceChildren();
    for (const p of quick.children.length ? [] : lobby.presets) {
      const b = h('button', 'quick-button');
      b.type = 'button';
      b.dataset.clock = presetText(p);
      b.append(h('span', 'quick-clock', presetText(p)), h('span', 'pool'));
      b.addEventListener('click', async () => {
        try {
          const answer = await api.quick(presetText(p), quickRated.checked);
          if (answer.game) openPaired(answer.game);
        } catch (err) {
          showError(() => describe(err));
        }
      });
      quick.append(b);
    }
    // How many wait at each clock, on its button.
    for (const b of quick.children) {
      const count = poolSize(lobby.waiting, b.dataset.clock);
      const games = poolGames(lobby.waiting, b.dataset.clock);
      const pool = b.querySelector('.pool');
      const words = [];
      if (count) words.push(t('site.quick_players', { count }));
      if (games) words.push(t('site.quick_games', { count: games }));
      if (pool) pool.textContent = words.join(' · ');
    }
    cancel.hidden = !lobby.seeking;
    waiting.textContent = lobby.seeking ? t('site.quick_waiting') : '';
    challenges.replaceChildren();
    if (!lobby.challenges.length) challenges.append(h('li', 'fine', t('site.challenges_none')));
    openCount.textContent = lobby.open ? t('site.challenges_open', { count: lobby.open }) : '';
    for (const c of lobby.challenges) {
      const li = h('li', 'challenge');
      const who = c.by ?? t('site.anonymous');
      const rating = ratingText(c.rating, c.provisional);
      const terms = [
        t(`variant.${c.variant}`),
        clockText(c.clock_text),
        c.rated ? t('site.rated') : t('site.casual'),
        t(`site.color_${c.color}`),
      ];
      if (c.direct) terms.push(c.mine && c.to ? t('site.to_named', { name: c.to }) : t('site.direct'));
      li.append(h('span', 'who', `${who} (${rating})`), h('span', 'terms', terms.join(' · ')));
      const b = h('button', c.mine ? 'small' : 'small primary', c.mine ? t('site.withdraw') : t('site.accept'));
      b.type = 'button';
      b.addEventListener('click', async () => {
        try {
          if (c.mine) await api.withdraw(c.id);
          else {
            const answer = await api.accept(c.id);
            openPaired(answer.game);
          }
        } catch (err) {
          showError(() => describe(err));
        }
      });
      li.append(b);
      if (c.direct && !c.mine) {
        const no = h('button', 'small', t('notice.decline'));
        no.type = 'button';
        no.addEventListener('click', () => api.decline(c.id).catch((err) => showError(() => describe(err))));
        li.append(no);
      }
      challenges.append(li);
    }
    playing.replaceChildren();
    if (!lobby.playing.length) playing.append(h('li', 'fine', t('site.playing_none')));
    for (const g of lobby.playing) {
      const li = h('li');
      const names = `${g.white ?? t('site.anonymous')} – ${g.black ?? t('site.anonymous')}`;
      li.append(link(`/g/${encodeURIComponent(g.id)}`, names, 'game-link'));
      li.append(h('span', 'terms', ` ${playingTerms(g)}`));
      playing.append(li);
    }
  };
  const connect = () => {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/api/lobby/ws`, ['morris']);
    lobbySocket = ws;
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === 'lobby') render(msg);
      if (msg.type === 'paired') openPaired(msg.game);
    };
    ws.onclose = () => {
      if (lobbySocket === ws) setTimeout(() => lobbySocket === ws && connect(), 2000);
    };
  };
  lobbyConnect = connect;
  connect();
}

function challengeForm() {
  const form = h('form', 'challenge-form');
  const select = (name, options) => {
    const s = document.createElement('select');
    s.name = name;
    for (const [value, text] of options) {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      s.append(o);
    }
    return s;
  };
  const variant = select('variant', ['nine', 'six', 'three', 'twelve', 'morabaraba', 'lasker'].map((v) => [v, t(`variant.${v}`)]));
  const clock = select('clock', [
    ...['1+0', '3+2', '5+3', '10+5', '15+10'].map((c) => [c, c]),
    ['1d', clockWords('1d')],
    ['3d', clockWords('3d')],
    ['none', t('site.no_clock')],
  ]);
  const color = select('color', [['random', t('color.random')], ['white', t('color.white')], ['black', t('color.black')]]);
  variant.setAttribute('aria-label', t('form.game'));
  clock.setAttribute('aria-label', t('site.clock_label'));
  color.setAttribute('aria-label', t('form.color'));
  const rated = document.createElement('input');
  rated.type = 'checkbox';
  rated.name = 'rated';
  rated.checked = Boolean(session.name);
  const ratedLabel = h('label', 'check');
  ratedLabel.append(rated, ' ', t('site.rated'));
  const to = document.createElement('input');
  to.name = 'to';
  to.maxLength = 20;
  to.placeholder = t('site.to_player');
  to.setAttribute('aria-label', t('site.to_player'));
  const submit = h('button', 'primary small', t('site.challenge_make'));
  submit.type = 'submit';
  form.append(variant, clock, color, ratedLabel, to, submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const terms = { variant: variant.value, rated: rated.checked, color: color.value };
    if (clock.value !== 'none') terms.clock = clock.value;
    if (to.value.trim()) terms.to = to.value.trim();
    try {
      await api.challenge(terms);
    } catch (err) {
      showError(() => describe(err));
    }
  });
  return form;
}

/**
 * The rating history as an inline SVG line: one point per rated game, oldest left.
 * @param {{rating: number}[]} history
 */
export function chartPoints(history, width, height) {
  if (!history.length) return '';
  const ratings = history.map((p) => p.rating);
  const lo = Math.min(...ratings) - 20;
  const hi = Math.max(...ratings) + 20;
  const x = (i) => (history.length === 1 ? width / 2 : (i * width) / (history.length - 1));
  const y = (r) => height - ((r - lo) * height) / (hi - lo);
  return history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
}

/**
 * The points of `chartPoints` as numbers, one dot per rated game, while there are at most 60
 * (beyond that the line alone reads better).
 * @param {string} points
 * @returns {[number, number][]}
 */
export function chartDots(points) {
  if (!points) return [];
  const all = points.split(' ').map((p) => /** @type {[number, number]} */ (p.split(',').map(Number)));
  return all.length > 60 ? [] : all;
}

const SVG = 'http://www.w3.org/2000/svg';

async function showPlayer(name) {
  const section = h('section', 'card site-page player-page');
  section.id = 'player-page';
  showPage(section);
  let player;
  try {
    player = await api.player(name);
  } catch (err) {
    section.append(h('p', '', describe(err)));
    return;
  }
  section.append(h('h2', '', player.name));
  const status = h('p', 'presence-line');
  status.id = 'player-presence';
  if (player.playing) status.append(link(`/g/${encodeURIComponent(player.playing)}`, t('site.playing_now')));
  else status.textContent = player.online ? t('site.online') : t('site.offline');
  section.append(status);
  if (session.name && session.name.toLowerCase() !== player.name.toLowerCase()) section.append(await playerActions(player.name));
  const c = player.counts;
  section.append(h('p', 'counts', [t('site.won', { count: c.wins }), t('site.drawn', { count: c.draws }), t('site.lost', { count: c.losses })].join(' · ')));
  const ratings = h('ul', 'ratings');
  if (!player.ratings.length) ratings.append(h('li', 'fine', t('site.no_ratings')));
  for (const r of player.ratings) {
    const text = `${t(`variant.${r.variant}`)} · ${t(`site.class_${r.class}`)}: ${Math.round(r.rating.rating)}${r.provisional ? ` (${t('site.provisional')})` : ''} · ${t('site.games', { count: r.games })}`;
    ratings.append(h('li', '', text));
  }
  section.append(h('h3', '', t('site.ratings')), ratings);
  if (player.history.length) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 400 120');
    svg.setAttribute('class', 'rating-chart');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('site.chart'));
    const points = chartPoints(player.history, 400, 120);
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', points);
    line.setAttribute('class', 'rating-line');
    svg.append(line);
    // Each game is a dot too: a single rated game, a line of one point, still shows.
    for (const [x, y] of chartDots(points)) {
      const dot = document.createElementNS(SVG, 'circle');
      dot.setAttribute('cx', String(x));
      dot.setAttribute('cy', String(y));
      dot.setAttribute('r', player.history.length === 1 ? '5' : '2.5');
      dot.setAttribute('class', 'rating-dot');
      svg.append(dot);
    }
    section.append(svg);
  }
  const games = gameList((query) => api.playerGames(player.name, query), { link, describe, empty: t('site.games_none') });
  section.append(h('h3', '', t('site.games_title')), games.element);
  await games.ready;
}

/**
 * What a signed-up player can do about another: block or unblock them, and report them with
 * a reason kept for a moderator.
 * @param {string} name
 */
async function playerActions(name) {
  const box = h('div', 'player-actions');
  let blocked = false;
  try {
    blocked = (await api.blocks()).some((n) => n.toLowerCase() === name.toLowerCase());
  } catch (err) {
    showError(() => describe(err));
  }
  const block = h('button', 'small', '');
  block.type = 'button';
  block.id = 'player-block';
  const note = h('p', 'fine');
  note.id = 'player-block-note';
  const draw = () => {
    block.textContent = blocked ? t('site.unblock') : t('site.block');
    block.setAttribute('aria-pressed', String(blocked));
    note.textContent = blocked ? t('site.blocked_note', { name }) : '';
  };
  draw();
  block.addEventListener('click', async () => {
    try {
      if (blocked) await api.unblock(name);
      else await api.block(name);
      blocked = !blocked;
      draw();
    } catch (err) {
      showError(() => describe(err));
    }
  });
  const report = h('button', 'small', t('site.report'));
  report.type = 'button';
  report.id = 'player-report';
  const form = h('form', 'report-form');
  form.hidden = true;
  const reason = document.createElement('textarea');
  reason.name = 'reason';
  reason.maxLength = 500;
  reason.rows = 3;
  reason.required = true;
  reason.setAttribute('aria-label', t('site.report_reason'));
  reason.placeholder = t('site.report_reason');
  const send = h('button', 'small primary', t('site.report_send'));
  send.type = 'submit';
  form.append(reason, send);
  report.addEventListener('click', () => {
    form.hidden = !form.hidden;
    if (!form.hidden) reason.focus();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api.report(name, reason.value);
      reason.value = '';
      form.hidden = true;
      showNotice(() => t('site.report_kept'));
    } catch (err) {
      showError(() => describe(err));
    }
  });
  let followed = false;
  try {
    followed = (await api.following()).some((f) => f.name.toLowerCase() === name.toLowerCase());
  } catch (err) {
    showError(() => describe(err));
  }
  const follow = h('button', 'small', '');
  follow.type = 'button';
  follow.id = 'player-follow';
  const drawFollow = () => {
    follow.textContent = followed ? t('site.unfollow') : t('site.follow');
    follow.setAttribute('aria-pressed', String(followed));
  };
  drawFollow();
  follow.addEventListener('click', async () => {
    try {
      if (followed) await api.unfollow(name);
      else await api.follow(name);
      followed = !followed;
      drawFollow();
    } catch (err) {
      showError(() => describe(err));
    }
  });
  box.append(follow, block, report, note, form);
  return box;
}

/** The moderators' page: the open reports, each with its actions, and the log. */
async function showModeration() {
  const section = h('section', 'card site-page moderation');
  section.id = 'moderation';
  section.append(h('h2', '', t('mod.title')));
  showPage(section);
  if (!session.moderator) {
    section.append(h('p', '', t('error.not_moderator')));
    return;
  }
  const reports = h('ul', 'reports');
  reports.id = 'mod-reports';
  const log = h('ul', 'mod-log');
  log.id = 'mod-log';
  section.append(h('h3', '', t('mod.reports')), reports, h('h3', '', t('mod.log')), log);
  const when = (s) => new Date(s * 1000).toLocaleString(localeOf(language()));
  const act = (fn) => async () => {
    try {
      await fn();
      await load();
    } catch (err) {
      showError(() => describe(err));
    }
  };
  const button = (text, onClick) => {
    const b = h('button', 'small', text);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  };
  const load = async () => {
    const [open, done] = await Promise.all([api.modReports(), api.modLog()]);
    reports.replaceChildren();
    if (!open.length) reports.append(h('li', 'fine', t('mod.reports_none')));
    for (const r of open) {
      const li = h('li', 'report');
      li.append(
        h('span', 'who', t('mod.report_line', { reporter: r.reporter, reported: r.reported })),
        h('span', 'terms', when(r.created)),
        h('q', 'reason', r.reason),
      );
      if (r.game) li.append(link(`/g/${encodeURIComponent(r.game)}`, t('mod.game')));
      li.append(
        button(t('mod.mute_day'), act(() => api.modMute(r.reported, 24))),
        button(t('mod.close'), act(async () => {
          const why = window.prompt(t('mod.close_why', { name: r.reported }));
          if (why) await api.modClose(r.reported, why);
        })),
        button(t('mod.resolve'), act(() => api.modResolve(r.id))),
      );
      reports.append(li);
    }
    log.replaceChildren();
    for (const l of done) {
      log.append(h('li', '', `${when(l.at)} · ${l.moderator} · ${t(`mod.action_${l.action}`)} · ${l.target}${l.detail ? ` · ${l.detail}` : ''}`));
    }
  };
  try {
    await load();
  } catch (err) {
    showError(() => describe(err));
  }
}

/** The leaderboard of a variant and time class: the best established ratings. */
async function showLeaderboard() {
  const section = h('section', 'card site-page leaderboard');
  section.id = 'leaderboard';
  section.append(h('h2', '', t('site.leaderboard')));
  const pick = (name, options, label) => {
    const s = document.createElement('select');
    s.name = name;
    s.setAttribute('aria-label', label);
    for (const [value, text] of options) {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      s.append(o);
    }
    return s;
  };
  const variant = pick('variant', ['nine', 'six', 'three', 'twelve', 'morabaraba', 'lasker'].map((v) => [v, t(`variant.${v}`)]), t('form.game'));
  const timeClass = pick('class', ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'].map((c) => [c, t(`site.class_${c}`)]), t('site.clock_label'));
  timeClass.value = 'blitz';
  const list = h('ol', 'leaders');
  list.id = 'leaders';
  section.append(h('div', 'filters'), list);
  section.querySelector('.filters')?.append(variant, timeClass);
  showPage(section);
  const load = async () => {
    try {
      const leaders = await api.leaderboard(variant.value, timeClass.value);
      list.replaceChildren();
      if (!leaders.length) list.append(h('li', 'fine', t('site.leaderboard_none')));
      for (const p of leaders) {
        const li = h('li');
        li.append(link(`/@/${encodeURIComponent(p.name)}`, p.name), h('span', 'terms', ` ${p.rating} · ${t('site.games', { count: p.games })}`));
        list.append(li);
      }
    } catch (err) {
      showError(() => describe(err));
    }
  };
  variant.addEventListener('change', load);
  timeClass.addEventListener('change', load);
  await load();
}

/** The session's player's own games, signed up or not (a guest is kept by the cookie). */
async function showMyGames() {
  const section = h('section', 'card site-page games-page');
  section.id = 'games-page';
  section.append(h('h2', '', t('site.my_games')));
  if (!session.name) {
    const guest = h('div', 'guest-note');
    const up = h('button', 'small', t('site.sign_up'));
    up.type = 'button';
    up.id = 'games-sign-up';
    up.addEventListener('click', openAccount);
    guest.append(h('p', 'fine', t('site.guest_games')), up);
    section.append(guest);
  }
  // The games waiting for the player's ply, correspondence ones first.
  const turn = h('ul', 'playing your-turn');
  turn.id = 'your-turn';
  section.append(h('h3', '', t('site.your_turn')), turn);
  showPage(section);
  api
    .myTurn()
    .then((list) => {
      turn.replaceChildren();
      if (!list.length) turn.append(h('li', 'fine', t('site.your_turn_none')));
      for (const g of list) {
        const li = h('li');
        const names = `${g.white ?? t('site.anonymous')} – ${g.black ?? t('site.anonymous')}`;
        li.append(link(`/g/${encodeURIComponent(g.id)}`, names, 'game-link'));
        li.append(h('span', 'terms', ` ${playingTerms(g)}`));
        turn.append(li);
      }
    })
    .catch((err) => showError(() => describe(err)));
  const games = gameList((query) => api.myGames(query), { link, describe, empty: t('site.my_games_none') });
  section.append(games.element);
  const next = h('p');
  next.append(link('/', t('top.new')), ' · ', link('/lobby', t('site.lobby')));
  if (session.name) next.append(' · ', link(`/@/${encodeURIComponent(session.name)}`, t('site.my_page')));
  section.append(next);
  await games.ready;
}

// ----- the game between people, beside the board -----

const table = {
  game: null,
  received: 0,
  you: null,
  token: null,
  presence: null,
  chatOff: false,
  ticker: null,
  review: null, // plies shown while the plies are browsed back; null: the live position
};

function clockElement(bar) {
  let el = bar.querySelector('.clock');
  if (!el) {
    el = h('div', 'clock');
    el.setAttribute('role', 'timer');
    bar.append(el);
  }
  return el;
}

/** The games and sides whose low clock was sounded already. */
const lowWarned = new Set();

/**
 * Draws both clocks in the player bars: as they stand now, or, while the plies are browsed
 * back (`review` plies shown; null: the live position), as they stood at that ply.
 * @param {number | null} [review] kept for the clocks' ticking until it is given again
 */
export function drawClocks(review) {
  if (review !== undefined) table.review = review;
  const g = table.game;
  const past = g?.clock && table.review !== null ? leftAt(g.clock, g.start, table.review) : null;
  for (const bar of [$('player-top'), $('player-bottom')]) {
    if (!bar) continue;
    const old = bar.querySelector('.clock');
    if (!g?.clock) {
      old?.remove();
      continue;
    }
    const color = bar.dataset.color;
    const left = past ? past[color] : timeLeft(g.clock, Date.now() - table.received)[color];
    const el = clockElement(bar);
    el.textContent = formatClock(left);
    el.classList.toggle('running', !past && g.clock.running === color);
    el.classList.toggle('past', Boolean(past));
    const low = !past && g.status === 'playing' && isLow(left, g.clock.control);
    el.classList.toggle('low', low);
    if (warnLow(lowWarned, g.id, table.you, color, low)) playSound('low', loadSettings().sound);
    const words = { side: t(`color.${color}`), time: formatClock(left) };
    el.setAttribute('aria-label', past ? t('site.clock_at', words) : t('site.clock_of', words));
  }
}

function card() {
  let el = $('table-card');
  if (!el) {
    el = h('section', 'card table-card');
    el.id = 'table-card';
    const side = document.querySelector('aside.side');
    side?.insertBefore(el, $('controls')?.nextSibling ?? null);
  }
  return el;
}

function act(call) {
  call().then(
    (game) => game && gameChanged(game, table.you, table.token),
    (err) => showError(() => describe(err)),
  );
}

function renderTable() {
  const g = table.game;
  const el = card();
  const seat = table.you === 'white' || table.you === 'black';
  el.hidden = !g || g.opponent !== 'friend';
  if (el.hidden) return;
  el.replaceChildren();
  const opponent = seat ? (table.you === 'white' ? 'black' : 'white') : null;
  if (table.presence && opponent) {
    const here = table.presence.connected[opponent];
    // A friend invited by link who has not come yet, or an opponent never seen in this
    // game (a rematch not yet opened), has not left: nothing is claimed against them.
    const claimAt = table.presence.claim_at[opponent];
    const invited = !here && g.waiting_for === opponent;
    const joining = !here && !invited && !claimAt && g.status === 'playing';
    const line = invited
      ? h('p', 'presence waiting', t('site.friend_waiting'))
      : joining
        ? h('p', 'presence waiting', t('site.opponent_joining'))
        : h('p', `presence ${here ? 'here' : 'gone'}`, here ? t('site.opponent_here') : t('site.opponent_gone'));
    el.append(line);
    // Before both sides have played the game is aborted, not claimed.
    if (!here && !invited && !joining && claimAt && g.status === 'playing' && !g.abortable) {
      const wait = claimAt - table.presence.now - (Date.now() - table.presenceAt);
      if (wait > 0) {
        el.append(h('p', 'fine countdown', t('site.claim_in', { seconds: Math.ceil(wait / 1000) })));
      } else {
        const win = h('button', 'small primary', t('site.claim_win'));
        const draw = h('button', 'small', t('site.claim_draw'));
        win.addEventListener('click', () => act(() => api.claim(g.id, table.token, 'win')));
        draw.addEventListener('click', () => act(() => api.claim(g.id, table.token, 'draw')));
        el.append(win, draw);
      }
    }
  }
  if (g.unrated_why) {
    // A rated pairing played unrated: the two players have played too many rated games today.
    el.append(h('p', 'fine unrated-why', t(/one network/.test(g.unrated_why) ? 'site.unrated_network' : 'site.unrated_pair')));
  }
  const firstBy = g.status === 'playing' ? g.clock?.first_ply_by : null;
  if (firstBy) {
    const wait = firstBy - g.clock.now - (Date.now() - table.received);
    const seconds = Math.max(0, Math.ceil(wait / 1000));
    el.append(h('p', 'fine countdown first-ply', g.turn === table.you
      ? t('site.first_ply_you', { seconds })
      : t('site.first_ply_other', { side: t(`color.${g.turn}`), seconds })));
  }
  if (seat && g.status === 'playing') {
    if (g.takeback_offer && g.takeback_offer !== table.you) {
      el.append(h('p', '', t('site.takeback_offered')));
      const yes = h('button', 'small primary', t('draw.accept'));
      const no = h('button', 'small', t('draw.decline'));
      yes.addEventListener('click', () => act(() => api.takebackRequest(g.id, table.token, 'accept')));
      no.addEventListener('click', () => act(() => api.takebackRequest(g.id, table.token, 'decline')));
      el.append(yes, no);
    } else if (g.takeback_offer === table.you) {
      el.append(h('p', 'fine', t('site.takeback_sent')));
    } else if (canAskTakeBack(g, table.you) && table.declined !== `${g.id}|${g.moves.length}`) {
      // A declined request is not asked again before the next ply.
      const b = h('button', 'small', t('site.takeback_ask'));
      b.type = 'button';
      b.addEventListener('click', () => act(() => api.takebackRequest(g.id, table.token, 'offer')));
      el.append(b);
    }
  }
  if (seat && g.abortable) {
    const b = h('button', 'small', t('site.abort'));
    b.type = 'button';
    b.addEventListener('click', () => act(() => api.abort(g.id, table.token)));
    el.append(b);
  }
  if (g.ratings && table.you && g.ratings[table.you]) {
    const r = g.ratings[table.you];
    const diff = r.after - r.before;
    el.append(h('p', 'rating-change', t('site.rating_change', { before: r.before, after: r.after, diff: diff >= 0 ? `+${diff}` : `${diff}` })));
  }
  if (seat && g.status === 'over') {
    if (g.next_game) {
      el.append(link(`/g/${encodeURIComponent(g.next_game)}`, t('site.rematch_open'), 'rematch-link'));
    } else if (g.rematch_offer && g.rematch_offer !== table.you) {
      el.append(h('p', '', t('site.rematch_offered')));
      const yes = h('button', 'small primary', t('draw.accept'));
      const no = h('button', 'small', t('draw.decline'));
      yes.addEventListener('click', () => act(() => api.rematch(g.id, table.token, 'accept')));
      no.addEventListener('click', () => act(() => api.rematch(g.id, table.token, 'decline')));
      el.append(yes, no);
    } else if (!g.rematch_offer) {
      const b = h('button', 'small primary', t('site.rematch'));
      b.addEventListener('click', () => act(() => api.rematch(g.id, table.token, 'offer')));
      el.append(b);
    } else {
      el.append(h('p', 'fine', t('site.rematch_sent')));
    }
  }
  // The chat: players write, spectators read; each may switch it off.
  const head = h('div', 'card-head');
  head.append(h('h2', '', t('site.chat')));
  const toggle = h('button', 'small', table.chatOff ? t('site.chat_on') : t('site.chat_off'));
  toggle.type = 'button';
  toggle.addEventListener('click', () => {
    table.chatOff = !table.chatOff;
    try {
      localStorage.setItem('morris.chat_off', table.chatOff ? '1' : '');
    } catch {
      /* storage disabled: the choice lasts for this page */
    }
    renderTable();
  });
  head.append(toggle);
  el.append(head);
  if (table.chatOff) return;
  const lines = h('ol', 'chat-lines');
  lines.id = 'chat-lines';
  for (const line of table.lines ?? []) lines.append(chatLine(line));
  el.append(lines);
  if (seat) {
    const form = h('form', 'chat-form');
    const input = document.createElement('input');
    input.maxLength = 140;
    input.setAttribute('aria-label', t('site.chat_say'));
    input.placeholder = t('site.chat_say');
    const send = h('button', 'small', t('site.chat_send'));
    send.type = 'submit';
    form.append(input, send);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await api.say(g.id, table.token, text);
        input.value = '';
      } catch (err) {
        showError(() => describe(err));
      }
    });
    el.append(form);
  } else {
    el.append(h('p', 'fine', t('site.chat_spectator')));
  }
}

function chatLine(line) {
  return h('li', `chat-line ${line.side}`, `${t(`color.${line.side}`)}: ${line.text}`);
}

/** Takes every GAME object the board shows. */
export function gameChanged(game, you, token) {
  const first = table.game?.id !== game.id;
  if (first) noticesSeenGame(game.id);
  if (!first && table.game && game.version < table.game.version) return;
  if (takebackDeclined(table.game, game, you)) {
    table.declined = `${game.id}|${game.moves.length}`;
    showNotice(() => t('site.takeback_declined'));
  }
  // A rematch agreed while the game is open takes both players into it, on every page.
  if (!first && game.next_game && !table.game?.next_game && (you === 'white' || you === 'black')) {
    location.assign(`/g/${encodeURIComponent(game.next_game)}`);
    return;
  }
  table.game = game;
  table.received = Date.now();
  table.you = you;
  table.token = token;
  if (first) {
    table.lines = [];
    table.presence = null;
    if (game.opponent === 'friend') {
      api.chat(game.id).then((lines) => {
        if (table.game?.id === game.id) {
          table.lines = lines;
          renderTable();
        }
      }, () => {});
    }
  }
  drawClocks();
  renderTable();
}

/** Takes every message of the game's WebSocket other than the game itself. */
export function gameEvent(msg) {
  if (msg.type === 'presence') {
    table.presence = msg;
    table.presenceAt = Date.now();
    renderTable();
  } else if (msg.type === 'chat') {
    table.lines = [...(table.lines ?? []), msg].slice(-200);
    const list = $('chat-lines');
    if (list) list.append(chatLine(msg));
    else renderTable();
  }
}

/** Lists the games being played now in the new-game dialog, the home page's first view. */
async function listPlaying(dialog) {
  let box = dialog.querySelector('.home-playing');
  if (!box) {
    box = h('div', 'home-playing');
    dialog.querySelector('form')?.append(box);
  }
  let games = [];
  try {
    games = await api.playing();
  } catch {
    games = [];
  }
  box.replaceChildren();
  const head = h('p', 'fine');
  head.append(link('/lobby', t('site.lobby'), 'lobby-link'), ` · ${t('site.playing')}`);
  box.append(head);
  const list = h('ul', 'playing');
  if (!games.length) list.append(h('li', 'fine', t('site.playing_none')));
  for (const g of games.slice(0, 5)) {
    const li = h('li');
    const names = `${g.white ?? t('site.anonymous')} – ${g.black ?? t('site.anonymous')}`;
    const a = link(`/g/${encodeURIComponent(g.id)}`, names, 'game-link');
    a.addEventListener('click', () => dialog.close());
    li.append(a, h('span', 'terms', ` ${playingTerms(g)}`));
    list.append(li);
  }
  box.append(list);
}

/**
 * The rating a player's page gives for a variant and time class, or null.
 * @param {{ratings: {variant: string, class: string, rating: {rating: number}, provisional: boolean}[]}} player
 * @param {string} variant
 * @param {string | undefined} cls
 * @returns {{rating: number, provisional: boolean} | null}
 */
export function ratingFor(player, variant, cls) {
  const r = player.ratings.find((x) => x.variant === variant && x.class === cls);
  return r ? { rating: Math.round(r.rating.rating), provisional: r.provisional } : null;
}

/**
 * Each side's rating for a rated game being played, from the players' pages (the game's
 * view carries ratings only once it is over); a side without one is null. A new player with
 * no rated game of the class yet has the starting rating, provisional.
 * @param {{variant: string, clock: {class: string} | null, players: Record<'white' | 'black', {name: string | null}>}} g
 */
export async function playerRatings(g) {
  /** @param {'white' | 'black'} color */
  const one = async (color) => {
    const name = g.players?.[color]?.name;
    if (!name) return null;
    try {
      return ratingFor(await api.player(name), g.variant, g.clock?.class) ?? { rating: 1500, provisional: true };
    } catch {
      return null;
    }
  };
  const [white, black] = await Promise.all([one('white'), one('black')]);
  return { white, black };
}

/** Starts the site's parts: the session, the account button, the clocks' ticking. */
export async function initSite(options) {
  showError = options.showError ?? showError;
  showNotice = options.showNotice ?? showNotice;
  describe = options.describe ?? describe;
  try {
    table.chatOff = localStorage.getItem('morris.chat_off') === '1';
  } catch {
    table.chatOff = false;
  }
  const top = document.querySelector('header.topbar');
  const lobby = link('/lobby', t('site.lobby'), 'lobby-link');
  lobby.id = 'lobby-link';
  const games = link('/games', t('site.my_games'), 'lobby-link');
  games.id = 'games-link';
  const account = h('button', 'account', t('site.sign_in'));
  account.id = 'btn-account';
  account.type = 'button';
  account.addEventListener('click', openAccount);
  top?.insertBefore(lobby, $('btn-new'));
  top?.insertBefore(games, $('btn-new'));
  top?.insertBefore(account, $('btn-new'));
  newGameDialog = $('new-game');
  const newGame = newGameDialog;
  if (newGame) {
    new MutationObserver(() => {
      if (newGame.open) listPlaying(newGame);
    }).observe(newGame, { attributes: true, attributeFilter: ['open'] });
  }
  table.ticker = setInterval(() => {
    drawClocks();
    if (table.game?.status === 'playing') {
      const c = document.querySelector('#table-card .countdown');
      if (c) renderTable();
    }
  }, 200);
  try {
    await loadSession();
  } catch (err) {
    showError(() => describe(err));
  }
  startNotices({
    session: true,
    open: (path) => {
      if (location.pathname !== path) navigate(path);
    },
    showError: (err) => showError(() => describe(err)),
  });
}

let newGameDialog = null;

/** Sets the texts of the site's parts again in the language in use. */
export function retranslateSite() {
  renderAccount();
  // The account dialog, if open, is drawn again in the new words with what was typed kept.
  const account = $('account');
  if (account?.open) {
    const typed = [...account.querySelectorAll('input')].map((i) => [i.name, i.value]);
    const again = account.querySelector('input[name=again]')?.closest('label')?.hidden === false;
    openAccount();
    for (const [name, value] of typed) {
      const input = account.querySelector(`input[name="${name}"]`);
      if (input) input.value = value;
    }
    const row = account.querySelector('input[name=again]')?.closest('label');
    if (row && again) row.hidden = false;
  }
  if (newGameDialog?.open) listPlaying(newGameDialog);
  const lobby = $('lobby-link');
  if (lobby) lobby.textContent = t('site.lobby');
  const games = $('games-link');
  if (games) games.textContent = t('site.my_games');
  if (table.game) renderTable();
  // The lobby or a player's page is drawn again in the new words.
  if (page) siteRoute(location.pathname).catch((err) => showError(() => describe(err)));
}
