// The board editor: any position of any variant set up by clicking, checked by the server's
// rules core with its problems named in words, then played, analysed or copied.

import { api, tokens } from './api.js';
import { Board } from './board.js';
import { copyText, flash } from './dialogs.js';
import { errorKey } from './errors.js';
import { t } from './i18n.js';
import { positionString, readSetup, paint } from './setup.js';
import { startShell, untilReached } from './shell.js';
import { startNotices } from './notify.js';
import { loadSettings, resolveTheme, SPEED_FACTOR } from './settings.js';

const $ = (id) => document.getElementById(id);
const cap = (color) => t(`color.${color}`);

const state = {
  variants: new Map(),
  variant: null,
  setup: { board: {}, turn: 'white', hand: { white: 0, black: 0 } },
  brush: 'white',
  check: null, // the answer of POST /api/positions/check for `checked`
  checked: '', // the position string checked
  asked: 0, // the number of the last check asked for: older answers are dropped
  errorText: null,
};

let board;

const fen = () => positionString(state.variant.points, state.setup);

/** A problem of the check in a player's words. */
function problemWords(p) {
  // A count of pieces in the check's words, or else the variant's pieces, picks the plural form.
  const count = p.problem === 'too_many_pieces' ? state.variant.pieces : p.count ?? '';
  const params = { color: p.side ? cap(p.side) : '', count, pieces: state.variant.pieces };
  const known = ['unreadable', 'rules', 'off_board', 'too_many_in_hand', 'too_many_pieces', 'overlap',
    'hands_do_not_alternate', 'counter_in_placing', 'both_below_three', 'line_of_side_to_move',
    'move_number_zero', 'removal'];
  return t(known.includes(p.problem) ? `problem.${p.problem}` : 'problem.other', params);
}

function render() {
  const v = state.variant;
  if (!v) return;
  board.setVariant(v);
  board.render({
    board: state.setup.board, classes: new Map(), labels: new Map(), last: null, hint: null,
    draggable: new Set(), interactive: true, anim: null,
  });
  $('editor-variant').value = v.name;
  $('editor-turn').value = state.setup.turn;
  for (const c of ['white', 'black']) {
    const input = $(`hand-${c}`);
    input.max = String(v.pieces);
    if (document.activeElement !== input) input.value = String(state.setup.hand[c]);
  }
  for (const b of document.querySelectorAll('.brush')) b.setAttribute('aria-pressed', String(b.dataset.brush === state.brush));
  const text = fen();
  if (document.activeElement !== $('editor-fen')) $('editor-fen').value = text;

  const c = state.checked === text ? state.check : null;
  const verdict = $('editor-verdict');
  const list = $('editor-problems');
  list.replaceChildren();
  if (state.errorText) verdict.textContent = state.errorText;
  else if (!c) verdict.textContent = t('editor.checking');
  else if (!c.valid) verdict.textContent = t('editor.invalid');
  else if (c.over) {
    const who = c.over.winner ? t('editor.over_win', { color: cap(c.over.winner) }) : t('editor.over_draw');
    verdict.textContent = `${t('editor.over')} ${who}`;
  } else verdict.textContent = t('editor.valid', { color: cap(c.turn), count: c.legal });
  verdict.dataset.valid = c ? String(c.valid && !c.over) : '';
  for (const p of c?.problems ?? []) {
    const li = document.createElement('li');
    li.textContent = problemWords(p);
    li.dataset.problem = p.problem;
    list.append(li);
  }
  const playable = Boolean(c && c.valid && !c.over);
  for (const id of ['editor-computer', 'editor-friend', 'editor-local', 'editor-analyse']) $(id).disabled = !playable;
  $('editor-copy').disabled = !(c && c.valid);
  const url = new URL(location.href);
  url.searchParams.set('variant', v.name);
  url.searchParams.set('position', text);
  history.replaceState(null, '', url);
}

/** Asks the server about the position now; the answer is drawn if nothing changed since. */
async function check() {
  const text = fen();
  const variant = state.variant.name;
  const ask = ++state.asked;
  render();
  try {
    const answer = await api.checkPosition(variant, text);
    if (ask !== state.asked) return;
    state.check = answer;
    state.checked = text;
    state.errorText = null;
  } catch (err) {
    if (ask !== state.asked) return;
    state.errorText = t(errorKey(typeof err?.status === 'number' ? err.status : -1, err?.message));
  }
  render();
}

function change(setup) {
  state.setup = setup;
  check();
}

