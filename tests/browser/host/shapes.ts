/**
 * The frame shapes the benchmark renders: the same generator (packages/profile-core/src/testing/generate.ts)
 * bent into the shapes users get from their datasources. Each returns a nested-set frame as
 * Grafana's datasources hand it to panels.
 */
import { FieldType } from '@grafana/data';

import { Interner, limitNodes, ROOT_NAME, Tree, TreeBuilder, treeToFrame } from '@hotpath/profile-core';
import { generateTree } from '@hotpath/profile-core/testing';

export const SHAPES = ['pyroscope', 'strings', 'deep', 'wide', 'truncated'] as const;
export type Shape = (typeof SHAPES)[number];

/** What each shape stands for, for the report. */
export const SHAPE_NOTES: Record<Shape, string> = {
  pyroscope: "Pyroscope's frame: enum labels (one interned table), Go-like names, depth up to 40",
  strings: 'string labels, one per row, ~195k distinct names in 200k rows, every inner node self 0 (frames of other datasources)',
  deep: 'deep narrow stacks, JVM-like: 150 to 200 frames, long shared prefixes',
  wide: 'a wide flat tree: depth at most 3',
  truncated: "a tree cut to its size by Pyroscope's max-nodes: twice the nodes generated, the lightest folded into \"other\" nodes",
};

/** Recomputes totals bottom-up from self (pre-order reversed): keeps the frame consistent. */
function retotal(t: Tree) {
  t.total.set(t.self);
  for (let i = t.size - 1; i > 0; i--) {
    t.total[t.parent[i]] += t.total[i];
  }
}

/**
 * JVM-like stacks: 150 to 200 frames deep, sharing long framework prefixes (thread, executor,
 * filters) and branching near the top, as samples of a Java service look. Each new stack keeps
 * at least 100 frames of an earlier one and extends it to its own depth.
 */
function deepTree(nodes: number, seed: number, perturb?: number): Tree {
  let s = seed >>> 0 || 1;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const interner = new Interner([ROOT_NAME]);
  const names: number[] = [];
  for (let i = 0; i < 4000; i++) {
    names.push(interner.id(`com.example.svc${i % 37}.Handler${i % 211}.method${i.toString(36)}`));
  }
  const builder = new TreeBuilder(interner, ROOT_NAME, nodes + 256);
  const stacks: number[][] = [];
  const first: number[] = [];
  for (let d = 0; d < 180; d++) {
    first.push(names[Math.floor(rand() * names.length)]);
  }
  stacks.push(first);
  builder.addStack(first, 1);
  while (builder.size < nodes) {
    const base = stacks[Math.floor(rand() * stacks.length)];
    const keep = 100 + Math.floor(rand() * (base.length - 100));
    const depth = 150 + Math.floor(rand() * 51);
    const stack = base.slice(0, keep);
    while (stack.length < depth) {
      stack.push(names[Math.floor(rand() * names.length)]);
    }
    stacks.push(stack);
    const v = 1 + Math.floor(1000 * Math.pow(rand(), 6));
    builder.addStack(stack, perturb && stacks.length % 7 === 0 ? Math.floor(v * perturb) : v);
  }
  return builder.build('ns');
}

/** The frame of `shape` with about `nodes` rows. */
export function shapeFrame(shape: Shape, nodes: number, seed = 1, perturb?: number) {
  switch (shape) {
    case 'pyroscope':
      return treeToFrame(generateTree(nodes, seed, { perturb }));
    case 'deep':
      return treeToFrame(deepTree(nodes, seed, perturb));
    case 'wide':
      return treeToFrame(generateTree(nodes, seed, { perturb, maxDepth: 3 }));
    case 'truncated':
      return treeToFrame(limitNodes(generateTree(2 * nodes, seed, { perturb }), nodes).tree);
    case 'strings': {
      const t = generateTree(nodes, seed, { perturb });
      for (let i = 0; i < t.size; i++) {
        if (t.end[i] > i + 1) {
          t.self[i] = 0; // an inner node: its time is all in its callees
        }
      }
      retotal(t);
      const frame = treeToFrame(t);
      const label = frame.fields.find((f) => f.name === 'label')!;
      const distinct = Math.floor(nodes * 0.975);
      label.type = FieldType.string;
      label.config = {};
      // through JSON, as a datasource's response hands them over: flat strings, not the
      // concatenation ropes the template literal makes (which every reader would flatten first)
      label.values = JSON.parse(JSON.stringify(Array.from(t.nameId, (id, i) => (i === 0 ? t.names[id] : `${t.names[id]}.m${(i % distinct).toString(36)}`))));
      return frame;
    }
  }
}

/** Rows and deepest level of a frame (for the report). */
export function frameStats(frame: ReturnType<typeof treeToFrame>) {
  const level = frame.fields.find((f) => f.name === 'level')!.values as number[];
  let depth = 0;
  for (const l of level) {
    depth = Math.max(depth, l);
  }
  return { rows: frame.length, depth };
}
