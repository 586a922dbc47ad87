import { PanelPlugin } from '@grafana/data';

import { DEFAULT_OPTIONS } from './options';
import { plugin } from './module';

import { migrateOptions } from './migrate';

describe('option migrations', () => {
  it("the dashboards' placeholder: timeSeriesRefId becomes seriesRefIds", () => {
    expect(migrateOptions({ options: { profileRefId: 'C', timeSeriesRefId: 'A', anomalyRefId: 'B' } as never })).toEqual({
      profileRefId: 'C',
      seriesRefIds: ['A'],
      anomalyRefId: 'B',
    });
  });

  it("the engine's 0.1.0 options: diffScheme becomes colorScheme", () => {
    expect(migrateOptions({ options: { diffScheme: 'colorblind', maxNodes: 1000, baselineRefId: 'B' } as never })).toEqual({
      colorScheme: 'colorblind',
      maxNodes: 1000,
      baselineRefId: 'B',
    });
  });

  it('a comma-separated list, and an unknown baseline mode', () => {
    expect(migrateOptions({ options: { seriesRefIds: 'A, D,,E', baselineMode: 'yesterday' } as never })).toEqual({ seriesRefIds: ['A', 'D', 'E'], baselineMode: 'auto' });
  });

  it('is idempotent on current options', () => {
    const current = { ...DEFAULT_OPTIONS, seriesRefIds: ['A', 'D'], profileRefId: 'C', colorScheme: 'colorblind' as const };
    expect(migrateOptions({ options: current })).toEqual(current);
    expect(migrateOptions({ options: migrateOptions({ options: { timeSeriesRefId: 'A', diffScheme: 'red-green' } as never }) as never })).toEqual({
      seriesRefIds: ['A'],
      colorScheme: 'red-green',
    });
  });

  it('an explicit colorScheme wins over a stale diffScheme', () => {
    expect(migrateOptions({ options: { colorScheme: 'red-green', diffScheme: 'colorblind' } as never })).toEqual({ colorScheme: 'red-green' });
  });

  it('no options at all', () => {
    expect(migrateOptions({ options: undefined as never })).toEqual({});
  });

  it('is the plugin\'s migration handler', () => {
    const p = plugin as PanelPlugin & { onPanelMigration?: typeof migrateOptions };
    expect(p.onPanelMigration).toBe(migrateOptions);
  });
});
