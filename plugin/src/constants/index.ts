import type { BaselineMode } from '../overlay/windows';
import { DiffScheme } from '../render/colors';
import { GraphMode } from '../render/layout';

export interface HotpathOptions {
  /** refId of the profile query (its target is re-run per window); empty: the first profile frame */
  profileRefId: string;
  /** refIds of the time series drawn on the strip; empty: every time-series frame that is not the anomaly query */
  seriesRefIds: string[];
  /** refId of the anomaly series (ALERTS, or any 0/1 series) shaded on the strip; empty: frames with an alertname label */
  anomalyRefId: string;
  /**
   * refId of a second, fixed profile query to diff against when no window is selected
   * (e.g. the same query with a time shift); empty: none
   */
  baselineRefId: string;
  /** how the baseline window of a selection is chosen (a Shift-drag always picks one by hand) */
  baselineMode: BaselineMode;
  /** icicle (root on top, as Grafana draws it) or flame (root at the bottom) */
  graphMode: GraphMode;
  /** diff colours and window colours: red/green, or blue/red for colour-blind readers */
  colorScheme: DiffScheme;
  /** above this many nodes the lightest ones are folded into "other" (the panel says so) */
  maxNodes: number;
  /** show the top table (and, for a diff, the biggest changes) under the graph */
  showTable: boolean;
  /** height of the time-series strip in pixels; 0 hides it (and window selection) */
  stripHeight: number;
  /** refId of the request-rate query (req/s) whose integral over a window is its request count; empty: series with unit req/s */
  requestsRefId: string;
  /** the label that names an instance, on the profiles and the request-rate series (the siblings baseline) */
  siblingLabel: string;
}

export const DEFAULT_OPTIONS: HotpathOptions = {
  profileRefId: '',
  seriesRefIds: [],
  anomalyRefId: '',
  baselineRefId: '',
  baselineMode: 'auto',
  graphMode: 'icicle',
  colorScheme: 'red-green',
  maxNodes: 500000,
  showTable: true,
  stripHeight: 110,
  requestsRefId: '',
  siblingLabel: 'instance',
};

export const PLUGIN_ID = 'hotpath-overlay-panel';

export { TEST_IDS } from './testIds';
