import { createDataFrame, FieldType } from '@grafana/data';

import { treeToFrame } from '@hotpath/profile-core';
import { printlnAfter } from '@hotpath/profile-core/testing';

import { anomalyWindows, linePath, medianStep, mergeWindows, onWindows, readStripData } from './series';

const S = 15_000;
const t = (i: number) => 1_700_000_000_000 + i * S;

function series(refId: string, values: Array<number | null>, labels?: Record<string, string>, times = values.map((_, i) => t(i))) {
  return createDataFrame({
    refId,
    fields: [
      { name: 'Time', type: FieldType.time, values: times },
      { name: 'Value', type: FieldType.number, values, labels },
    ],
  });
}

describe('anomaly windows from a 0/1 series', () => {
  it('joins consecutive on points; a window lasts one step past its last point', () => {
    expect(onWindows([t(0), t(1), t(2), t(3), t(4)], [0, 1, 1, 0, 1], S)).toEqual([
      { from: t(1), to: t(3) },
      { from: t(4), to: t(5) },
    ]);
  });

  it('a gap in the samples ends a window (ALERTS has no point while the alert is off)', () => {
    expect(onWindows([t(0), t(1), t(5), t(6)], [1, 1, 1, 1], S)).toEqual([
      { from: t(0), to: t(2) },
      { from: t(5), to: t(7) },
    ]);
  });

  it('NaN, null and negatives are off', () => {
    expect(onWindows([t(0), t(1), t(2)], [NaN, -1, 1], S)).toEqual([{ from: t(2), to: t(3) }]);
  });

  it('merges overlapping windows', () => {
    expect(mergeWindows([{ from: 5, to: 9 }, { from: 1, to: 3 }, { from: 2, to: 6 }, { from: 10, to: 10 }])).toEqual([{ from: 1, to: 9 }]);
  });

  it('median step ignores duplicates and holes', () => {
    expect(medianStep([0, 15, 30, 30, 45, 600])).toBe(15);
    expect(medianStep([5], 60)).toBe(60);
  });
});

describe('readStripData', () => {
  const cpu = series('A', [0.01, 0.012, null, 0.011, NaN, 0.02]);
  const alerts = series('B', [1, 1, 1], { alertname: 'CPUPerRequestAboveUpstream', alertstate: 'firing', job: 'api' }, [t(3), t(4), t(5)]);
  const profile = treeToFrame(printlnAfter(), { refId: 'C' });

  it('splits series, anomalies (by refId) and skips profiles', () => {
    const d = readStripData([cpu, alerts, profile], undefined, { seriesRefIds: ['A'], anomalyRefId: 'B' });
    expect(d.series).toHaveLength(1);
    expect(d.series[0].values.map((v) => (Number.isNaN(v) ? 'NaN' : v))).toEqual([0.01, 0.012, 'NaN', 0.011, 'NaN', 0.02]);
    expect(d.series[0].min).toBe(0.01);
    expect(d.series[0].max).toBe(0.02);
    expect(d.anomalies).toEqual([{ window: { from: t(3), to: t(6) }, name: 'CPUPerRequestAboveUpstream', state: 'firing' }]);
    expect(d.notices).toEqual([]);
  });

  it('detects ALERTS series without an anomaly refId', () => {
    const d = readStripData([cpu, alerts], undefined, { seriesRefIds: [], anomalyRefId: '' });
    expect(d.series.map((s) => s.refId)).toEqual(['A']);
    expect(d.anomalies).toHaveLength(1);
  });

  it('no anomaly series: no anomalies, no crash', () => {
    const d = readStripData([cpu], undefined, { seriesRefIds: ['A'], anomalyRefId: 'B' });
    expect(d.anomalies).toEqual([]);
    expect(d.series).toHaveLength(1);
  });

  it('says which time-series query returned nothing', () => {
    const d = readStripData([profile], undefined, { seriesRefIds: ['A', 'D'], anomalyRefId: 'B' });
    expect(d.series).toEqual([]);
    expect(d.notices).toEqual(['The time-series query A returned no data.', 'The time-series query D returned no data.']);
  });

  it('nothing at all', () => {
    expect(readStripData(undefined, undefined, { seriesRefIds: [], anomalyRefId: '' })).toEqual({ series: [], anomalies: [], annotations: [], notices: [] });
  });

  it('reads Grafana annotations; regions count as anomaly windows', () => {
    const ann = createDataFrame({
      fields: [
        { name: 'time', type: FieldType.time, values: [t(1), t(8)] },
        { name: 'timeEnd', type: FieldType.time, values: [t(1), t(10)] },
        { name: 'title', type: FieldType.string, values: ['deploy', 'CPUPerRequestRegression'] },
        { name: 'isRegion', type: FieldType.boolean, values: [false, true] },
        { name: 'color', type: FieldType.string, values: ['blue', 'red'] },
      ],
    });
    const d = readStripData([cpu, alerts], [ann], { seriesRefIds: ['A'], anomalyRefId: 'B' });
    expect(d.annotations).toEqual([
      { time: t(1), timeEnd: undefined, title: 'deploy', color: 'blue' },
      { time: t(8), timeEnd: t(10), title: 'CPUPerRequestRegression', color: 'red' },
    ]);
    expect(anomalyWindows(d)).toEqual([
      { from: t(3), to: t(6) },
      { from: t(8), to: t(10) },
    ]);
  });
});

describe('linePath', () => {
  const x = (tt: number) => (tt - t(0)) / 1000;
  const y = (v: number) => v;

  it('breaks the line at NaN and at gaps in time', () => {
    const d = linePath([t(0), t(1), t(2), t(3), t(7), t(8)], [1, 2, NaN, 4, 5, 6], S, x, y);
    expect(d).toBe('M0.0,1.0L15.0,2.0M45.0,4.0M105.0,5.0L120.0,6.0');
  });

  it('no finite values: no path', () => {
    expect(linePath([t(0), t(1)], [NaN, NaN], S, x, y)).toBe('');
  });
});
