import { isDiff } from '@hotpath/profile-core';

import { diffBucket, diffPalette, DiffScheme, PackageColors } from './colors';
import { Layout, MIN_NODE_PX, nodeRect, rowY, View, visibleRows } from './layout';

/** Everything drawing needs besides the layout and the view; plain values, no React. */
export interface DrawStyle {
  dark: boolean;
  background: string;
  text: string;
  /** colour of nodes that do not match an active search, and of ancestors above a focus */
  dimmed: string;
  dimmedText: string;
  font: string;
  diffScheme: DiffScheme;
}

/** Per-tree colour tables, computed once per tree and style. */
export interface Paint {
  /** colour of a name id (package colouring), computed when first drawn */
  byName: PackageColors;
  /** colour per node (diff trees) */
  byNode?: Uint8Array;
  palette?: string[];
  charWidth: number;
  /** per name id: 1 when the name is printable ASCII (fits by character count), 2 when not, 0 unknown */
  ascii: Uint8Array;
  /** how many letters wide the font's "…" is (1 in a true monospace font; more from a fallback font) */
  ellipsisChars: number;
}

export function makePaint(layout: Layout, style: DrawStyle, ctx?: CanvasRenderingContext2D | null): Paint {
  const tree = layout.tree;
  const paint: Paint = { byName: new PackageColors(tree.names, style.dark), charWidth: 7, ascii: new Uint8Array(tree.names.length), ellipsisChars: 1 };
  if (ctx) {
    ctx.font = style.font;
    const w = ctx.measureText('abcdefghijklmnopqrstuvwxyz').width / 26;
    paint.charWidth = w > 0 ? w : 7;
    paint.ellipsisChars = Math.max(1, Math.ceil(ctx.measureText('…').width / paint.charWidth - 0.01));
  }
  if (isDiff(tree)) {
    // by value: a node is compared with itself, not with its side's total
    const lt = layout.basis === 'value' ? 1 : tree.total[0];
    const rt = layout.basis === 'value' ? 1 : tree.totalRight[0];
    paint.byNode = new Uint8Array(tree.size);
    for (let i = 0; i < tree.size; i++) {
      paint.byNode[i] = diffBucket(tree.total[i], lt, tree.totalRight[i], rt);
    }
    paint.palette = diffPalette(style.diffScheme);
  }
  return paint;
}

/**
 * Fits a label into `px` pixels: keeps the end of the name (the function), elides the start.
 * `ellipsisChars`: the width of "…" in letters of the font.
 */
export function fitLabel(label: string, px: number, charWidth: number, ellipsisChars = 1): string {
  const room = Math.floor((px - 6) / charWidth);
  if (room < 2 + ellipsisChars) {
    return '';
  }
  if (label.length <= room) {
    return label;
  }
  return '…' + label.slice(label.length - (room - ellipsisChars));
}

/** Printable ASCII only: every character as wide as the monospace font's letters. */
export function isAscii(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c > 0x7e) {
      return false;
    }
  }
  return true;
}

export interface DrawStats {
  drawn: number;
  skipped: number;
}

/**
 * Draws the visible part of the graph. Cost is proportional to the nodes drawn: a node
 * narrower than MIN_NODE_PX is skipped with its whole subtree (O(1) thanks to `end`), and so
 * is a node whose row is below the canvas.
 */
