import { fromAscii, generateTree } from '@hotpath/profile-core/testing';

import { diffBucket, DIFF_BUCKETS, packageOf } from './colors';
import { drawGraph, DrawStyle, fitLabel, isAscii, makePaint } from './draw';
import { computeLayout, hitTest, nodeRect, rowY, View, visibleRows } from './layout';

const style: DrawStyle = {
  dark: true,
  background: '#000',
  text: '#fff',
  dimmed: '#333',
  dimmedText: '#999',
  font: '12px monospace',
  diffScheme: 'red-green',
};

//   total 100            [0 ......................... 100)
//   a 60 [0..60)         b 40 [60..100)
//   c 30 [0..30)
const tree = () =>
  fromAscii(`
total 100
  a 60
    c 30
  b 40`);

describe('layout', () => {
  const view = (over: Partial<View> = {}): View => ({ focus: 0, width: 1000, height: 200, rowHeight: 20, mode: 'icicle', ...over });

  it('places children left to right inside their parent', () => {
    const l = computeLayout(tree());
    expect(Array.from(l.start)).toEqual([0, 0, 0, 60]);
    expect(nodeRect(l, view(), 3)).toEqual({ x: 600, y: 20, w: 400, h: 20 });
  });

  it('hit-tests in icicle and flame modes', () => {
    const l = computeLayout(tree());
    expect(hitTest(l, view(), 100, 45)).toBe(2); // c, row 2
    expect(hitTest(l, view(), 700, 45)).toBe(-1); // under b: nothing
    expect(hitTest(l, view(), 700, 25)).toBe(3);
    expect(hitTest(l, view({ mode: 'flame' }), 100, 200 - 45)).toBe(2);
  });

  it('focus: the node spans the width, ancestors stay above at full width', () => {
    const l = computeLayout(tree());
    const v = view({ focus: 1 });
    expect(nodeRect(l, v, 1)?.w).toBeCloseTo(1000, 6);
    expect(nodeRect(l, v, 1)?.x).toBe(0);
    expect(nodeRect(l, v, 2)?.w).toBeCloseTo(500, 6);
    expect(nodeRect(l, v, 3)).toBeUndefined();
    expect(hitTest(l, v, 900, 5)).toBe(0);
  });

  it('scrolls a window over the rows in both modes', () => {
    const l = computeLayout(tree());
    // a 40 px window over 80 px of rows (4 rows: the tree's 3 and a spare one)
    const icicle = view({ height: 40, contentHeight: 80, top: 20 });
    expect(visibleRows(icicle)).toEqual([1, 3]);
    expect(nodeRect(l, icicle, 2)).toEqual({ x: 0, y: 20, w: 300, h: 20 }); // row 2, second in the window
    expect(hitTest(l, icicle, 100, 25)).toBe(2);
    expect(hitTest(l, icicle, 100, 5)).toBe(1);
    // flame: the root is at the bottom of the content; scrolled to the top, the window shows rows 3 and 2
    const flame = view({ mode: 'flame', height: 40, contentHeight: 80, top: 0 });
    expect(visibleRows(flame)).toEqual([2, 4]);
    expect(rowY(flame, 2)).toBe(20);
    expect(hitTest(l, flame, 100, 25)).toBe(2);
    expect(hitTest(l, view({ mode: 'flame', height: 40, contentHeight: 80, top: 40 }), 100, 35)).toBe(0);
  });

  it('hit-tests a 200k-node tree without visiting it all', () => {
    const big = generateTree(200_000, 3);
    const l = computeLayout(big);
    const t0 = performance.now();
    for (let x = 0; x < 1000; x += 10) {
      hitTest(l, view({ height: 2000 }), x, 65);
    }
    expect(performance.now() - t0).toBeLessThan(200);
  });
});

