import { readFileSync } from 'fs';
import { gzipSync } from 'fflate';
import { join } from 'path';
import { Function as PFunction, Label, Line, Location, Mapping, Profile, Sample, StringTable, ValueType } from 'pprof-format';

import { toAscii } from '../testing/ascii';
import { diffTrees } from '../analysis/mergeDiff';
import { searchTree } from '../views/search';
import { biggestChanges, topTable } from '../analysis/topTable';
import { pprofToTree } from './pprof';
import { decodePprof, MAX_PPROF_BYTES } from './pprof-decode';

const FIXTURES = join(__dirname, '../../../../tests/fixtures');
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));

/**
 * A small pprof written with pprof-format: main.main -> main.handler -> (inlined) strings.Repeat,
 * plus main.main -> runtime.mallocgc; two sample types (alloc_objects, alloc_space).
 */
function handMade(): Uint8Array {
  const st = new StringTable();
  const fn = (id: number, name: string) => new PFunction({ id, name: st.dedup(name) });
  const functions = [fn(1, 'main.main'), fn(2, 'main.handler'), fn(3, 'strings.Repeat'), fn(4, 'runtime.mallocgc')];
  const locations = [
    new Location({ id: 1, line: [new Line({ functionId: 1 })] }),
    // one location, two lines: strings.Repeat inlined into main.handler (innermost first)
    new Location({ id: 2, line: [new Line({ functionId: 3 }), new Line({ functionId: 2 })] }),
    new Location({ id: 3, line: [new Line({ functionId: 4 })] }),
    new Location({ id: 4, address: 0xdead, mappingId: 1, line: [] }),
  ];
  const profile = new Profile({
    sampleType: [
      new ValueType({ type: st.dedup('alloc_objects'), unit: st.dedup('count') }),
      new ValueType({ type: st.dedup('alloc_space'), unit: st.dedup('bytes') }),
    ],
    // locations leaf first
    sample: [
      new Sample({ locationId: [2, 1], value: [3, 300] }),
      new Sample({ locationId: [3, 1], value: [1, 100] }),
      new Sample({ locationId: [4, 1], value: [1, 0] }),
      new Sample({ locationId: [2, 1], value: [1, 50] }),
    ],
    location: locations,
    function: functions,
    mapping: [new Mapping({ id: 1, filename: st.dedup('/usr/lib/libc.so.6') })],
    stringTable: st,
  });
  return gzipSync(profile.encode());
}

/** A one-function profile with the given sample values; `edit` may change the Profile before encoding. */
function tiny(values: Array<{ v: number[]; fn?: number; base?: boolean }>, types = ['samples', 'cpu'], edit?: (p: Profile, st: StringTable) => void) {
  const st = new StringTable();
  const profile = new Profile({
    sampleType: types.map((t) => new ValueType({ type: st.dedup(t), unit: st.dedup(t === 'cpu' ? 'nanoseconds' : 'count') })),
    sample: values.map(
      (s) =>
        new Sample({
          locationId: [s.fn ?? 1, 3],
          value: s.v,
          label: s.base ? [new Label({ key: st.dedup('pprof::base'), str: st.dedup('true') })] : [],
        })
    ),
    location: [1, 2, 3].map((id) => new Location({ id, line: [new Line({ functionId: id })] })),
    function: ['main.work', 'main.idle', 'main.main'].map((n, i) => new PFunction({ id: i + 1, name: st.dedup(n) })),
    stringTable: st,
  });
  edit?.(profile, st);
  return profile.encode();
}

