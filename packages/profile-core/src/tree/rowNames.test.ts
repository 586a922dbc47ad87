import { FieldType } from '@grafana/data';
import fc from 'fast-check';

import { arbTree } from '../testing/arbitrary';
import { limitNodes } from './collapse';
import { readOrThrow, treeToFrame } from '../readers/frame';
import { treeTruncation } from '../testing/pyroscopeTruncate';
import { sandwich } from '../views/sandwich';
import { searchTree } from '../views/search';
import { subtree } from './focus';
import { functionRows } from '../analysis/topTable';
import { toAscii } from '../testing/ascii';
import { byName, Tree } from './tree';

/** The tree's frame with string labels, one per row, as datasources other than Pyroscope send it. */
function stringFrame(tree: Tree) {
  const frame = treeToFrame(tree);
  const label = frame.fields.find((f) => f.name === 'label')!;
  label.type = FieldType.string;
  label.config = {};
  label.values = Array.from(tree.nameId, (id) => tree.names[id]);
  return frame;
}

const byNameOrder = (rows: Array<{ name: string }>) => rows.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

describe('string labels: one name per row until something groups by name', () => {
  it('reads the labels as they are, one id per row, and byName interns them once', () => {
    const tree = readOrThrow(stringFrame(readOrThrow(treeToFrame(fromRows()))));
    expect(tree.names).toEqual(['total', 'a', 'b', 'a', 'b']);
    expect(Array.from(tree.nameId)).toEqual([0, 1, 2, 3, 4]);
    const named = byName(tree);
    expect(named.names).toEqual(['total', 'a', 'b']);
    expect(Array.from(named.nameId)).toEqual([0, 1, 2, 1, 2]);
    // the same nodes: every column but the names is the tree's own
    expect(named.total).toBe(tree.total);
    expect(named.end).toBe(tree.end);
    // interned once per names array: a second call shares the first one's ids
    expect(byName(tree).nameId).toBe(named.nameId);
    // interned trees come back as they are
    expect(byName(named)).toBe(named);
    const enumTree = readOrThrow(treeToFrame(named));
    expect(byName(enumTree)).toBe(enumTree);
  });

  it('names a label that is not a string as a string (null and undefined as empty)', () => {
    const frame = stringFrame(fromRows());
    frame.fields.find((f) => f.name === 'label')!.values = ['total', 7, null, undefined, 'b'];
    const tree = readOrThrow(frame);
    expect(tree.names).toEqual(['total', '7', '', '', 'b']);
    expect(byName(tree).names).toEqual(['total', '7', '', 'b']);
  });

  it('property: the tables, search, sandwich, folding and truncation read a string frame as they read its enum frame', () => {
    fc.assert(
      fc.property(arbTree, fc.constantFrom('main', 'write', 'io.Copy'), (tree, fn) => {
        // one function named as Pyroscope names what it cut
        const source = { ...tree, names: tree.names.map((n) => (n === 'json.Marshal' ? 'other' : n)) };
        const rows = readOrThrow(stringFrame(source));
        const interned = readOrThrow(treeToFrame(source));
        expect(rows.names.length).toBe(rows.size);
        expect(byNameOrder(functionRows(rows))).toEqual(byNameOrder(functionRows(interned)));
        const a = searchTree(rows, { text: fn });
        const b = searchTree(interned, { text: fn });
        expect(a.ok && b.ok && a.result && b.result && [Array.from(a.result.matches), a.result.matchedValue]).toEqual(
          b.ok && b.result && [Array.from(b.result.matches), b.result.matchedValue]
        );
        const s = sandwich(rows, fn);
        const t = sandwich(interned, fn);
        expect(s && [toAscii(s.callers), toAscii(s.callees), s.occurrences]).toEqual(t && [toAscii(t.callers), toAscii(t.callees), t.occurrences]);
        const max = Math.max(4, Math.ceil(rows.size * 0.8));
        const folded = limitNodes(rows, max).tree;
        expect(toAscii(folded)).toBe(toAscii(limitNodes(interned, max).tree));
        expect(byNameOrder(functionRows(folded))).toEqual(byNameOrder(functionRows(limitNodes(interned, max).tree)));
        expect(treeTruncation(rows)).toEqual(treeTruncation(interned));
        // a subtree shares the names of its tree, not its ids
        const sub = rows.size > 1 ? 1 : 0;
        expect(byNameOrder(functionRows(subtree(rows, sub)))).toEqual(byNameOrder(functionRows(subtree(interned, sub))));
      })
    );
  });
});

/** total -> a -> b, total -> a -> b again under a second "a" row: repeated names on separate rows */
function fromRows(): Tree {
  const frame = {
    fields: [
      { name: 'level', type: FieldType.number, config: {}, values: [0, 1, 2, 1, 2] },
      { name: 'value', type: FieldType.number, config: {}, values: [10, 6, 4, 4, 1] },
      { name: 'self', type: FieldType.number, config: {}, values: [0, 2, 4, 3, 1] },
      { name: 'label', type: FieldType.string, config: {}, values: ['total', 'a', 'b', 'a', 'b'] },
    ],
    length: 5,
  };
  return readOrThrow(frame);
}
