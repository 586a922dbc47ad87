import { PanelPlugin } from '@grafana/data';

import { OverlayPanel } from './components/overlay/OverlayPanel';
import { buildOptions, HotpathOptions } from './options';
import { migrateOptions } from './migrate';

export const plugin = new PanelPlugin<HotpathOptions>(OverlayPanel).setPanelOptions(buildOptions).setMigrationHandler(migrateOptions);
