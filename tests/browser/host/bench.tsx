/**
 * The benchmark page: the host page plus @grafana/flamegraph's FlameGraph and the frame shapes.
 * bench.mjs builds it on the grafana-13-bench host (Grafana 13.2's shared modules, React 19, the
 * @grafana/flamegraph Grafana 13 ships); bench-per-request.mjs on the default host.
 */
import '../../../packages/headless/host/host';

import { FlameGraph } from '@grafana/flamegraph';
import { createTheme } from '@grafana/data';

import { treeToFrame } from '@hotpath/profile-core';
import { generateTree } from '@hotpath/profile-core/testing';
import { frameStats, SHAPE_NOTES, shapeFrame, SHAPES } from './shapes';

(window as unknown as Record<string, unknown>).hotpathBench = {
  FlameGraph,
  createTheme,
  /** a generated profile as the nested-set frame Grafana's Pyroscope datasource returns */
  generateFrame: (nodes: number, seed: number, perturb?: number) => treeToFrame(generateTree(nodes, seed, { perturb })),
  shapeFrame,
  frameStats,
  SHAPES,
  SHAPE_NOTES,
};
