import { DataFrame, FieldOverrideContext, PanelOptionsEditorBuilder, SelectableValue } from '@grafana/data';

import { choices } from './choices';
import { DIFF_SCHEMES, DiffScheme } from './render/colors';
import { GRAPH_MODE_NAMES, GRAPH_MODES, GraphMode } from './components/types';
import { BASELINE_MODES, BaselineMode } from '@hotpath/profile-core';

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
  /** refId of one request rate per instance, for the siblings baseline; empty: the request-rate series, split by the instance label */
  instanceRequestsRefId: string;
  /** the label that names an instance, on the profiles and the request-rate series (the siblings baseline) */
  siblingLabel: string;
  /** the profile labels that name a sample's endpoint, comma-separated, most specific first; empty: no endpoint picker */
  endpointLabels: string;
  /** refId of the request rate per endpoint (req/s, label `endpoint`), for values per request of one endpoint */
  endpointRequestsRefId: string;
}

export const DEFAULT_OPTIONS: HotpathOptions = {
  profileRefId: '',
  seriesRefIds: [],
  anomalyRefId: '',
  baselineRefId: '',
  baselineMode: 'auto',
  graphMode: 'icicle',
  colorScheme: 'red-green',
  maxNodes: 1000000,
  showTable: true,
  stripHeight: 110,
  requestsRefId: '',
  instanceRequestsRefId: '',
  siblingLabel: 'instance',
  endpointLabels: '',
  endpointRequestsRefId: '',
};

/** The refIds in the panel's data, for the query pickers (any other value can be typed). */
function refIdOptions(empty: string) {
  return async (context: FieldOverrideContext): Promise<Array<SelectableValue<string>>> => {
    const seen = new Set<string>();
    for (const f of (context.data ?? []) as DataFrame[]) {
      if (f.refId) {
        seen.add(f.refId);
      }
    }
    return [{ value: '', label: empty }, ...[...seen].sort().map((r) => ({ value: r, label: r }))];
  };
}

