/** The benchmark page: the host page plus @grafana/flamegraph's FlameGraph and a profile generator. */
import './host';

import { FlameGraph } from '@grafana/flamegraph';
import { createTheme } from '@grafana/data';

import { generateTree } from '../../../plugin/src/data/generate';
import { treeToFrame } from '../../../plugin/src/data/frame';

(window as unknown as Record<string, unknown>).hotpathBench = {
  FlameGraph,
  createTheme,
  /** a generated profile as the nested-set frame Grafana's Pyroscope datasource returns */
  generateFrame: (nodes: number, seed: number, perturb?: number) => treeToFrame(generateTree(nodes, seed, { perturb })),
};