export function drawGraph(
  ctx: CanvasRenderingContext2D,
  layout: Layout,
  view: View,
  style: DrawStyle,
  paint: Paint,
  matches?: Uint8Array
): DrawStats {
  const tree = layout.tree;
  ctx.fillStyle = style.background;
  ctx.fillRect(0, 0, view.width, view.height);
  ctx.font = style.font;
  ctx.textBaseline = 'middle';
  const stats: DrawStats = { drawn: 0, skipped: 0 };
  if (tree.size === 0) {
    return stats;
  }
  const f = view.focus;
  const rh = view.rowHeight;
  const [firstRow, endRow] = visibleRows(view);
  // ancestors of the focus: full width, dimmed
  for (let a = tree.parent[f]; a >= 0; a = tree.parent[a]) {
    if (tree.level[a] < firstRow || tree.level[a] >= endRow) {
      continue;
    }
    const y = rowY(view, tree.level[a]);
    ctx.fillStyle = style.dimmed;
    ctx.fillRect(0, y + 0.5, view.width, rh - 1);
    drawLabel(ctx, layout, paint, a, 0, y + rh / 2, view.width, style.dimmedText);
    stats.drawn++;
  }
  const scale = view.width / (layout.weight[f] || 1);
  const x0 = layout.start[f];
  const end = tree.end[f];
  // the rectangles by colour (x, y, width of each): one fillStyle per colour, not two per node
  // (a label's colour in between), as Chrome parses the colour at every change; then the labels,
  // each inside its own rectangle, which no other one crosses
  const byColor = new Map<string, number[]>();
  const labels: number[] = [];
  for (let i = f; i < end; ) {
    const w = layout.weight[i] * scale;
    const row = tree.level[i];
    if (w < MIN_NODE_PX || row >= endRow) {
      stats.skipped += tree.end[i] - i;
      i = tree.end[i];
      continue;
    }
    if (row < firstRow) {
      i++; // scrolled past: its children may be in sight
      continue;
    }
    const x = (layout.start[i] - x0) * scale;
    const y = rowY(view, row);
    const color = matches && !matches[i] ? style.dimmed : paint.byNode && paint.palette ? paint.palette[paint.byNode[i]] : paint.byName.of(tree.nameId[i]);
    let rects = byColor.get(color);
    if (!rects) {
      byColor.set(color, (rects = []));
    }
    rects.push(x, y, w);
    labels.push(i, x, y, w);
    stats.drawn++;
    i++;
  }
  byColor.forEach((rects, color) => {
    ctx.fillStyle = color;
    for (let k = 0; k < rects.length; k += 3) {
      // a 1px gap between neighbours when there is room for it
      const w = rects[k + 2];
      ctx.fillRect(rects[k], rects[k + 1] + 0.5, w > 2 ? w - 0.5 : w, rh - 1);
    }
  });
  for (let k = 0; k < labels.length; k += 4) {
    const i = labels[k];
    drawLabel(ctx, layout, paint, i, labels[k + 1], labels[k + 2] + rh / 2, labels[k + 3], matches && !matches[i] ? style.dimmedText : style.text);
  }
  return stats;
}

/**
 * Node i's name in a box `w` pixels wide at x, centred on `middle`. A function of the module, not
 * a closure of drawGraph: V8 optimizes calls to one function object, and a closure is a new one
 * per draw.
 */
function drawLabel(ctx: CanvasRenderingContext2D, layout: Layout, paint: Paint, i: number, x: number, middle: number, w: number, color: string) {
  if (w < 20) {
    return;
  }
  const tree = layout.tree;
  const id = tree.nameId[i];
  const name = tree.names[id];
  const text = fitLabel(name, w, paint.charWidth, paint.ellipsisChars);
  if (text) {
    ctx.fillStyle = color;
    if ((paint.ascii[id] ||= isAscii(name) ? 1 : 2) === 1) {
      // the monospace font's ASCII fits by character count; fillText's maxWidth would cost
      // ~30 us per label in Chrome's raster (75 ms of a 1600x960 repaint)
      ctx.fillText(text, x + 3, middle);
    } else {
      ctx.fillText(text, x + 3, middle, w - 6);
    }
  }
}

/** Where an outline was drawn (its node's rectangle). */
export interface Outline {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The hover highlight, drawn on the overlay canvas so hovering never redraws the graph. Clears
 * only the last outline (`last`, as this returned it; undefined: the overlay is clear): clearing
 * the whole 1600x960 overlay at every move was a tenth of a hover's CPU. Returns the outline drawn.
 */
export function drawHover(ctx: CanvasRenderingContext2D, layout: Layout, view: View, node: number, color: string, last?: Outline): Outline | undefined {
  if (last) {
    ctx.clearRect(last.x - 1, last.y - 1, last.w + 2, last.h + 2);
  }
  if (node < 0) {
    return undefined;
  }
  const r = nodeRect(layout, view, node);
  if (!r) {
    return undefined;
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.strokeRect(r.x + 1, r.y + 1, Math.max(r.w - 2, 1), r.h - 2);
  return r;
}
