import { readFileSync } from 'fs';
import { gzipSync } from 'fflate';
import { join } from 'path';
import { Function as PFunction, Line, Location, Profile, Sample, StringTable, ValueType } from 'pprof-format';

import { toAscii } from './ascii';
import { biggestChanges, diffTrees, searchTree, topTable } from './ops';
import { pprofToTree } from './pprof';

const FIXTURES = join(__dirname, '../../../tests/fixtures');
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
    new Location({ id: 4, address: 0xdead, line: [] }),
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
    stringTable: st,
  });
  return gzipSync(profile.encode());
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
    expect(toAscii(objects.tree)).toContain('0xdead 1');
  });

  it('says which sample types exist when asked for an unknown one', () => {
    expect(() => pprofToTree(handMade(), 'cpu')).toThrow('Unknown sample type "cpu": this profile has "alloc_objects", "alloc_space".');
  });

  it('rejects corrupt files clearly', () => {
    expect(() => pprofToTree(new Uint8Array([0x1f, 0x8b, 1, 2, 3]))).toThrow(/Not a valid gzip-compressed pprof/);
    expect(() => pprofToTree(new Uint8Array([]))).toThrow(/empty/);
    expect(() => pprofToTree(new TextEncoder().encode('hello, not a profile at all'))).toThrow(/Not a valid pprof/);
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
