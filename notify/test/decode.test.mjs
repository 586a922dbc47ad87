// The decode worker (lib/decode.mjs): each profile answer is read once, by the profile core's
// reader, into the tree the answer and the picture are made from; what pprof refuses is refused
// (a truncated message, a cut gzip), signed int64 values stay signed (a `-diff_base` profile is
// two trees), and the inflated size stays bounded.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';

import { pprofToTree } from '@hotpath/profile-core';
import { FIXTURES_DIR, requirePlugin } from '@hotpath/headless/env.mjs';

import { decodeProfile } from '../lib/decode.mjs';

const { Function: PFunction, Label, Line, Location, Profile, Sample, StringTable, ValueType } = requirePlugin('pprof-format');

const fixture = (name) => readFileSync(join(FIXTURES_DIR, name));

/** A CPU profile of `main.work` samples: [value, base?] each (base: labelled pprof::base=true, as `-diff_base` writes). */
function cpuProfile(samples) {
  const st = new StringTable();
  const fn = new PFunction({ id: 1, name: st.dedup('main.work') });
  const loc = new Location({ id: 1, line: [new Line({ functionId: 1 })] });
  return new Profile({
    sampleType: [new ValueType({ type: st.dedup('cpu'), unit: st.dedup('nanoseconds') })],
    sample: samples.map(([v, base]) => new Sample({ locationId: [1], value: [v], label: base ? [new Label({ key: st.dedup('pprof::base'), str: st.dedup('true') })] : [] })),
    location: [loc],
    function: [fn],
    stringTable: st,
  }).encode();
}

describe('decodeProfile: one read, in the worker', () => {
  it('reads a capture into the tree the core reads from the same bytes, gzipped or not', async () => {
    const zipped = fixture('println-incident.cpu.pb.gz');
    const expected = pprofToTree(zipped, 'cpu').tree;
    for (const body of [zipped, gunzipSync(zipped)]) {
      const r = await decodeProfile(body, { sampleType: 'cpu' });
      assert.equal(r.samples, 163);
      assert.equal(r.total, expected.total[0]);
      assert.equal(r.read.unit, 'ns');
      assert.equal(r.read.tree.size, expected.size);
      assert.deepEqual(r.read.tree.total, expected.total);
      assert.deepEqual(r.read.tree.parent, expected.parent);
      assert.deepEqual(r.read.tree.names, expected.names);
      // the inflated pprof, for the snapshot CLI renderer
      assert.deepEqual(Buffer.from(r.bytes), gunzipSync(zipped));
    }
  });

  it('keeps int64 values signed: a -diff_base profile is a comparison and a baseline', async () => {
    const r = await decodeProfile(cpuProfile([[10_000], [-4_000, true]]), { sampleType: 'cpu' });
    assert.equal(r.total, 10_000);
    assert.equal(r.read.baseline.total[0], 4_000);
  });

  it('refuses negative values that are no diff, in one line', async () => {
    await assert.rejects(decodeProfile(cpuProfile([[-5]]), { sampleType: 'cpu' }), /^Error: this profile has negative sample values but no sample labelled pprof::base/);
  });

  it('refuses a truncated message and a cut gzip with pprof\'s words', async () => {
    const raw = gunzipSync(fixture('println-incident.cpu.pb.gz'));
    await assert.rejects(decodeProfile(raw.subarray(0, raw.length - 7), { sampleType: 'cpu' }), { name: 'Error', message: /^unrecognized profile format \(.*truncated/ });
    const zipped = fixture('println-incident.cpu.pb.gz');
    await assert.rejects(decodeProfile(zipped.subarray(0, zipped.length - 10), { sampleType: 'cpu' }), { message: /^not a valid gzip-compressed pprof profile .*unexpected EOF/ });
  });

  it('bounds the inflated size', async () => {
    const bomb = gzipSync(Buffer.alloc(8 << 20));
    await assert.rejects(decodeProfile(bomb, { sampleType: 'cpu', maxBytes: 1 << 20 }), { message: /^the profile is [\d.]+ MiB decompressed \(and more\), above the 1 MiB hotpath reads/ });
  });

  it('answers an empty window (an empty message) with no samples and no tree', async () => {
    assert.deepEqual(await decodeProfile(new Uint8Array(0), { sampleType: 'cpu' }), { bytes: new Uint8Array(0), samples: 0, total: 0, read: undefined });
    const none = await decodeProfile(cpuProfile([]), { sampleType: 'cpu' });
    assert.equal(none.samples, 0);
    assert.equal(none.read, undefined);
  });
});
