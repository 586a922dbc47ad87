// Inputs real users feed the snapshot CLI that it must refuse (or, for the last two, handle):
// each written into `dir`, with the one-line message the CLI must print. Profiles are encoded
// with pprof-format (npm), an encoder independent of the plugin's decoder.
import { closeSync, mkdirSync, openSync, ftruncateSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { FIXTURES_DIR, requirePlugin } from '@hotpath/headless/env.mjs';

const { Function: PFunction, Line, Location, Profile, Sample, StringTable, ValueType } = requirePlugin('pprof-format');

/** main.main -> main.work, one sample per entry of `values` ([samples, cpu] each). */
export function encodeProfile(values, { types = ['samples', 'cpu'], edit } = {}) {
  const st = new StringTable();
  const p = new Profile({
    sampleType: types.map((t) => new ValueType({ type: st.dedup(t), unit: st.dedup(t === 'cpu' ? 'nanoseconds' : 'count') })),
    sample: values.map((v) => new Sample({ locationId: [1, 2], value: v })),
    location: [1, 2].map((id) => new Location({ id, line: [new Line({ functionId: id })] })),
    function: ['main.work', 'main.main'].map((n, i) => new PFunction({ id: i + 1, name: st.dedup(n) })),
    stringTable: st,
  });
  edit?.(p);
  return p.encode();
}

/**
 * A protobuf of `n` identical samples (1 location, values [1, 10]) around one function: written
 * as bytes directly, since encoding 10M Sample objects would take minutes.
 */
export function manySamples(n) {
  const head = encodeProfile([]);
  // sample: field 2, length 7: location (1) = [1] packed, value (2) = [1, 10] packed
  const sample = Buffer.from([0x12, 0x07, 0x0a, 0x01, 0x01, 0x12, 0x02, 0x01, 0x0a]);
  const out = Buffer.allocUnsafe(head.length + n * sample.length);
  Buffer.from(head).copy(out, 0);
  out.fill(sample, head.length);
  return out;
}

function zstdCut() {
  const zst = readFileSync(join(FIXTURES_DIR, 'corpus/python/python.ddtrace.pprof.zst'));
  return zst.subarray(0, zst.length >> 1);
}

/** [{ name, file, message: RegExp }] of inputs that must be refused with exit 3 and no output. */
export function writeBadInputs(dir) {
  mkdirSync(dir, { recursive: true });
  const file = (name, bytes) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const good = encodeProfile([[1, 10]]);
  const gz = gzipSync(good);
  const huge = join(dir, 'huge.pb.gz');
  // sparse: 1 GiB on the size but no blocks on disk; the CLI must refuse it on its size
  const fd = openSync(huge, 'w');
  ftruncateSync(fd, 1024 ** 3);
  closeSync(fd);
  mkdirSync(join(dir, 'a-directory'), { recursive: true });
  return [
    { name: 'empty file', file: file('empty.pb.gz', Buffer.alloc(0)), message: /: empty input file/ },
    { name: 'a directory', file: join(dir, 'a-directory'), message: /: is a directory, not a pprof file$/ },
    { name: 'random bytes', file: file('random.bin', Buffer.from('a1b2c3d4e5f6 not a profile, just words and bytes \x07\x08')), message: /: unrecognized profile format/ },
    { name: 'truncated gzip', file: file('truncated.pb.gz', gz.subarray(0, gz.length - 10)), message: /: not a valid gzip-compressed pprof profile \(decompressing profile/ },
    { name: 'truncated raw protobuf', file: file('truncated.pb', good.subarray(0, good.length - 3)), message: /: unrecognized profile format/ },
    {
      name: 'function id 0',
      file: file('function0.pb', encodeProfile([[1, 10]], { edit: (p) => (p.function[0].id = 0) })),
      message: /: malformed profile: found function with reserved ID=0\.$/,
    },
    { name: 'zero-total sample type', file: file('idle.pb', encodeProfile([[3, 0]])), message: /: no samples of type cpu in this profile \(types with samples: samples\)\.$/ },
    { name: 'legacy text format', file: file('legacy.heap', 'heap profile:    1:  8 [   1:  8] @ heapprofile\n      1:  8 [ 1: 8] @ 0x1 0x2\n'), message: /: this is pprof's legacy text format \(heap profile\): convert it with `go tool pprof -proto FILE > FILE\.pb\.gz`\.$/ },
    // real files from the corpus: a JFR recording (jfr-parser's test data) and dd-trace-py's zstd pprof, cut short
    { name: 'JFR recording', file: file('recording.jfr.gz', readFileSync(join(FIXTURES_DIR, 'corpus/jfr/nativemem.jfr.gz'))), message: /: this is a JFR recording \(Java Flight Recorder\), not pprof: read it through Pyroscope/ },
    { name: 'truncated zstd', file: file('truncated.pprof.zst', zstdCut()), message: /: not a valid zstd-compressed pprof profile \(decompressing profile/ },
    { name: '1 GiB file', file: huge, message: /: 1024 MiB, above the 256 MiB hotpath reads \(MAX_PPROF_BYTES\)$/ },
    { name: 'negative values, not a pprof diff', file: file('negative.pb', encodeProfile([[1, 10], [1, -4]])), message: /negative sample values but no sample labelled pprof::base/ },
  ];
}
