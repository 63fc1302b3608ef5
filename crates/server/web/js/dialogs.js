// The <dialog>s: new game, import, export and confirm; and the clipboard and download helpers.

import { t } from './i18n.js';
import { errorKey } from './errors.js';
import { api } from './api.js';
import { levelKey, clockWords } from './format.js';

const $ = (id) => document.getElementById(id);

/** Copies text to the clipboard; falls back to a hidden selection where the API is missing. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** Briefly swaps a button's label to confirm an action ("Copied"). */
export function flash(button, text) {
  const old = button.dataset.label ?? button.textContent;
  button.dataset.label = old;
  button.textContent = text;
  clearTimeout(button.flashTimer);
  button.flashTimer = setTimeout(() => {
    button.textContent = old;
  }, 1500);
}

/** Saves text as a file through a temporary object URL. */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Shows the rows of a game form that apply to the chosen opponent. */
function syncOpponent(form) {
  const opponent = form.elements.opponent.value;
  form.querySelector('.row-level').hidden = opponent !== 'computer';
  form.querySelector('.row-color').hidden = opponent === 'local';
  // A game with a friend online may have a clock (the lobby's games always may).
  const clock = form.querySelector('.row-clock');
  if (clock) clock.hidden = opponent !== 'friend';
  for (const o of form.querySelectorAll('option[data-clock-days]')) o.textContent = clockWords(o.value);
  const out = form.querySelector('output');
  if (out) out.textContent = form.elements.level.value;
  const note = form.querySelector('.level-note');
  if (note) {
    const level = Number(form.elements.level.value);
    const rating = ratings.get(level);
    note.hidden = opponent !== 'computer' || rating === undefined;
    note.textContent = rating === undefined ? '' : t(levelKey(level), { rating });
  }
}

/** The estimated rating of each level, as the server gives them. */
const ratings = new Map();
api
  .levels()
  .then((levels) => {
    for (const l of levels) ratings.set(l.level, l.rating);
    for (const form of document.querySelectorAll('dialog form')) {
      if (form.elements.level) syncOpponent(form);
    }
  })
  .catch(() => {
    /* without the ratings the slider still works; the note stays hidden */
  });

/**
 * What the dialog says of a refusal: a translated sentence; for a record the server could not
 * read (a 400), its own words too, which say where and why ("line 1, column 7: ply 2: …").
 * @param {{status?: number, message?: string} | undefined} err
 * @param {boolean} record whether the request carried a record to import
 */
export function refusalWords(err, record) {
  const status = typeof err?.status === 'number' ? err.status : -1;
  if (record && status === 400 && err?.message) return t('error.bad_record_detail', { detail: err.message });
  return t(errorKey(status, err?.message));
}

/**
 * Wires a game form (new game or import): `create(options)` does the request; its error
 * message is shown inside the dialog, which stays open so the user can fix the choice.
 */