export function buildOptions(builder: PanelOptionsEditorBuilder<HotpathOptions>) {
  return builder
    .addSelect({
      path: 'profileRefId',
      name: 'Profile query',
      description: 'refId of the Pyroscope profile query. The panel re-runs its target for each selected window.',
      defaultValue: DEFAULT_OPTIONS.profileRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('First profile frame') },
      category: ['Queries'],
    })
    .addStringArray({
      path: 'seriesRefIds',
      name: 'Time-series queries',
      description: 'refIds of the time series drawn on the strip (CPU, request rate, CPU per request). Empty: every time-series query.',
      defaultValue: DEFAULT_OPTIONS.seriesRefIds,
      category: ['Queries'],
    })
    .addSelect({
      path: 'anomalyRefId',
      name: 'Anomaly query',
      description:
        'refId of a 0/1 series shaded on the strip as anomaly windows, e.g. ALERTS{alertname=~"CPUPerRequest.*"}. Empty: frames with an alertname label.',
      defaultValue: DEFAULT_OPTIONS.anomalyRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('Detect ALERTS series') },
      category: ['Queries'],
    })
    .addSelect({
      path: 'baselineRefId',
      name: 'Fixed baseline query',
      description: 'refId of a second profile query to diff against while no window is selected (e.g. the same query with a time shift).',
      defaultValue: DEFAULT_OPTIONS.baselineRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('None') },
      category: ['Queries'],
    })
    .addSelect({
      path: 'requestsRefId',
      name: 'Request-rate query',
      description:
        "refId of the request rate (req/s, e.g. job:requests:rate5m). Integrated over a window, it is the window's request count, for values per request; a range its query names (the 5m of rate5m, [5m]) is read, so a window right after a traffic step counts the whole step. Empty: series with unit req/s.",
      defaultValue: DEFAULT_OPTIONS.requestsRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('Series with unit req/s') },
      category: ['Queries'],
    })
    .addSelect({
      path: 'instanceRequestsRefId',
      name: 'Per-instance request-rate query',
      description:
        'refId of the request rate per instance (req/s, e.g. instance:requests:rate5m), for the siblings baseline: one instance\'s requests against the others\', so values per request compare instances with different traffic. Not drawn unless listed in Time-series queries. Empty: the request-rate series, split by the instance label.',
      defaultValue: DEFAULT_OPTIONS.instanceRequestsRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('The request-rate series, by instance') },
      category: ['Queries'],
    })
    .addSelect({
      path: 'endpointRequestsRefId',
      name: 'Per-endpoint request-rate query',
      description:
        "refId of the request rate per endpoint (req/s, label endpoint, e.g. sum by (endpoint) (job_endpoint:requests:rate5m)), for values per request of the endpoint picked: that endpoint's requests, not the service's. Not drawn unless listed in Time-series queries. Empty: per request is off while an endpoint is picked.",
      defaultValue: DEFAULT_OPTIONS.endpointRequestsRefId,
      settings: { allowCustomValue: true, options: [], getOptions: refIdOptions('None') },
      category: ['Queries'],
    })
    .addRadio({
      path: 'baselineMode',
      name: 'Baseline window',
      description: 'What a selection is compared with. Shift-drag on the strip always picks a baseline by hand.',
      defaultValue: DEFAULT_OPTIONS.baselineMode,
      settings: {
        options: choices(BASELINE_MODES, {
          auto: { label: 'Automatic', description: 'Same length, ending where the anomaly started (or where the selection starts)' },
          day: { label: '1 day earlier' },
          week: { label: '1 week earlier' },
          manual: { label: 'Shift-drag', description: 'None until one is dragged with Shift' },
          siblings: { label: 'Siblings', description: 'The same window on every other instance (hotpath-instance in the URL names the one compared)' },
        }),
      },
      category: ['Windows'],
    })
    .addTextInput({
      path: 'siblingLabel',
      name: 'Instance label',
      description: 'The label that names an instance on the profiles and the request-rate series; the siblings baseline matches on it.',
      defaultValue: DEFAULT_OPTIONS.siblingLabel,
      category: ['Windows'],
    })
    .addTextInput({
      path: 'endpointLabels',
      name: 'Endpoint labels',
      description:
        "The profile labels that name a sample's endpoint, comma-separated, most specific first (e.g. http.route,grpc.method,span_name: hotpath's endpointProfileLabels). Set, the header offers the profile's endpoints (from the profile query grouped by them) and narrows both windows to the one picked (hotpath-endpoint in the URL), and says how much of the profile no endpoint label explains. Empty: no picker.",
      defaultValue: DEFAULT_OPTIONS.endpointLabels,
      category: ['Windows'],
    })
    .addNumberInput({
      path: 'stripHeight',
      name: 'Strip height',
      description: 'Height of the time-series strip in pixels; 0 hides it.',
      defaultValue: DEFAULT_OPTIONS.stripHeight,
      settings: { min: 0, max: 400, integer: true },
      category: ['Windows'],
    })
    .addRadio({
      path: 'graphMode',
      name: 'Layout',
      defaultValue: DEFAULT_OPTIONS.graphMode,
      settings: {
        options: GRAPH_MODES.map((value) => ({ value, label: GRAPH_MODE_NAMES[value].long })),
      },
      category: ['Flame graph'],
    })
    .addRadio({
      path: 'colorScheme',
      name: 'Colour scheme',
      description: 'Diff colours, and the colours of the selected windows on the strip.',
      defaultValue: DEFAULT_OPTIONS.colorScheme,
      settings: {
        options: choices(DIFF_SCHEMES, {
          'red-green': { label: 'Red (more) / green (less)' },
          colorblind: { label: 'Colour-blind: red (more) / blue (less)' },
        }),
      },
      category: ['Flame graph'],
    })
    .addNumberInput({
      path: 'maxNodes',
      name: 'Max nodes',
      description: 'Larger profiles fold their lightest nodes into "other" (the panel says how many).',
      defaultValue: DEFAULT_OPTIONS.maxNodes,
      settings: { min: 100, integer: true },
      category: ['Flame graph'],
    })
    .addBooleanSwitch({
      path: 'showTable',
      name: 'Show tables',
      description: 'Top functions, and for a diff the biggest changes.',
      defaultValue: DEFAULT_OPTIONS.showTable,
      category: ['Flame graph'],
    });
}
