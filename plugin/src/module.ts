import { PanelPlugin } from '@grafana/data';

import { HotpathPanel } from './components/HotpathPanel';
import { HotpathOptions } from './constants';
import { buildOptions } from './options';

export const plugin = new PanelPlugin<HotpathOptions>(HotpathPanel).setPanelOptions(buildOptions);

// For issue 5's overlay and the browser harness: the container and the pure data layer.
export { FlameGraphExplorer } from './components/FlameGraphExplorer';
export * as hotpathData from './data';