function wireForm(dialog, build, create) {
  const form = dialog.querySelector('form');
  const error = dialog.querySelector('.dialog-error');
  const submit = form.querySelector('[type=submit]');
  form.addEventListener('input', () => syncOpponent(form));
  form.addEventListener('change', () => syncOpponent(form));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = build(form);
    if (!options) return;
    error.hidden = true;
    submit.disabled = true;
    try {
      await create(options);
      dialog.close();
    } catch (err) {
      const words = () => refusalWords(err, Boolean(options.record));
      error.textContent = words();
      error.words = words;
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
  dialog.querySelector('.cancel').addEventListener('click', () => dialog.close());
  syncOpponent(form);
}

/** The choices common to both forms, as the body of `POST /api/games`. */
function common(form) {
  const f = form.elements;
  const opponent = f.opponent.value;
  const options = { opponent, color: opponent === 'local' ? 'white' : f.color.value };
  if (opponent === 'computer') options.level = Number(f.level.value);
  const name = f.name?.value.trim();
  if (name) options.name = name.slice(0, 40);
  if (opponent === 'friend' && f.clock && f.clock.value !== 'none') options.clock = f.clock.value;
  return options;
}

/**
 * The server's words for why the one game of an imported text cannot be read, or null: a
 * text of several games lists those that can be taken.
 * @param {{error: ?string}[]} games
 */
export function importProblem(games) {
  if (games.length === 1 && games[0].error) return games[0].error;
  if (games.length > 1 && games.every((g) => g.error)) return games[0].error;
  return null;
}

export class Dialogs {
  /** `create(options)` posts a new game and opens it; it throws an ApiError on refusal. */
  constructor(create) {
    this.newGame = $('new-game');
    this.importer = $('import');
    this.exporter = $('export');
    this.confirmer = $('confirm');
    wireForm(this.newGame, (form) => ({ variant: form.elements.variant.value, ...common(form) }), create);
    wireForm(this.importer, (form) => {
      const record = form.elements.record.value.trim();
      if (!record) {
        form.elements.record.focus();
        return null;
      }
      // The record names its variant in a [Variant "…"] tag; Nine Men's Morris otherwise.
      const tag = /\[\s*Variant\s+"([^"]*)"\s*\]/i.exec(record);
      const chosen = $('import-game-row').hidden ? undefined : Number(form.elements.game.value);
      return { variant: tag ? tag[1].trim().toLowerCase() : 'nine', record, game: chosen, ...common(form) };
    }, create);
    // A text with several games: list them, so that one can be chosen. A new text clears
    // the words said about the one before; a text that cannot be read is told why at once.
    let listing = 0;
    const importError = this.importer.querySelector('.dialog-error');
    $('import-text').addEventListener('input', () => {
      const mine = ++listing;
      importError.hidden = true;
      importError.words = null;
      setTimeout(async () => {
        if (mine !== listing) return;
        const text = $('import-text').value.trim();
        let games = [];
        /** @type {(() => string) | null} */
        let words = null;
        try {
          const tag = /\[\s*Variant\s+"([^"]*)"\s*\]/i.exec(text);
          const variant = tag ? tag[1].trim().toLowerCase() : 'nine';
          games = text ? await api.importList(text, variant) : [];
        } catch (err) {
          games = [];
          if (err?.status >= 400 && err?.status < 500) words = () => refusalWords(err, true);
        }
        if (mine !== listing) return;
        this.showGames(games);
        const bad = importProblem(games);
        if (bad) words = () => t('error.bad_record_detail', { detail: bad });
        if (words) {
          importError.textContent = words();
          importError.words = words;
          importError.hidden = false;
        }
      }, 400);
    });

    $('export-format').addEventListener('change', async () => {
      if (!this.refetch) return;
      try {
        $('record-text').value = await this.refetch($('export-format').value);
      } catch (err) {
        $('record-text').value = t(errorKey(typeof err?.status === 'number' ? err.status : -1, err?.message));
      }
    });
    $('export-close').addEventListener('click', () => this.exporter.close());
    $('export-copy').addEventListener('click', async (e) => {
      flash(e.currentTarget, (await copyText($('record-text').value)) ? t('copy.done') : t('copy.failed'));
    });
    $('export-download').addEventListener('click', () => download(this.exportName, $('record-text').value));
    // Clicking the backdrop of a modal closes it, as users expect.
    for (const d of document.querySelectorAll('dialog')) {
      d.addEventListener('click', (e) => {
        if (e.target === d) d.close('cancel');
      });
    }
  }

  /** Sets the texts the dialogs made by script again, in the language in use. */
  retranslate() {
    for (const form of document.querySelectorAll('dialog form')) {
      if (form.elements.level) syncOpponent(form);
    }
    if (this.games) this.showGames(this.games);
    for (const error of document.querySelectorAll('dialog .dialog-error')) {
      if (!error.hidden && typeof error.words === 'function') error.textContent = error.words();
    }
  }

  /** Fills the variant choice from `GET /api/variants`. */
  setVariants(variants) {
    const select = this.newGame.querySelector('[name=variant]');
    const keep = select.value;
    select.replaceChildren();
    for (const v of variants) {
      const o = document.createElement('option');
      o.value = v.name;
      o.textContent = t(`variant.${v.name}`);
      select.append(o);
    }
    if (keep && variants.some((v) => v.name === keep)) select.value = keep;
  }

  openNewGame(variant) {
    const form = this.newGame.querySelector('form');
    if (variant) form.elements.variant.value = variant;
    this.newGame.querySelector('.dialog-error').hidden = true;
    syncOpponent(form);
    if (!this.newGame.open) this.newGame.showModal();
  }

  openImport() {
    this.importer.querySelector('.dialog-error').hidden = true;
    if (!this.importer.open) this.importer.showModal();
    this.importer.querySelector('textarea').focus();
  }

  /**
   * Shows the games of an imported text when it holds more than one, each as a choice.
   * @param {Array<{game: number, white: ?string, black: ?string, result: ?string, plies: number, error: ?string}>} games
   */
  showGames(games) {
    this.games = games;
    const select = $('import-game');
    const several = games.length > 1;
    $('import-game-row').hidden = !several;
    $('import-games-note').hidden = !several;
    select.replaceChildren();
    if (!several) return;
    $('import-games-note').textContent = t('import.games_found', { count: games.length });
    for (const g of games) {
      const option = document.createElement('option');
      option.value = String(g.game);
      const who = [g.white, g.black].filter(Boolean).join(' – ');
      option.textContent = `${g.game}. ${who || '…'}${g.result ? ` (${g.result})` : ''}`;
      option.disabled = Boolean(g.error);
      select.append(option);
    }
  }

  openExport(id, record, refetch) {
    this.exportName = `morris-${id}.txt`;
    this.refetch = refetch;
    $('export-format').value = 'morris';
    $('record-text').value = record;
    if (!this.exporter.open) this.exporter.showModal();
    $('record-text').scrollTop = 0;
  }

  /** Asks a yes/no question in the page's own dialog; resolves to true for yes. */
  confirm(text, yes) {
    const d = this.confirmer;
    $('confirm-text').textContent = text;
    $('confirm-yes').textContent = yes;
    return new Promise((resolve) => {
      const done = () => {
        d.removeEventListener('close', done);
        resolve(d.returnValue === 'yes');
      };
      d.returnValue = '';
      d.addEventListener('close', done);
      d.showModal();
      $('confirm-no').focus();
    });
  }
}