function setVariant(name) {
  const v = state.variants.get(name);
  if (!v) return;
  state.variant = v;
  // Points the new board lacks go; pieces on points it has stay.
  const board = {};
  for (const p of v.points) if (state.setup.board[p]) board[p] = state.setup.board[p];
  const hand = { white: Math.min(state.setup.hand.white, v.pieces), black: Math.min(state.setup.hand.black, v.pieces) };
  change({ ...state.setup, board, hand });
}

async function use(opponent, analysis = false) {
  const body = { variant: state.variant.name, opponent, position: state.check.position };
  if (opponent === 'computer') {
    body.level = Number($('editor-level').value);
    body.color = state.check.turn;
  }
  try {
    const res = await api.create(body);
    tokens.set(res.id, res.token);
    tokens.setInvite(res.id, res.invite || null);
    tokens.setLast(res.id);
    location.href = `/g/${encodeURIComponent(res.id)}${analysis ? '?analysis=1' : ''}`;
  } catch (err) {
    shownError = err;
    $('error-text').textContent = errorWords(err);
    $('error').hidden = false;
  }
}

/** The error in the banner, said again in the new words when the language changes. */
let shownError = null;
const errorWords = (err) => t(errorKey(typeof err?.status === 'number' ? err.status : -1, err?.message));

async function main() {
  await startShell(() => {
    fillVariants();
    if (shownError) $('error-text').textContent = errorWords(shownError);
    render();
  });
  startNotices();
  const settings = loadSettings();
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(settings.theme, window.matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.coords = settings.coords ? 'on' : 'off';
  board = new Board($('board'), {
    onActivate(point) {
      change(paint(state.setup, point, state.brush));
    },
    onCancel() {},
    onDragStart() {},
    onDrop() {},
  });
  board.setView(settings.flip, SPEED_FACTOR[settings.speed]);
  const variants = await untilReached(() => api.variants(), () => {
    $('editor-verdict').textContent = t('conn.offline');
  });
  for (const v of variants) state.variants.set(v.name, v);
  fillVariants();
  for (let i = 1; i <= 10; i++) $('editor-level').append(new Option(String(i), String(i), i === 3, i === 3));

  const params = new URLSearchParams(location.search);
  state.variant = state.variants.get(params.get('variant') ?? '') ?? state.variants.get('nine') ?? variants[0];
  const given = params.get('position');
  const read = given ? readSetup(state.variant.points, given) : null;
  if (read) state.setup = read;

  for (const b of document.querySelectorAll('.brush')) {
    b.addEventListener('click', () => {
      state.brush = b.dataset.brush;
      render();
    });
  }
  $('editor-variant').addEventListener('change', (e) => setVariant(e.target.value));
  $('editor-turn').addEventListener('change', (e) => change({ ...state.setup, turn: e.target.value }));
  for (const c of ['white', 'black']) {
    $(`hand-${c}`).addEventListener('input', (e) => {
      const n = Math.max(0, Math.min(state.variant.pieces, Math.floor(Number(e.target.value) || 0)));
      change({ ...state.setup, hand: { ...state.setup.hand, [c]: n } });
    });
  }
  $('editor-clear').addEventListener('click', () => change({ board: {}, turn: 'white', hand: { white: 0, black: 0 } }));
  $('editor-start').addEventListener('click', () => {
    const n = state.variant.pieces;
    change({ board: {}, turn: 'white', hand: { white: n, black: n } });
  });
  $('editor-fen').addEventListener('change', (e) => {
    const read = readSetup(state.variant.points, e.target.value);
    if (read) change(read);
    else {
      state.check = { valid: false, problems: [{ problem: 'unreadable' }] };
      state.checked = fen();
      render();
    }
  });
  $('editor-copy').addEventListener('click', async (e) => {
    const b = e.currentTarget;
    flash(b, (await copyText(state.check.position)) ? t('copy.done') : t('copy.failed'));
  });
  $('editor-computer').addEventListener('click', () => use('computer'));
  $('editor-friend').addEventListener('click', () => use('friend'));
  $('editor-local').addEventListener('click', () => use('local'));
  $('editor-analyse').addEventListener('click', () => use('local', true));
  document.title = `${t('editor.title')} · Morris`;
  check();
}

function fillVariants() {
  const select = $('editor-variant');
  const chosen = select.value;
  select.replaceChildren();
  for (const v of state.variants.values()) select.append(new Option(t(`variant.${v.name}`), v.name));
  if (chosen) select.value = chosen;
}

main();
