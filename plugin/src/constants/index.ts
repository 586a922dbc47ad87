import { DiffScheme } from '../render/colors';
import { GraphMode } from '../render/layout';

export interface HotpathOptions {
  /** refId of the profile query; empty: the first profile frame */
  profileRefId: string;
  /** refId of a baseline profile query; when its frame is there the panel shows the diff */
  baselineRefId: string;
  /** icicle (root on top, as Grafana draws it) or flame (root at the bottom) */
  graphMode: GraphMode;
  /** diff colours: red/green, or blue/red for colour-blind readers */
  diffScheme: DiffScheme;
  /** above this many nodes the lightest ones are folded into "other" (the panel says so) */
  maxNodes: number;
  /** show the top table (and, for a diff, the biggest changes) under the graph */
  showTable: boolean;
}

export const DEFAULT_OPTIONS: HotpathOptions = {
  profileRefId: '',
  baselineRefId: '',
  graphMode: 'icicle',
  diffScheme: 'red-green',
  maxNodes: 500000,
  showTable: true,
};

export const PLUGIN_ID = 'hotpath-overlay-panel';

export { TEST_IDS } from './testIds';
