import { choices } from '../choices';

/** What the explorer shows: one pane, or the flame graph over a second one (like Grafana 13's panes). */
export type Pane = 'flame' | 'tree' | 'table';

const LAYOUTS = ['flame+table', 'flame+tree', 'flame', 'tree', 'table'] as const;
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
