import { FieldType, LoadingState, PanelData, PanelProps, getDefaultTimeRange, DataFrame, EventBusSrv } from '@grafana/data';

import { DEFAULT_OPTIONS, HotpathOptions } from '../options';

/** PanelProps for component tests (and the same shape the browser host page builds). */
export function panelProps(series: DataFrame[], options: Partial<HotpathOptions> = {}, size = { width: 900, height: 600 }): PanelProps<HotpathOptions> {
  const data: PanelData = { series, state: LoadingState.Done, timeRange: getDefaultTimeRange() };
  return {
    id: 1,
    data,
    timeRange: data.timeRange,
    timeZone: 'utc',
    options: { ...DEFAULT_OPTIONS, ...options },
    onOptionsChange: jest.fn(),
    onFieldConfigChange: jest.fn(),
    onChangeTimeRange: jest.fn(),
    replaceVariables: (s: string) => s,
    fieldConfig: { defaults: {}, overrides: [] },
    renderCounter: 0,
    title: 'hotpath',
    transparent: false,
    eventBus: new EventBusSrv(),
    width: size.width,
    height: size.height,
  };
}

export const numberField = (name: string, values: unknown[]) => ({ name, type: FieldType.number, values, config: {} });