describe('pprofToTree', () => {
  it('builds the tree Pyroscope builds: root total, leaf-first locations, inlined frames', () => {
    const r = pprofToTree(handMade(), 'alloc_space');
    expect(r.unit).toBe('bytes');
    expect(r.sampleTypes).toEqual(['alloc_objects', 'alloc_space']);
    expect(toAscii(r.tree)).toBe(
      ['total 450', '  main.main 450', '    main.handler 350', '      strings.Repeat 350', '    runtime.mallocgc 100'].join('\n')
    );
  });

  it('defaults to the last sample type and keeps unsymbolized frames as addresses', () => {
    const r = pprofToTree(handMade());
    expect(r.sampleType).toBe('alloc_space');
    const objects = pprofToTree(handMade(), 'alloc_objects');
    expect(objects.unit).toBe('short');
    // unsymbolized: named as `go tool pprof -top` names it, by its binary
    expect(toAscii(objects.tree)).toContain('[libc.so.6] 1');
  });

  it('says which sample types exist when asked for an unknown one', () => {
    expect(() => pprofToTree(handMade(), 'cpu')).toThrow('Unknown sample type "cpu": this profile has "alloc_objects", "alloc_space".');
  });

  it('rejects corrupt files clearly', () => {
    expect(() => pprofToTree(new Uint8Array([0x1f, 0x8b, 1, 2, 3]))).toThrow(/^not a valid gzip-compressed pprof profile \(decompressing profile/);
    expect(() => pprofToTree(new Uint8Array([]))).toThrow(/^empty input file/);
    expect(() => pprofToTree(new TextEncoder().encode('hello, not a profile at all'))).toThrow(/^unrecognized profile format/);
  });
});

describe('pprofToTree refuses what pprof refuses, in one line', () => {
  const oneLine = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      const m = (e as Error).message;
      expect(m).not.toContain('\n');
      return m;
    }
    throw new Error('did not throw');
  };

  it('a truncated uncompressed protobuf: unrecognized profile format', () => {
    const raw = tiny([{ v: [1, 10] }]);
    for (const cut of [raw.length - 1, raw.length - 2, 3]) {
      expect(oneLine(() => pprofToTree(raw.subarray(0, cut)))).toMatch(/^unrecognized profile format/);
    }
    // and the whole file decodes
    expect(pprofToTree(raw).tree.total[0]).toBe(10);
  });

  it('a truncated gzip stream', () => {
    const gz = gzipSync(tiny([{ v: [1, 10] }]));
    expect(oneLine(() => pprofToTree(gz.subarray(0, gz.length - 6)))).toMatch(/^not a valid gzip-compressed pprof profile/);
  });

  it('a function with the reserved id 0 (pprof: malformed)', () => {
    const raw = tiny([{ v: [1, 10] }], undefined, (p) => {
      p.function[0].id = 0;
    });
    expect(oneLine(() => pprofToTree(raw))).toBe('malformed profile: found function with reserved ID=0.');
  });

  it('a sample whose value count differs from the sample types', () => {
    const raw = tiny([{ v: [1] }]);
    expect(oneLine(() => pprofToTree(raw))).toBe('malformed profile: mismatch: sample has 1 values vs. 2 types.');
  });

  it('a sample type without samples names the types that have some', () => {
    const raw = tiny([{ v: [3, 0] }, { v: [2, 0] }], ['samples', 'cpu']);
    expect(oneLine(() => pprofToTree(raw, 'cpu'))).toBe('no samples of type cpu in this profile (types with samples: samples).');
    // the default skips the empty CPU type: the last type with samples
    expect(pprofToTree(raw).sampleType).toBe('samples');
    expect(pprofToTree(raw, 'samples').tree.total[0]).toBe(5);
    // with no samples at all, the default says so too
    expect(oneLine(() => pprofToTree(tiny([{ v: [0, 0] }])))).toBe('no samples of type cpu in this profile (types with samples: none).');
  });

  it('the default sample type is what Pyroscope opens: default_sample_type, else CPU time, else the last type with samples', () => {
    // dd-trace-py's shape: 19 types, CPU time second, the last ones empty
    const dd = ['cpu-samples', 'cpu-time', 'wall-time', 'alloc-space', 'gpu-flops'];
    expect(pprofToTree(tiny([{ v: [1, 10, 20, 30, 0] }], dd)).sampleType).toBe('cpu-time');
    // no CPU type: pprof's last type, skipping empty ones
    expect(pprofToTree(tiny([{ v: [1, 30, 0] }], ['alloc_objects', 'alloc_space', 'inuse_space'])).sampleType).toBe('alloc_space');
    // default_sample_type, when it has samples, wins over CPU time
    const withDefault = (name: string) =>
      tiny([{ v: [1, 10, 20, 0] }], [...dd.slice(0, 3), 'exceptions'], (p, st) => {
        p.defaultSampleType = st.dedup(name);
      });
    expect(pprofToTree(withDefault('wall-time')).sampleType).toBe('wall-time');
    expect(pprofToTree(withDefault('exceptions')).sampleType).toBe('cpu-time');
  });

  it('a JFR recording: says what it is and how to get pprof', () => {
    // gzipped as jfr-parser's test data ships it; the check runs on what is inside
    const jfr = fixture('corpus/jfr/nativemem.jfr.gz');
    expect(oneLine(() => pprofToTree(jfr))).toMatch(/^this is a JFR recording \(Java Flight Recorder\), not pprof: .*Pyroscope.*jfrconv/);
  });

  it('a zstd-compressed profile (dd-trace-py writes them) is read; a truncated one is refused', () => {
    const zst = fixture('corpus/python/python.ddtrace.pprof.zst');
    expect(pprofToTree(zst).sampleType).toBe('cpu-time');
    expect(oneLine(() => pprofToTree(zst.subarray(0, zst.length >> 1)))).toMatch(/^not a valid zstd-compressed pprof profile \(decompressing profile: .*\)\.$/);
  });

  it("pprof's legacy formats: says how to convert them", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    for (const head of ['heap profile:    144:  8498176 [   144:  8498176] @ heapprofile\n', '--- contentionz 1 ---\ncycles/second = 32\n', 'threadcreate profile: total 7\n']) {
      expect(oneLine(() => pprofToTree(text(head)))).toMatch(/^this is pprof's legacy text format \(.*\): convert it with `go tool pprof -proto FILE > FILE.pb.gz`\.$/);
    }
  });

  it('refuses a file above MAX_PPROF_BYTES, and a gzip that says it inflates above it, without inflating', () => {
    expect(oneLine(() => pprofToTree(new Uint8Array(MAX_PPROF_BYTES + 1)))).toMatch(/^the profile is 256 MiB, above the 256 MiB hotpath reads/);
    // a small gzip that inflates past the limit is stopped while inflating (a 1 MiB limit here)
    const bomb = gzipSync(new Uint8Array(3 * 1048576));
    expect(oneLine(() => decodePprof(bomb, { maxBytes: 1048576 }))).toMatch(/^the profile is [0-9.]+ MiB decompressed \(and more\), above the 1 MiB hotpath reads/);
  });

  it('a gzip whose trailer lies: inflated into the size it says, no further; a cut one is truncated, not a bomb', () => {
    const bomb = gzipSync(new Uint8Array(3 * 1048576));
    // says 1 KiB: its first KiB (zeros) is what is read, and refused as pprof
    const says1k = bomb.slice();
    new DataView(says1k.buffer).setUint32(says1k.length - 4, 1024, true);
    expect(oneLine(() => decodePprof(says1k, { maxBytes: 1048576 }))).toMatch(/^unrecognized profile format/);
    // cut short, its last bytes read as a size above the limit: inflated, counted, and found short
    const raw = tiny([{ v: [1, 10] }]);
    const cut = gzipSync(raw).subarray(0, -4);
    const max = Math.max(raw.length, cut.length);
    expect(new DataView(cut.buffer, cut.byteOffset).getUint32(cut.length - 4, true)).toBeGreaterThan(max);
    expect(oneLine(() => decodePprof(cut, { maxBytes: max }))).toMatch(/^not a valid gzip-compressed pprof profile \(decompressing profile: unexpected EOF/);
  });
});

