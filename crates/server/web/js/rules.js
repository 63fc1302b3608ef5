// The rules pages: each variant's rules in the page's own words, with small diagrams.

import { api } from './api.js';
import { t } from './i18n.js';
import { diagram } from './diagram.js';
import { startShell, untilReached } from './shell.js';
import { startNotices } from './notify.js';
import { loadSettings, resolveTheme } from './settings.js';

const $ = (id) => document.getElementById(id);

const state = { variants: [], chosen: 'nine' };

/** The paragraphs of a variant's rules, as [heading key, [text keys]] with the diagrams. */
function sections(v) {
  const n = v.name;
  const three = n === 'three';
  const diagonals = n === 'twelve' || n === 'morabaraba';
  const moving = ['rules.moving'];
  if (three) moving.push('rules.three_moving');
  else if (n === 'six') moving.push('rules.no_flying');
  else if (n === 'lasker') moving.push('rules.flying_lasker');
  else moving.push('rules.flying');
  const mills = three ? ['rules.three_line'] : ['rules.mills', 'rules.mill_guard'];
  if (diagonals) mills.push('rules.diagonals');
  const end = three ? ['rules.three_end'] : ['rules.end', 'rules.draws'];
  if (diagonals) end.push('rules.full_board');
  return [
    ['rules.h_board', [`rules.board.${n}`], 'board'],
    ['rules.h_placing', [n === 'lasker' ? 'rules.lasker_turn' : 'rules.placing'], null],
    ['rules.h_moving', moving, null],
    ['rules.h_mills', mills, 'mill'],
    ['rules.h_end', end, null],
  ];
}

/** The example of a mill: White's first mill, and (where mills remove) a black piece crossed. */
function millDiagram(v) {
  const mill = v.mills[0];
  const spare = v.points.filter((p) => !mill.includes(p));
  if (v.name === 'three') {
    return diagram(v, { white: mill, black: spare.slice(0, 2), marked: mill }, t('rules.diagram_line'));
  }
  const black = [spare[spare.length - 1], spare[spare.length - 4]];
  return diagram(v, { white: mill, black, marked: mill, crossed: [black[0]] }, t('rules.diagram_mill'));
}

function render() {
  const list = $('rules-variants');
  list.replaceChildren();
  for (const v of state.variants) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/rules.html?variant=${v.name}`;
    a.textContent = t(`variant.${v.name}`);
    if (v.name === state.chosen) a.setAttribute('aria-current', 'page');
    a.addEventListener('click', (e) => {
      e.preventDefault();
      state.chosen = v.name;
      history.replaceState(null, '', a.href);
      render();
    });
    li.append(a);
    list.append(li);
  }
  const v = state.variants.find((x) => x.name === state.chosen) ?? state.variants[0];
  const article = $('rules-text');
  article.replaceChildren();
  if (!v) return;
  const h2 = document.createElement('h2');
  h2.textContent = t(`variant.${v.name}`);
  const about = document.createElement('p');
  about.textContent = t(`rules.about.${v.name}`);
  article.append(h2, about);
  for (const [head, texts, picture] of sections(v)) {
    const section = document.createElement('section');
    const h3 = document.createElement('h3');
    h3.textContent = t(head);
    section.append(h3);
    if (picture === 'board') section.append(diagram(v, {}, t('rules.diagram_board', { count: v.points.length })));
    if (picture === 'mill') section.append(millDiagram(v));
    for (const key of texts) {
      const p = document.createElement('p');
      p.textContent = t(key, { count: v.pieces });
      section.append(p);
    }
    article.append(section);
  }
  const play = document.createElement('a');
  play.className = 'button primary';
  play.href = `/?variant=${v.name}`;
  play.textContent = t('rules.play');
  article.append(play);
  document.title = `${t('rules.title')} · ${t(`variant.${v.name}`)} · Morris`;
}

async function main() {
  await startShell(render);
  startNotices();
  const settings = loadSettings();
  document.documentElement.dataset.theme = resolveTheme(settings.theme, window.matchMedia('(prefers-color-scheme: dark)').matches);
  state.chosen = new URLSearchParams(location.search).get('variant') ?? 'nine';
  state.variants = await untilReached(() => api.variants(), () => {
    $('rules-text').textContent = t('conn.offline');
  });
  render();
}

main();