describe('drawing', () => {
  it('draws every visible node and names as text', () => {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const l = computeLayout(tree());
    const stats = drawGraph(ctx, l, { focus: 0, width: 1000, height: 200, rowHeight: 20, mode: 'icicle' }, style, makePaint(l, style));
    expect(stats.drawn).toBe(4);
    const texts = (ctx as unknown as { __getEvents(): Array<{ type: string; props: { text?: string } }> })
      .__getEvents()
      .filter((e) => e.type === 'fillText')
      .map((e) => e.props.text);
    expect(texts).toEqual(['total', 'a', 'c', 'b']);
  });

  it('draws only the rows in the scrolled window', () => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const l = computeLayout(tree());
    const stats = drawGraph(ctx, l, { focus: 0, width: 1000, height: 20, contentHeight: 60, top: 40, rowHeight: 20, mode: 'icicle' }, style, makePaint(l, style));
    const texts = (ctx as unknown as { __getEvents(): Array<{ type: string; props: { text?: string } }> })
      .__getEvents()
      .filter((e) => e.type === 'fillText')
      .map((e) => e.props.text);
    expect(texts).toEqual(['c']); // row 2 only: rows 0 and 1 (total, a, b) are scrolled past
    expect(stats.drawn).toBe(1);
  });

  it('skips subtrees narrower than a pixel', () => {
    const big = generateTree(50_000, 5);
    const l = computeLayout(big);
    const ctx = document.createElement('canvas').getContext('2d')!;
    const stats = drawGraph(ctx, l, { focus: 0, width: 800, height: 600, rowHeight: 20, mode: 'icicle' }, style, makePaint(l, style));
    expect(stats.drawn).toBeLessThan(5000);
    expect(stats.drawn + stats.skipped).toBeLessThanOrEqual(big.size);
  });

  it('fits labels by eliding the start', () => {
    expect(fitLabel('github.com/x/y.(*T).Method', 100, 7)).toBe('….(*T).Method');
    expect(fitLabel('short', 100, 7)).toBe('short');
    expect(fitLabel('anything', 20, 7)).toBe('');
    // a "…" two letters wide (a fallback font) leaves one letter less of the name
    expect(fitLabel('github.com/x/y.(*T).Method', 100, 7, 2)).toBe('…(*T).Method');
  });

  it('passes a maxWidth to fillText only for names that do not fit by character count', () => {
    // maxWidth makes Chrome measure and scale every label (75 ms of a 1600x960 repaint);
    // plain ASCII in the monospace font fits by count, other scripts keep the guard
    const t = fromAscii(`
total 10
  ascii.Handler 5
  日本語.ハンドラ 5
`);
    const ctx = document.createElement('canvas').getContext('2d')!;
    const l = computeLayout(t);
    drawGraph(ctx, l, { focus: 0, width: 1000, height: 200, rowHeight: 20, mode: 'icicle' }, style, makePaint(l, style));
    const calls = (ctx as unknown as { __getEvents(): Array<{ type: string; props: { text?: string; maxWidth?: number | null } }> })
      .__getEvents()
      .filter((e) => e.type === 'fillText')
      .map((e) => [e.props.text, e.props.maxWidth ?? null]);
    expect(calls).toEqual([
      ['total', null],
      ['ascii.Handler', null],
      ['日本語.ハンドラ', 494],
    ]);
    expect(isAscii('main.(*T).run')).toBe(true);
    expect(isAscii('main.überall')).toBe(false);
  });
});

describe('colours', () => {
  it('finds packages of Go names', () => {
    expect(packageOf('github.com/golang/protobuf/proto.Marshal')).toBe('github.com/golang/protobuf/proto');
    expect(packageOf('fmt.Println')).toBe('fmt');
    expect(packageOf('main.(*server).handle')).toBe('main');
  });

  it('buckets diff changes relative to each side', () => {
    const mid = (DIFF_BUCKETS - 1) / 2;
    expect(diffBucket(10, 100, 20, 200)).toBe(mid); // same share
    expect(diffBucket(10, 100, 40, 200)).toBe(DIFF_BUCKETS - 1); // doubled share
    expect(diffBucket(10, 100, 0, 200)).toBe(0); // gone
    expect(diffBucket(0, 100, 5, 200)).toBe(DIFF_BUCKETS - 1); // new
  });
});