describe('signed values', () => {
  it('reads negative int64 values as negative (a -diff_base profile), and splits the diff in two trees', () => {
    // comparison: main.work 30 + main.idle 10; base (stored negated): main.work 10 + main.idle 30
    const raw = tiny([{ v: [1, 30] }, { v: [1, 10], fn: 2 }, { v: [-1, -10], base: true }, { v: [-1, -30], fn: 2, base: true }]);
    const r = pprofToTree(raw, 'cpu');
    expect(toAscii(r.tree)).toBe(['total 40', '  main.main 40', '    main.idle 10', '    main.work 30'].join('\n'));
    expect(toAscii(r.baseline!)).toBe(['total 40', '  main.main 40', '    main.idle 30', '    main.work 10'].join('\n'));
    const changes = biggestChanges(diffTrees(r.baseline!, r.tree));
    expect(changes.find((c) => c.name === 'main.work')!.delta).toBeCloseTo(0.5);
    expect(changes.find((c) => c.name === 'main.idle')!.delta).toBeCloseTo(-0.5);
  });

  it('values beyond 2^32 and close to 2^53 keep their sign and size', () => {
    const big = 2 ** 40 + 7;
    const r = pprofToTree(tiny([{ v: [1, big] }, { v: [-1, -big], fn: 2, base: true }]), 'cpu');
    expect(r.tree.total[0]).toBe(big);
    expect(r.baseline!.total[0]).toBe(big);
  });

  it('refuses negative values that are not a pprof diff, saying how to get one', () => {
    expect(() => pprofToTree(tiny([{ v: [1, 30] }, { v: [1, -10], fn: 2 }]), 'cpu')).toThrow(
      /negative sample values but no sample labelled pprof::base.*--baseline.*go tool pprof -proto -diff_base/
    );
  });
});

