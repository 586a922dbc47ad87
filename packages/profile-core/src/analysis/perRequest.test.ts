import fc from 'fast-check';

import { fromAscii } from '../testing/ascii';
import { diffTrees } from './mergeDiff';
import {
  changesByUnit,
  checkCount,
  decompose,
  formatRatio,
  headline,
  perRequestSummary,
  perRequestTree,
  RequestCounts,
} from './perRequest';
import { printlnAfter, printlnBefore } from '../testing/trees';
import { Tree, TreeBuilder } from '../tree/tree';

const counts = (baseline: number, comparison: number): RequestCounts => ({ baseline: checkCount(baseline), comparison: checkCount(comparison) });

/** The tree with every value multiplied by k: the same code under k times the traffic. */
function scaled(t: Tree, k: number): Tree {
  return { ...t, total: t.total.map((v) => v * k), self: t.self.map((v) => v * k) };
}

const NAMES = ['main', 'fmt.Println', 'write', 'runtime.mallocgc', 'json.Marshal'];
const arbTree = fc
  .array(fc.tuple(fc.array(fc.constantFrom(...NAMES), { maxLength: 5 }), fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 30 })
  .map((samples) => {
    const b = new TreeBuilder();
    samples.forEach(([stack, v]) => b.addStack(stack.map((n) => b.interner.id(n)), v));
    return b.build('ns');
  });
