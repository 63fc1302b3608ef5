// Small board diagrams for the rules: a variant's lines and points with a few pieces, marks
// on points (a line of three) and crosses (a piece to be removed). Drawn as inline SVG.

const NS = 'http://www.w3.org/2000/svg';
const UNIT = 100;
const MARGIN = 50;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.append(e);
  return e;
}

/**
 * A diagram of `variant` (from `GET /api/variants`) with `pieces` {white: [points],
 * black: [points]}, `marked` points ringed and `crossed` points crossed out; `label` says
 * in words what it shows.
 */
export function diagram(variant, { white = [], black = [], marked = [], crossed = [] }, label) {
  const span = (variant.size - 1) * UNIT;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `${-MARGIN} ${-MARGIN} ${span + 2 * MARGIN} ${span + 2 * MARGIN}`);
  svg.setAttribute('class', 'diagram');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const at = (name) => ({
    x: (name.charCodeAt(0) - 97) * UNIT,
    y: (variant.size - Number(name.slice(1))) * UNIT,
  });
  el('rect', { class: 'diagram-wood', x: -MARGIN + 8, y: -MARGIN + 8, width: span + 2 * MARGIN - 16, height: span + 2 * MARGIN - 16, rx: 14 }, svg);
  const lines = el('g', { class: 'diagram-lines' }, svg);
  for (const [a, b] of variant.lines) {
    const p = at(a);
    const q = at(b);
    el('line', { x1: p.x, y1: p.y, x2: q.x, y2: q.y }, lines);
  }
  for (const name of variant.points) {
    const p = at(name);
    el('circle', { class: 'diagram-dot', cx: p.x, cy: p.y, r: 8 }, lines);
  }
  for (const name of marked) {
    const p = at(name);
    el('circle', { class: 'diagram-mark', cx: p.x, cy: p.y, r: 40 }, svg);
  }
  const radius = variant.size <= 3 ? 28 : 30;
  for (const [color, points] of [['white', white], ['black', black]]) {
    for (const name of points) {
      const p = at(name);
      el('circle', { class: `diagram-piece ${color}`, cx: p.x, cy: p.y, r: radius }, svg);
    }
  }
  for (const name of crossed) {
    const p = at(name);
    const s = 20;
    el('path', { class: 'diagram-cross', d: `M${p.x - s} ${p.y - s} L${p.x + s} ${p.y + s} M${p.x + s} ${p.y - s} L${p.x - s} ${p.y + s}` }, svg);
  }
  return svg;
}
