import { PanelOptionsEditorBuilder } from '@grafana/data';

import { DEFAULT_OPTIONS, HotpathOptions } from './constants';

export function buildOptions(builder: PanelOptionsEditorBuilder<HotpathOptions>) {
  return builder
    .addTextInput({
      path: 'profileRefId',
      name: 'Profile query',
      description: 'refId of the Pyroscope profile query. Empty: the first profile frame.',
      defaultValue: DEFAULT_OPTIONS.profileRefId,
      category: ['Data'],
    })
    .addTextInput({
      path: 'baselineRefId',
      name: 'Baseline query',
      description: 'refId of a second profile query used as the baseline: the panel then shows the diff.',
      defaultValue: DEFAULT_OPTIONS.baselineRefId,
      category: ['Data'],
    })
    .addRadio({
      path: 'graphMode',
      name: 'Layout',
      defaultValue: DEFAULT_OPTIONS.graphMode,
      settings: {
        options: [
          { value: 'icicle', label: 'Icicle (root on top)' },
          { value: 'flame', label: 'Flame (root at the bottom)' },
        ],
      },
      category: ['Flame graph'],
    })
    .addRadio({
      path: 'diffScheme',
      name: 'Diff colours',
      defaultValue: DEFAULT_OPTIONS.diffScheme,
      settings: {
        options: [
          { value: 'red-green', label: 'Red (more) / green (less)' },
          { value: 'colorblind', label: 'Colour-blind: red (more) / blue (less)' },
        ],
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
