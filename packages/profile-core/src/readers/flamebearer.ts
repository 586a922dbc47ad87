import type { DataFrame, FieldType } from '@grafana/data';

import { Tree } from '../tree/tree';

/**
 * Pyroscope's flamebearer (the `flamegraph` of querier.v1 SelectMergeStacktraces): `names`,
 * and `levels[d].values` as flat 4-tuples (offset relative to the previous bar's end on that
 * level, total, self, index into names). int64s arrive as JSON strings.
 */
export interface Flamebearer {
  names: string[];
  levels: Array<{ values: Array<number | string> } | Array<number | string>>;
  total?: number | string;
  maxSelf?: number | string;
}

const START_OFFSET = 0;
const VALUE_OFFSET = 1;
const SELF_OFFSET = 2;
const NAME_OFFSET = 3;
const ITEM_OFFSET = 4;

interface ProfileTreeNode {
  start: number;
  value: number;
  self: number;
  level: number;
  name: string;
  nodes: ProfileTreeNode[];
}

function levelValues(level: Flamebearer['levels'][number]): number[] {
  const values = Array.isArray(level) ? level : level.values ?? [];
  return values.map((v) => (typeof v === 'string' ? Number(v) : v));
}

/** The unit Grafana shows for a profile type id `name:type:unit:periodType:periodUnit`. */
export function unitFromProfileType(profileTypeId: string): string {
  const unit = profileTypeId.split(':')[2] ?? '';
  if (unit === 'nanoseconds') {
    return 'ns';
  }
  if (unit === 'count') {
    return 'short';
  }
  return unit;
}

/**
 * levelsToTree of grafana/grafana pkg/tsdb/grafana-pyroscope-datasource/query.go, step by
 * step, quirks included: the root's name is read from `names[levels[0].values[0]]` (the start
 * offset, 0 in every real flamebearer, so "total"), and a bar that fits no remaining parent
 * ends the level (the backend logs and breaks).
 */
export function levelsToTree(fb: Flamebearer): ProfileTreeNode | undefined {
  const levels = fb.levels.map(levelValues);
  const names = fb.names;
  if (levels.length === 0) {
    return undefined;
  }
  const tree: ProfileTreeNode = {
    start: 0,
    value: levels[0][VALUE_OFFSET],
    self: levels[0][SELF_OFFSET],
    level: 0,
    name: names[levels[0][0]],
    nodes: [],
  };
  // the backend shifts parentsStack; an index into it does the same without copying
  let parentsStack: ProfileTreeNode[] = [tree];
  let currentLevel = 1;
  while (currentLevel < levels.length) {
    if (parentsStack.length === 0) {
      break; // "ParentsStack is empty but we are not at the last level"
    }
    const nextParentsStack: ProfileTreeNode[] = [];
    let next = 0;
    let currentParent = parentsStack[next++];
    let itemIndex = 0;
    let offset = 0;
    const values = levels[currentLevel];
    while (itemIndex < values.length) {
      const itemStart = values[itemIndex + START_OFFSET] + offset;
      const itemValue = values[itemIndex + VALUE_OFFSET];
      const selfValue = values[itemIndex + SELF_OFFSET];
      const itemEnd = itemStart + itemValue;
      const parentEnd = currentParent.start + currentParent.value;
      if (itemStart >= currentParent.start && itemEnd <= parentEnd) {
        const item: ProfileTreeNode = {
          start: itemStart,
          value: itemValue,
          self: selfValue,
          level: currentLevel,
          name: names[values[itemIndex + NAME_OFFSET]],
          nodes: [],
        };
        currentParent.nodes.push(item);
        nextParentsStack.push(item);
        itemIndex += ITEM_OFFSET;
        offset = itemEnd;
      } else {
        if (next >= parentsStack.length) {
          break; // "ParentsStack is empty but there are still items in current level"
        }
        currentParent = parentsStack[next++];
      }
    }
    parentsStack = nextParentsStack;
    currentLevel++;
  }
  return tree;
}

/**
 * levelsToTree and the backend's depth-first walk in one pass over flat arrays: the same rows
 * in the same order (flamebearer.test.ts checks it against levelsToTree), without an object
 * per node. A level's bars are appended parent by parent, so a node's children are contiguous:
 * first child and count are enough.
 */
