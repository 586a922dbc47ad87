// The answer a message leads with ranks as the panel's changes table does (the profile core's
// changesByUnit): the service's code first, then the runtime's own work and the profiler's, which
// can grow more than the culprit (a profiler merging bigger profiles, a GC worker) and are still
// not what to change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fromAscii } from '@hotpath/profile-core/testing';
import { computeAnswer } from '../lib/answer.mjs';

const read = (art) => ({ tree: fromAscii(art, 'ns'), unit: 'ns' });

describe('the answer\'s changes', () => {
  it('lead with the service\'s code; the profiler\'s and the runtime\'s own rows follow, whatever their size', () => {
    const baseline = read(`
total 400
├─ main.handler 100
│  ├─ main.render 90
│  └─ compress/flate.NewWriter 10
│     └─ runtime.memclrNoHeapPointers 5
├─ runtime.gcBgMarkWorker 100
└─ runtime/pprof.profileWriter 200
`);
    const incident = read(`
total 1000
├─ main.handler 290
│  ├─ main.render 90
│  └─ compress/flate.NewWriter 200
│     └─ runtime.memclrNoHeapPointers 150
├─ runtime.gcBgMarkWorker 210
└─ runtime/pprof.profileWriter 500
`);
    const a = computeAnswer({ baseline, incident, requests: { baseline: 100, incident: 100 } });
    // the profiler grew by 300 and the GC worker by 110, the culprit by 190 (memclr charged to it)
    assert.deepEqual(
      a.changes.map((c) => [c.function, c.via]),
      [
        ['compress/flate.NewWriter', 'runtime.memclrNoHeapPointers'],
        ['runtime/pprof.profileWriter', undefined],
        ['runtime.gcBgMarkWorker', undefined],
      ]
    );
    assert.equal(a.changes[0].perRequestDelta, 1.9);
  });
});
