import fc from 'fast-check';

import { fromAscii } from '../testing/ascii';
import { searchTree } from './search';
import { arbTree } from '../testing/arbitrary';
import { printlnAfter } from '../testing/trees';

describe('search', () => {
  it('finds "write" frames and the share of samples under them (the fluentd story)', () => {
    const tree = fromAscii(`
total 100
  fluentd.emit 80
    out_timescale.write 50
      pg.exec 30
    parser.parse 30
      out_timescale.write 10
  io.write 20`);
    const r = searchTree(tree, { text: 'write' });
    expect(r.ok && r.result?.matchCount).toBe(3);
    expect(r.ok && r.result?.share).toBeCloseTo(0.8);
    expect(r.ok && r.result?.selfShare).toBeCloseTo((20 + 10 + 20) / 100);
  });

  it('supports regular expressions and reports bad ones', () => {
    const tree = printlnAfter();
    const r = searchTree(tree, { text: '^fmt\\.', regex: true });
    expect(r.ok && r.result?.share).toBeCloseTo(0.75);
    const bad = searchTree(tree, { text: '(', regex: true });
    expect(!bad.ok && bad.error).toMatch(/Invalid regular expression/);
  });

  it('property: share = sum of self over matched samples / total, = sum of total over outermost matches', () => {
    fc.assert(
      fc.property(arbTree, fc.constantFrom('write', 'fmt', 'main', 'o', 'zzz'), (a, text) => {
        const r = searchTree(a, { text });
        if (!r.ok || !r.result) {
          throw new Error('search failed');
        }
        let selfOfCovered = 0;
        let selfOfMatches = 0;
        for (let i = 0; i < a.size; i++) {
          if (r.result.covered[i]) {
            selfOfCovered += a.self[i];
          }
          if (r.result.matches[i]) {
            selfOfMatches += a.self[i];
          }
        }
        expect(r.result.matchedValue).toBe(selfOfCovered);
        expect(r.result.share).toBeCloseTo(selfOfCovered / a.total[0], 12);
        expect(r.result.selfShare).toBeCloseTo(selfOfMatches / a.total[0], 12);
        expect(r.result.share).toBeLessThanOrEqual(1 + 1e-12);
      })
    );
  });
});
