/**
 * The panel's view kinds, each defined once: its closed set, its type and the words of the
 * control that switches it (a kind added without its words does not compile, nor does one whose
 * rendering is missing: ProfileArea and the explorer's panes are keyed by these types). Each
 * view renders from its folder beside this file; docs/architecture.md lists the places a new
 * one touches.
 */
import { choices } from '../choices';

/**
 * The overlay's views of its two windows: the header's radio, and `hotpath-view` in the URL
 * (windows/urlState.ts), so a link opens one. Rendered by Overlay/ProfileArea.tsx.
 */
export const VIEWS = ['flame', 'diff', 'side', 'changes'] as const;
export type ViewKind = (typeof VIEWS)[number];

export const VIEW_OPTIONS = choices(VIEWS, {
  flame: { label: 'Flame graph', description: 'The selected window (or the dashboard range)' },
  diff: { label: 'Diff', description: 'The selected window against its baseline' },
  side: { label: 'Side by side', description: 'Baseline and selection next to each other' },
  changes: { label: 'Changes', description: 'The functions whose share changed most' },
});

/**
 * The panes of one profile's explorer: one pane, or the flame graph over a second one (like
 * Grafana 13's panes), picked in the toolbar. Rendered by FlameGraphExplorer's `PANES`.
 */
export type Pane = 'flame' | 'tree' | 'table';

const LAYOUTS = ['flame+table', 'flame+tree', 'flame', 'tree', 'table'] as const satisfies ReadonlyArray<Pane | `flame+${Pane}`>;
export type PaneLayout = (typeof LAYOUTS)[number];

export const PANE_LAYOUTS = choices(LAYOUTS, {
  'flame+table': { label: 'Graph + table' },
  'flame+tree': { label: 'Graph + tree' },
  flame: { label: 'Graph' },
  tree: { label: 'Call tree' },
  table: { label: 'Table' },
});

/** The main pane and the one below it, if any. */
export function panesOf(layout: PaneLayout): { main: Pane; second?: Pane } {
  const [main, second] = layout.split('+') as Pane[];
  return { main, second };
}

/**
 * The flame graph's orientation: the toolbar's toggle (the short name) and the graphMode option
 * (options.ts, the long name). render/layout.ts lays the rows out by it.
 */
export const GRAPH_MODES = ['icicle', 'flame'] as const;
export type GraphMode = (typeof GRAPH_MODES)[number];

export const GRAPH_MODE_NAMES: Record<GraphMode, { short: string; long: string }> = {
  icicle: { short: 'Icicle', long: 'Icicle (root on top)' },
  flame: { short: 'Flame', long: 'Flame (root at the bottom)' },
};

/** The mode the toolbar's toggle switches to. */
export const nextGraphMode = (mode: GraphMode): GraphMode => GRAPH_MODES[(GRAPH_MODES.indexOf(mode) + 1) % GRAPH_MODES.length];

/**
 * One function's sandwich: the flame and tree panes show its callers above and its callees
 * below, merged from every place it occurs, instead of the whole profile (Sandwich/). The
 * toolbar's toggle, shown while a function is picked.
 */
export const SANDWICH = {
  label: 'Sandwich',
  description: (name: string) => `Callers above, callees below: ${name}, merged from every place it occurs`,
};