describe('drop_frames (pprof prunes them; so does hotpath)', () => {
  it('cuts a sample at the first dropped frame below a kept one', () => {
    const raw = tiny([{ v: [1, 10] }, { v: [1, 5], fn: 2 }], undefined, (p, st) => {
      p.dropFrames = st.dedup('main\\.work');
    });
    // main.work's 10 become main.main's own
    expect(toAscii(pprofToTree(raw, 'cpu').tree)).toBe(['total 15', '  main.main 15', '    main.idle 5'].join('\n'));
  });
});

describe('real captures (tests/fixtures)', () => {
  it('println: the diff ranks the text marshalling path first', () => {
    const before = pprofToTree(fixture('println-baseline.cpu.pb.gz'), 'cpu');
    const after = pprofToTree(fixture('println-incident.cpu.pb.gz'), 'cpu');
    expect(after.sampleTypes).toEqual(['samples', 'cpu']);
    expect(after.unit).toBe('ns');
    const fmt = searchTree(after.tree, { text: 'fmt.Println' });
    expect(fmt.ok && fmt.result!.share).toBeGreaterThan(0.3);
    const none = searchTree(before.tree, { text: 'fmt.Println' });
    expect(none.ok && none.result!.share).toBe(0);
    const diff = diffTrees(before.tree, after.tree);
    const changes = biggestChanges(diff);
    // the function whose self share changed most is protobuf's text encoder under fmt.Println
    expect(changes[0].name).toBe('google.golang.org/protobuf/internal/encoding/text.appendString');
    expect(changes[0].delta).toBeGreaterThan(0.1);
    const println = searchTree(diff, { text: 'fmt.Println' });
    expect(println.ok && println.result!.shareRight).toBeGreaterThan(0.3);
    expect(println.ok && println.result!.share).toBe(0);
  });

  it('epoll: EpollWait dominates the incident', () => {
    const after = pprofToTree(fixture('epoll-incident.cpu.pb.gz'), 'cpu');
    const r = searchTree(after.tree, { text: 'unix.EpollWait' });
    expect(r.ok && r.result!.share).toBeGreaterThan(0.6);
  });

  it('gzip: flate.NewWriter dominates alloc_space, and tops the diff', () => {
    const before = pprofToTree(fixture('gzip-baseline.heap.pb.gz'), 'alloc_space');
    const after = pprofToTree(fixture('gzip-incident.heap.pb.gz'), 'alloc_space');
    expect(after.unit).toBe('bytes');
    const top = topTable(after.tree).filter((r) => r.name !== 'total');
    const newWriter = top.find((r) => r.name === 'compress/flate.NewWriter')!;
    expect(newWriter.total / after.tree.total[0]).toBeGreaterThan(0.8);
    const diff = biggestChanges(diffTrees(before.tree, after.tree));
    expect(diff[0].delta).toBeGreaterThan(0);
    expect(diff[0].name).toMatch(/compress\/flate/);
  });
});