function levelsToRows(fb: Flamebearer) {
  const levels = fb.levels.map(levelValues);
  const names = fb.names;
  let n = 0;
  for (const l of levels) {
    n += Math.floor(l.length / ITEM_OFFSET);
  }
  const start = new Float64Array(n);
  const val = new Float64Array(n);
  const slf = new Float64Array(n);
  const nameIx = new Int32Array(n);
  const depth = new Int32Array(n);
  const firstChild = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  let count = 0;
  if (levels.length > 0) {
    val[0] = levels[0][VALUE_OFFSET];
    slf[0] = levels[0][SELF_OFFSET];
    nameIx[0] = levels[0][0];
    count = 1;
    let parentsFrom = 0;
    let parentsTo = 1;
    for (let currentLevel = 1; currentLevel < levels.length && parentsTo > parentsFrom; currentLevel++) {
      const values = levels[currentLevel];
      const levelFrom = count;
      let parent = parentsFrom;
      let itemIndex = 0;
      let offset = 0;
      while (itemIndex < values.length) {
        const itemStart = values[itemIndex + START_OFFSET] + offset;
        const itemValue = values[itemIndex + VALUE_OFFSET];
        const itemEnd = itemStart + itemValue;
        if (itemStart >= start[parent] && itemEnd <= start[parent] + val[parent]) {
          const c = count++;
          start[c] = itemStart;
          val[c] = itemValue;
          slf[c] = values[itemIndex + SELF_OFFSET];
          nameIx[c] = values[itemIndex + NAME_OFFSET];
          depth[c] = currentLevel;
          if (firstChild[parent] < 0) {
            firstChild[parent] = c;
          }
          childCount[parent]++;
          itemIndex += ITEM_OFFSET;
          offset = itemEnd;
        } else {
          if (parent + 1 >= parentsTo) {
            break; // "ParentsStack is empty but there are still items in current level"
          }
          parent++;
        }
      }
      parentsFrom = levelFrom;
      parentsTo = count;
    }
  }
  const level = new Array<number>(count);
  const value = new Array<number>(count);
  const self = new Array<number>(count);
  const label = new Array<number>(count);
  const text: string[] = [];
  const enumIndex = new Map<string, number>();
  const stack = new Int32Array(count + 1);
  let sp = 0;
  let row = 0;
  if (count > 0) {
    stack[sp++] = 0;
  }
  while (sp > 0) {
    const i = stack[--sp];
    level[row] = depth[i];
    value[row] = val[i];
    self[row] = slf[i];
    const name = names[nameIx[i]];
    let idx = enumIndex.get(name);
    if (idx === undefined) {
      idx = text.length;
      enumIndex.set(name, idx);
      text.push(name);
    }
    label[row++] = idx;
    for (let k = childCount[i] - 1; k >= 0; k--) {
      stack[sp++] = firstChild[i] + k;
    }
  }
  return { level, value, self, label, text };
}

/**
 * flamebearer -> nested-set DataFrame, exactly as Grafana's backend builds it
 * (responseToDataFrames: levelsToTree, then treeToNestedSetDataFrame walking depth-first,
 * label as an enum field numbered by first appearance). `unit` is Grafana's unit
 * (see unitFromProfileType). An empty flamebearer gives a frame with no rows.
 */
export function flamebearerToFrame(fb: Flamebearer, unit: string, opts: { refId?: string } = {}): DataFrame {
  const { level, value, self, label, text } = levelsToRows(fb);
  const NUMBER = 'number' as FieldType;
  return {
    name: 'response',
    refId: opts.refId,
    meta: { preferredVisualisationType: 'flamegraph' },
    length: level.length,
    fields: [
      { name: 'level', type: NUMBER, config: {}, values: level },
      { name: 'value', type: NUMBER, config: { unit }, values: value },
      { name: 'self', type: NUMBER, config: { unit }, values: self },
      { name: 'label', type: 'enum' as FieldType, config: { type: { enum: { text } } }, values: label },
    ],
  };
}

/**
 * tree -> flamebearer, laid out as Pyroscope lays it out (bars of a level in x order, offsets
 * relative to the previous bar's end on that level, names interned). With `int64AsString`
 * (the default) numbers are JSON strings, as in the querier's JSON API. A stand-in datasource
 * can serve pprof captures through this and flamebearerToFrame, the path Grafana takes.
 */
export function treeToFlamebearer(tree: Tree, opts: { int64AsString?: boolean } = {}): Flamebearer {
  const asString = opts.int64AsString ?? true;
  const names: string[] = [];
  const ids = new Map<string, number>();
  const levels: number[][] = [];
  const lastEnd: number[] = [];
  const start = new Float64Array(tree.size);
  const nextStart: number[] = [0];
  for (let i = 0; i < tree.size; i++) {
    const l = tree.level[i];
    start[i] = nextStart[l] ?? 0;
    nextStart[l] = start[i] + tree.total[i];
    nextStart[l + 1] = start[i];
    const name = tree.names[tree.nameId[i]];
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      ids.set(name, id);
    }
    levels[l] = levels[l] ?? [];
    // pre-order visits each level left to right, so offsets are relative to the previous bar
    levels[l].push(start[i] - (lastEnd[l] ?? 0), tree.total[i], tree.self[i], id);
    lastEnd[l] = start[i] + tree.total[i];
  }
  let maxSelf = 0;
  for (let i = 0; i < tree.size; i++) {
    maxSelf = Math.max(maxSelf, tree.self[i]);
  }
  const conv = (v: number) => (asString ? String(v) : v);
  return {
    names,
    levels: levels.map((values) => ({ values: values.map(conv) })),
    total: conv(tree.size ? tree.total[0] : 0),
    maxSelf: conv(maxSelf),
  };
}