const arbPositive = fc.double({ min: 1e-3, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe('load vs per request', () => {
  it("the issue's example: CPU +180% = load +20% × per request +133%", () => {
    const d = decompose(100, 280, counts(1000, 1200));
    if (!d.ok) {throw new Error(d.message);}
    expect(d.totalRatio).toBeCloseTo(2.8);
    expect(d.loadRatio).toBeCloseTo(1.2);
    expect(d.perRequestRatio).toBeCloseTo(2.8 / 1.2);
    expect(headline(d, 'ns')).toBe('CPU +180% = load +20% × per request +133%');
    expect(d.driver).toBe('per request');
  });

  it('a traffic doubling that CPU follows reads load +100%, per request ~0%', () => {
    const d = decompose(100, 200, counts(1000, 2000));
    if (!d.ok) {throw new Error(d.message);}
    expect(headline(d, 'bytes')).toBe('Allocations +100% = load +100% × per request ~0%');
    expect(d.driver).toBe('load');
  });

  it('nothing moved: driver none; small and negative changes read as such', () => {
    const d = decompose(100, 101, counts(1000, 1010));
    expect(d.ok && d.driver).toBe('none');
    expect(formatRatio(0.5)).toBe('−50%');
    expect(formatRatio(1.07)).toBe('+7.0%');
  });

  it('property: the decomposition multiplies back to the total ratio, finite', () => {
    fc.assert(
      fc.property(arbPositive, arbPositive, arbPositive, arbPositive, (bt, ct, br, cr) => {
        const d = decompose(bt, ct, counts(br, cr));
        if (!d.ok) {return false;}
        const back = d.loadRatio * d.perRequestRatio;
        return Number.isFinite(back) && Math.abs(back - d.totalRatio) <= 1e-12 * d.totalRatio && Math.abs(d.comparisonPerRequest / d.baselinePerRequest - d.perRequestRatio) <= 1e-9 * d.perRequestRatio;
      })
    );
  });
});

describe('the changes table in every unit', () => {
  it('println: per request ranks the text marshalling first, with absolute and share deltas alongside', () => {
    const rows = changesByUnit(diffTrees(printlnBefore(), printlnAfter()), 'per-request', counts(100, 100));
    expect(rows[0].name).toBe('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    expect(rows[0].perRequestDelta).toBeCloseTo(2.8);
    expect(rows[0].absoluteDelta).toBe(280);
    expect(rows[0].shareDelta).toBeCloseTo(0.7);
    expect(rows[0].flagged).toBe(true);
    // streamFromCache did not change per request: not flagged, though its share fell from 70% to 17.5%
    const cache = rows.find((r) => r.name === 'google.golang.org/grpc.(*clientStream).RecvMsg')!;
    expect(cache.perRequestDelta).toBe(0);
    expect(cache.flagged).toBe(false);
    expect(changesByUnit(diffTrees(printlnBefore(), printlnAfter()), 'share', counts(100, 100)).find((r) => r.name === cache.name)!.flagged).toBe(true);
  });

  it('without request counts, per request falls back to share', () => {
    const rows = changesByUnit(diffTrees(printlnBefore(), printlnAfter()), 'per-request');
    expect(rows[0].perRequestDelta).toBeUndefined();
    expect(rows[0].shareDelta).toBeCloseTo(0.7);
  });

  it("the service's code first: the runtime's own work and the profiler's rank after every row of code, whatever their size", () => {
    const diff = diffTrees(
      fromAscii(`
total 400
├─ main.handler 100
│  ├─ main.render 90
│  └─ compress/flate.NewWriter 10
│     └─ runtime.memclrNoHeapPointers 5
├─ runtime.gcBgMarkWorker 100
└─ runtime/pprof.profileWriter 200
`),
      fromAscii(`
total 400
├─ main.handler 390
│  ├─ main.render 90
│  └─ compress/flate.NewWriter 300
│     └─ runtime.memclrNoHeapPointers 250
├─ runtime.gcBgMarkWorker 5
└─ runtime/pprof.profileWriter 5
`)
    );
    for (const unit of ['per-request', 'share', 'absolute'] as const) {
      const rows = changesByUnit(diff, unit, counts(100, 100));
      // the runtime's time beneath code (memclr for flate.NewWriter) is where that code's CPU went:
      // it ranks with the code; the GC worker (-95) and the profiler (-195) fell most, but after it
      expect([unit, rows.map((r) => r.name)]).toEqual([unit, ['runtime.memclrNoHeapPointers', 'compress/flate.NewWriter', 'main.render', 'runtime/pprof.profileWriter', 'runtime.gcBgMarkWorker']]);
    }
  });

  it('property: a pure traffic change has per-request deltas of zero (float error) and flags nothing', () => {
    fc.assert(
      fc.property(arbTree, fc.double({ min: 0.1, max: 50, noNaN: true }), fc.double({ min: 1, max: 1e6, noNaN: true }), (t, k, req) => {
        const diff = diffTrees(t, scaled(t, k));
        const rows = changesByUnit(diff, 'per-request', counts(req, req * k));
        const perReq = perRequestTree(diff, req, req * k);
        const treeFlat = Array.from(perReq.total).every((v, i) => Math.abs(v - perReq.totalRight![i]) <= 1e-9 * Math.max(v, 1e-12));
        return treeFlat && rows.every((r) => Math.abs(r.perRequestDelta!) <= 1e-9 * Math.max(r.baselinePerRequest!, 1e-12) && !r.flagged);
      })
    );
  });
});

describe('per-request tree', () => {
  it('divides each side by its requests, keeping the shape', () => {
    const t = perRequestTree(diffTrees(printlnBefore(), printlnAfter()), 10, 20);
    expect(t.total[0]).toBe(10);
    expect(t.totalRight![0]).toBe(20);
    expect(perRequestTree(fromAscii('total 50\n└─ a 50'), 5).total[1]).toBe(10);
  });
});

describe('the snapshot summary per request', () => {
  it('println: per-request values, the split and the functions by per-request change', () => {
    const s = perRequestSummary(printlnAfter(), printlnBefore(), 100, 100);
    expect(s.totalPerRequest).toBe(4);
    expect(s.baselineTotalPerRequest).toBe(1);
    expect(s.decomposition).toMatchObject({ totalRatio: 4, loadRatio: 1, perRequestRatio: 4, driver: 'per request', headline: 'Total +300% = load ~0% × per request +300%' });
    expect(s.diff!.top[0]).toMatchObject({ function: 'google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format', perRequestDelta: 2.8, absoluteDelta: 280, flagged: true });
  });

  it('a traffic doubling: load, and nothing flagged; bad counts throw with the flag named', () => {
    const s = perRequestSummary(scaled(printlnBefore(), 2), printlnBefore(), 200, 100);
    expect(s.decomposition!.driver).toBe('load');
    expect(s.diff!.top.filter((r) => r.flagged)).toEqual([]);
    expect(() => perRequestSummary(printlnAfter(), printlnBefore(), 100)).toThrow('--baseline-requests: no request count');
    expect(() => perRequestSummary(printlnAfter(), undefined, 0)).toThrow('--requests: zero requests');
  });
});
