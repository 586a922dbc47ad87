import { PanelPlugin } from '@grafana/data';

import { OverlayPanel } from './components/Overlay/OverlayPanel';
import { buildOptions, HotpathOptions } from './options';
import { migrateOptions } from './migrate';

export const plugin = new PanelPlugin<HotpathOptions>(OverlayPanel).setPanelOptions(buildOptions).setMigrationHandler(migrateOptions);
