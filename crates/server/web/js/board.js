// The SVG board: lines and points from the variant's data, pieces, marks of the last ply,
// the hint and the analysis, animations, and input (click, tap, drag, keyboard).
//
// Layers, bottom to top: wood, lines and dots, labels, marks of the last ply, pieces,
// effects (removed pieces fading out), marks of the hint, points (transparent hit areas
// carrying what the tests read: data-point and the classes piece-white/black, target,
// movable, removable, selected, last), and the piece being dragged.

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const UNIT = 100; // user units between neighbouring grid lines
const MARGIN = 92;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

/** Creates an SVG element with attributes, appended to `parent` if given. */
function svgEl(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const ARROWS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export class Board {
  /**
   * `handlers`: onActivate(point) for a click, tap, Enter or Space on a point; onCancel() for
   * a click beside the points; onDragStart(point) and onDrop(from, to | null) for drags.
   */
  constructor(svg, handlers) {
    this.svg = svg;
    this.h = handlers;
    this.points = new Map(); // name -> {x, y, g}
    this.pieces = new Map(); // name -> {g, color}
    this.draggable = new Set();
    this.focusName = null;
    this.marksKey = { last: '', hint: '' };
    this.suppressClickUntil = 0;
    this.drag = null;
    this.flipped = false;
    this.speed = 1; // a factor of every animation's length; 0: none
    svg.addEventListener('click', (e) => this.onClick(e));
    svg.addEventListener('keydown', (e) => this.onKey(e));
    svg.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    svg.addEventListener('focusin', (e) => {
      const g = e.target.closest?.('[data-point]');
      if (g) this.setRoving(g.dataset.point);
    });
    this.onMove = (e) => this.onPointerMove(e);
    this.onUp = (e) => this.onPointerUp(e);
  }

  /**
   * How the board is drawn: `flipped` turns it round (Black at the bottom), `speed` scales
   * the animations (0 turns them off). A change of side redraws the board.
   */
  setView(flipped, speed) {
    this.speed = speed;
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    const variant = this.variant;
    this.variant = null;
    if (variant) this.setVariant(variant);
  }

  /** Whether pieces move, and how long `ms` of a normal animation lasts now. */
  moving(ms) {
    return reducedMotion.matches || !Element.prototype.animate || this.speed === 0 ? 0 : ms * this.speed;
  }

  /** Draws the empty board of a variant from `GET /api/variants` data. */
  setVariant(variant) {
    if (this.variant && this.variant.name === variant.name) return;
    this.variant = variant;
    const svg = this.svg;
    svg.replaceChildren();
    this.points.clear();
    this.pieces.clear();
    this.marksKey = { last: '', hint: '' };
    const span = (variant.size - 1) * UNIT;
    svg.setAttribute('viewBox', `${-MARGIN} ${-MARGIN} ${span + 2 * MARGIN} ${span + 2 * MARGIN}`);
    svg.dataset.variant = variant.name;
    // Piece size follows the smallest distance between points (three's grid is coarse).
    this.radius = variant.size <= 3 ? 30 : 36;
    this.defs(svg);

    const at = (name) => {
      const x = (name.charCodeAt(0) - 97) * UNIT;
      const y = (variant.size - Number(name.slice(1))) * UNIT;
      return this.flipped ? { x: span - x, y: span - y } : { x, y };
    };
    const pad = MARGIN - 18;
    svgEl('rect', { class: 'wood', x: -pad, y: -pad, width: span + 2 * pad, height: span + 2 * pad, rx: 18 }, svg);
    svgEl('rect', { class: 'grain', x: -pad, y: -pad, width: span + 2 * pad, height: span + 2 * pad, rx: 18, filter: 'url(#grain)' }, svg);
    svgEl('rect', { class: 'edge', x: -pad, y: -pad, width: span + 2 * pad, height: span + 2 * pad, rx: 18 }, svg);

    const lines = svgEl('g', { class: 'lines' }, svg);
    for (const [a, b] of variant.lines) {
      const p = at(a);
      const q = at(b);
      svgEl('line', { x1: p.x, y1: p.y, x2: q.x, y2: q.y }, lines);
    }
    for (const name of variant.points) {
      const p = at(name);
      svgEl('circle', { class: 'dot', cx: p.x, cy: p.y, r: 9 }, lines);
    }

    // Coordinates on the margin, only for files and ranks that hold points.
    const labels = svgEl('g', { class: 'labels', 'aria-hidden': 'true' }, svg);
    const files = new Set(variant.points.map((n) => n[0]));
    const ranks = new Set(variant.points.map((n) => n.slice(1)));
    for (const f of files) {
      const label = svgEl('text', { x: at(`${f}1`).x, y: span + MARGIN - 30 }, labels);
      label.textContent = f;
    }
    for (const r of ranks) {
      const label = svgEl('text', { x: -MARGIN + 30, y: at(`a${r}`).y + 1 }, labels);
      label.textContent = r;
    }

    this.lastLayer = svgEl('g', { class: 'marks' }, svg);
    this.pieceLayer = svgEl('g', { class: 'pieces' }, svg);
    this.effectLayer = svgEl('g', { class: 'effects' }, svg);
    this.hintLayer = svgEl('g', { class: 'marks hint-marks' }, svg);
    this.pointLayer = svgEl('g', { class: 'points' }, svg);
    this.dragLayer = svgEl('g', { class: 'drag' }, svg);

    const r = this.radius;
    for (const name of variant.points) {
      const p = at(name);
      const g = svgEl('g', {
        class: 'point',
        'data-point': name,
        role: 'button',
        tabindex: '-1',
        transform: `translate(${p.x} ${p.y})`,
      }, this.pointLayer);
      svgEl('circle', { class: 'hit', r: UNIT * 0.48 }, g);
      svgEl('circle', { class: 'grade', r: r + 9 }, g);
      svgEl('circle', { class: 'ring', r: r + 5 }, g);
      svgEl('circle', { class: 'mark', r: 17 }, g);
      svgEl('circle', { class: 'focus', r: r + 14 }, g);
      this.points.set(name, { ...p, g });
    }
    this.setRoving(variant.points[0]);
  }

  /** Gradients, shadow and the wood grain, referenced by CSS and attributes. */
  defs(svg) {
    const defs = svgEl('defs', {}, svg);
    const radial = (id, stops) => {
      const g = svgEl('radialGradient', { id, cx: '50%', cy: '50%', r: '50%', fx: '36%', fy: '30%' }, defs);
      stops.forEach(([offset, cls]) => svgEl('stop', { offset, class: cls }, g));
    };
    radial('piece-white', [['0', 'pw0'], ['0.55', 'pw1'], ['1', 'pw2']]);
    radial('piece-black', [['0', 'pb0'], ['0.55', 'pb1'], ['1', 'pb2']]);
    const shadow = svgEl('filter', { id: 'shadow', x: '-30%', y: '-30%', width: '160%', height: '170%' }, defs);
    svgEl('feDropShadow', { dx: 0, dy: 4, stdDeviation: 3.5, 'flood-color': '#000', 'flood-opacity': 0.38 }, shadow);
    const lift = svgEl('filter', { id: 'lift', x: '-50%', y: '-50%', width: '200%', height: '220%' }, defs);
    svgEl('feDropShadow', { dx: 0, dy: 12, stdDeviation: 7, 'flood-color': '#000', 'flood-opacity': 0.35 }, lift);
    // Wood grain: stretched fractal noise turned into translucent brown streaks.
    const grain = svgEl('filter', { id: 'grain', x: 0, y: 0, width: '100%', height: '100%' }, defs);
    svgEl('feTurbulence', { type: 'fractalNoise', baseFrequency: '0.004 0.06', numOctaves: 3, seed: 11 }, grain);
    svgEl('feColorMatrix', { type: 'matrix', values: '0 0 0 0 0.32  0 0 0 0 0.18  0 0 0 0 0.06  2.2 0 0 0 -0.95' }, grain);
    svgEl('feComposite', { in2: 'SourceGraphic', operator: 'in' }, grain);
    const arrow = svgEl('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' }, defs);
    svgEl('path', { d: 'M0 0 L10 5 L0 10 z', class: 'arrowhead' }, arrow);
  }

  /**
   * Draws a state. `view`: {board: {point: color}, classes: Map point -> [class],
   * labels: Map point -> extra words, last, hint: {from, to, removes} | null,
   * draggable: Set, interactive: bool, anim: {from, to, removes, color} | null}.
   */
  render(view) {
    const removedColors = new Map();
    if (view.anim) {
      for (const r of view.anim.removes) removedColors.set(r, this.pieces.get(r)?.color);
    }
    this.renderPieces(view.board);
    this.draggable = view.draggable || new Set();
    this.svg.classList.toggle('interactive', Boolean(view.interactive));
    for (const [name, p] of this.points) {
      const color = view.board[name];
      const classes = view.classes.get(name) || [];
      const g = p.g;
      g.setAttribute('class', ['point', color ? `piece-${color}` : 'empty', ...classes].join(' '));
      const extra = view.labels?.get(name);
      const words = [name, t(color ? `point.${color}` : 'point.empty')];
      if (extra) words.push(extra);
      g.setAttribute('aria-label', words.join(', '));
    }
    this.renderMarks('last', this.lastLayer, view.last, true);
    this.renderMarks('hint', this.hintLayer, view.hint, false);
    if (view.anim) this.animate(view.anim, removedColors);
  }

  /** Adds, removes and recolours pieces so that unchanged pieces keep their elements. */
  renderPieces(board) {
    for (const [name, piece] of this.pieces) {
      if (board[name] !== piece.color) {
        piece.g.remove();
        this.pieces.delete(name);
      }
    }
    for (const name of this.points.keys()) {
      const color = board[name];
      if (color && !this.pieces.has(name)) this.pieces.set(name, { g: this.pieceEl(name, color), color });
    }
  }

  pieceEl(name, color, parent = this.pieceLayer) {
    const p = this.points.get(name);
    const r = this.radius;
    const g = svgEl('g', { class: `piece ${color}`, transform: `translate(${p.x} ${p.y})` }, parent);
    svgEl('circle', { class: 'body', r }, g);
    svgEl('circle', { class: 'groove', r: r * 0.64 }, g);
    svgEl('circle', { class: 'gloss', r: r * 0.28, cx: -r * 0.3, cy: -r * 0.36 }, g);
    return g;
  }

  /** The marks of a ply (the last one, or the hint): from and to rings, a path, removals. */
  renderMarks(kind, layer, ply, fadeRemovals) {
    const key = ply ? `${ply.from}|${ply.to}|${ply.removes.join(',')}|${ply.key ?? ''}` : '';
    if (this.marksKey[kind] === key) return;
    this.marksKey[kind] = key;
    layer.replaceChildren();
    if (!ply) return;
    const r = this.radius;
    const to = this.points.get(ply.to);
    const from = ply.from && this.points.get(ply.from);
    if (!to) return;
    if (from) {
      svgEl('circle', { class: `${kind}-from`, cx: from.x, cy: from.y, r: r + 4 }, layer);
      // The path stops short of both pieces.
      const dx = to.x - from.x;
      const dy = to.y - from.y;
      const len = Math.hypot(dx, dy);
      const cut = (r + 8) / len;
      svgEl('line', {
        class: `${kind}-path`,
        x1: from.x + dx * cut, y1: from.y + dy * cut,
        x2: to.x - dx * cut, y2: to.y - dy * cut,
        'marker-end': kind === 'hint' ? 'url(#arrow)' : '',
      }, layer);
    }
    svgEl('circle', { class: `${kind}-to`, cx: to.x, cy: to.y, r: kind === 'hint' ? r + 15 : r + 8 }, layer);
    for (const name of ply.removes) {
      const p = this.points.get(name);
      if (!p) continue;
      const g = svgEl('g', { class: `${kind}-removed${fadeRemovals ? ' fade' : ''}`, transform: `translate(${p.x} ${p.y})` }, layer);
      const s = r * 0.45;
      svgEl('circle', { r: r * 0.9 }, g);
      svgEl('path', { d: `M${-s} ${-s} L${s} ${s} M${s} ${-s} L${-s} ${s}` }, g);
    }
  }

  /** Slides or drops the piece of a ply and fades out the pieces it removed. */
  animate(anim, removedColors) {
    if (!this.moving(1)) return;
    const to = this.points.get(anim.to);
    const piece = this.pieces.get(anim.to);
    if (to && piece) {
      const end = `translate(${to.x}px, ${to.y}px)`;
      if (anim.from) {
        const from = this.points.get(anim.from);
        piece.g.animate(
          [{ transform: `translate(${from.x}px, ${from.y}px)` }, { transform: end }],
          { duration: this.moving(220), easing: 'cubic-bezier(.3,.7,.3,1)' },
        );
      } else {
        piece.g.animate(
          [{ transform: `${end} scale(1.3)`, opacity: 0 }, { transform: end, opacity: 1 }],
          { duration: this.moving(200), easing: 'ease-out' },
        );
      }
    }
    for (const name of anim.removes) {
      const color = removedColors.get(name);
      if (!color) continue;
      const ghost = this.pieceEl(name, color, this.effectLayer);
      const p = this.points.get(name);
      const at = `translate(${p.x}px, ${p.y}px)`;
      const a = ghost.animate(
        [{ transform: `${at} scale(1)`, opacity: 1 }, { transform: `${at} scale(0.55)`, opacity: 0 }],
        { duration: this.moving(320), delay: anim.to ? this.moving(160) : 0, easing: 'ease-in', fill: 'forwards' },
      );
      a.onfinish = () => ghost.remove();
    }
  }

  // ----- input -----

  onClick(e) {
    if (performance.now() < this.suppressClickUntil) return;
    const g = e.target.closest('[data-point]');
    if (g) this.h.onActivate(g.dataset.point);
    else this.h.onCancel();
  }

  onKey(e) {
    const g = e.target.closest?.('[data-point]');
    if (!g) return;
    const name = g.dataset.point;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.h.onActivate(name);
    } else if (ARROWS[e.key]) {
      e.preventDefault();
      const next = this.neighbour(name, ...ARROWS[e.key]);
      if (next) this.focus(next);
    }
  }

  /** The point nearest to `name` in direction (dx, dy), favouring points on the same line. */
  neighbour(name, dx, dy) {
    const a = this.points.get(name);
    let best = null;
    let bestScore = Infinity;
    for (const [n, p] of this.points) {
      const vx = p.x - a.x;
      const vy = p.y - a.y;
      const along = vx * dx + vy * dy;
      if (n === name || along <= 0) continue;
      const score = along + 2.5 * Math.abs(vx * dy - vy * dx);
      if (score < bestScore) [best, bestScore] = [n, score];
    }
    return best;
  }

  /** One point is in the tab order at a time; the arrows move between points. */
  setRoving(name) {
    if (this.focusName === name) return;
    const old = this.points.get(this.focusName);
    if (old) old.g.setAttribute('tabindex', '-1');
    this.focusName = name;
    this.points.get(name)?.g.setAttribute('tabindex', '0');
  }

  focus(name) {
    this.setRoving(name);
    this.points.get(name)?.g.focus();
  }

  toSvg(e) {
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
  }

  nearest(p, within) {
    let best = null;
    let dist = within;
    for (const [n, q] of this.points) {
      const d = Math.hypot(q.x - p.x, q.y - p.y);
      if (d < dist) [best, dist] = [n, d];
    }
    return best;
  }

  onPointerDown(e) {
    if (e.button !== 0 || this.drag) return;
    const g = e.target.closest('[data-point]');
    if (!g || !this.draggable.has(g.dataset.point)) return;
    this.drag = { name: g.dataset.point, id: e.pointerId, x: e.clientX, y: e.clientY, active: false };
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    window.addEventListener('pointercancel', this.onUp);
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      d.active = true;
      this.h.onDragStart(d.name);
      d.piece = this.pieces.get(d.name)?.g;
      if (d.piece) {
        this.dragLayer.append(d.piece);
        d.piece.classList.add('dragging');
      }
    }
    e.preventDefault();
    const p = this.toSvg(e);
    d.at = p;
    if (d.piece) d.piece.style.transform = `translate(${p.x}px, ${p.y}px)`;
  }

  onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('pointercancel', this.onUp);
    this.drag = null;
    if (!d.active) return; // a plain click: the click handler acts on it
    this.suppressClickUntil = performance.now() + 400;
    if (d.piece) {
      d.piece.style.transform = '';
      d.piece.classList.remove('dragging');
      this.pieceLayer.append(d.piece);
    }
    const target = e.type === 'pointerup' && d.at ? this.nearest(d.at, UNIT * 0.5) : null;
    this.h.onDrop(d.name, target && target !== d.name ? target : null);
    // A drop that was refused leaves the piece at home: glide it back from where it was let go.
    const home = this.pieces.get(d.name);
    if (home && home.g === d.piece && d.at && this.moving(1)) {
      const p = this.points.get(d.name);
      home.g.animate(
        [{ transform: `translate(${d.at.x}px, ${d.at.y}px)` }, { transform: `translate(${p.x}px, ${p.y}px)` }],
        { duration: this.moving(180), easing: 'ease-out' },
      );
    }
  }
}
