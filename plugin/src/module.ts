import { PanelPlugin } from '@grafana/data';

import { OverlayPanel } from './components/overlay/OverlayPanel';
import { buildOptions, HotpathOptions } from './options';
import { migrateOptions } from './overlay/migrate';

export const plugin = new PanelPlugin<HotpathOptions>(OverlayPanel).setPanelOptions(buildOptions).setMigrationHandler(migrateOptions);

// For the browser harness, the snapshot CLI and the demo sandbox: the container and the pure data layer.
export { FlameGraphExplorer } from './components/FlameGraphExplorer';
export * as hotpathData from './data';
