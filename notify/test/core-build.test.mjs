// What hotpath-notify loads from the profile core: its ESM build, dist/index.mjs, holds the core
// and none of its test aids (the synthetic and ASCII trees, Pyroscope's truncation reproduced);
// those are an entry of their own, '@hotpath/profile-core/testing' (dist/testing.mjs), for tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import * as core from '@hotpath/profile-core';
import * as testing from '@hotpath/profile-core/testing';

const TEST_AIDS = ['fromAscii', 'toAscii', 'generateTree', 'pyroscopeTruncate', 'treeTruncation', 'printlnBefore', 'printlnAfter', 'recursive'];
// a text of each aid's body that minifying keeps: generateTree's package names, fromAscii's error
const AID_TEXTS = ['github.com/golang/protobuf/proto', 'is not "name total [| right]"'];

describe('the profile core as hotpath-notify loads it', () => {
  it('exports no test aid; the testing entry exports each of them', () => {
    assert.deepEqual(TEST_AIDS.filter((name) => name in core), []);
    assert.deepEqual(TEST_AIDS.filter((name) => typeof testing[name] !== 'function'), []);
  });

  it("dist/index.mjs holds no test aid's code; dist/testing.mjs does", () => {
    const text = (specifier) => readFileSync(fileURLToPath(import.meta.resolve(specifier)), 'utf8');
    const index = text('@hotpath/profile-core');
    assert.match(fileURLToPath(import.meta.resolve('@hotpath/profile-core')), /dist\/index\.mjs$/);
    assert.deepEqual(AID_TEXTS.filter((t) => index.includes(t)), []);
    const aids = text('@hotpath/profile-core/testing');
    assert.deepEqual(AID_TEXTS.filter((t) => !aids.includes(t)), []);
  });

  it("the two entries share one tree module: a test aid groups by name the rows the core's reader read", () => {
    // a string-label frame: the reader keeps its labels one per row and marks them so in the tree
    // module's memory (rowNamed); treeTruncation, a test aid, asks that memory to group them
    // (byName). A second copy of the tree module would not know them: one "other" of two.
    const frame = {
      fields: [
        { name: 'level', type: 'number', config: {}, values: [0, 1, 2, 1, 2] },
        { name: 'value', type: 'number', config: {}, values: [10, 6, 2, 4, 1] },
        { name: 'self', type: 'number', config: {}, values: [0, 4, 2, 3, 1] },
        { name: 'label', type: 'string', config: {}, values: ['total', 'main.a', 'other', 'main.b', 'other'] },
      ],
      length: 5,
    };
    const truncation = testing.treeTruncation(core.readOrThrow(frame));
    assert.deepEqual([truncation.rows, truncation.other], [2, 3]);
  });
});
