import { createDataFrame, FieldType } from '@grafana/data';

import { countRequests, findRequestSeries } from './requests';
import { StripSeries } from './series';

function series(times: number[], values: number[], labels: Record<string, string> = {}): StripSeries {
  return {
    name: 'requests/s',
    field: { name: 'Value', type: FieldType.number, config: { unit: 'reqps' }, values, labels },
    times,
    values,
    step: 15_000,
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

const window = { from: 60_000, to: 120_000 };

describe('countRequests', () => {
  it('integrates the rate over the window, summed over the series', () => {
    const c = countRequests([series([90_000, 120_000], [10, 10]), series([120_000], [5])], window);
    expect(c).toEqual({ ok: true, count: 900 });
  });

  it('no series: says where a request rate comes from', () => {
    expect(countRequests([], window)).toEqual({ ok: false, reason: 'no-series', message: expect.stringMatching(/^no request-rate series in the panel's queries/) });
  });

  it('no series kept by the filter: names what was looked for', () => {
    const c = countRequests([series([90_000], [1], { instance: 'a' })], window, (l) => l.instance === 'b', 'request-rate series with instance="b"');
    expect(c).toEqual({ ok: false, reason: 'no-series', message: 'no request-rate series with instance="b"' });
  });

  it('no samples in the window on any series: the window is off the strip', () => {
    const c = countRequests([series([0, 30_000], [5, 5]), series([200_000], [5])], window);
    expect(c).toEqual({ ok: false, reason: 'no-samples', message: 'no request-rate samples in the window (the request rate is read from the dashboard range)' });
  });

  it('a series without samples beside one at zero: zero requests, not "no samples"', () => {
    const c = countRequests([series([0], [5]), series([90_000, 120_000], [0, 0])], window);
    expect(c).toEqual({ ok: false, reason: 'zero', message: 'zero requests in the window: per request is undefined' });
  });
});

describe('findRequestSeries', () => {
  const frame = (refId: string, meta?: object) =>
    createDataFrame({
      refId,
      meta,
      fields: [
        { name: 'Time', type: FieldType.time, values: [60_000, 120_000] },
        { name: 'requests/s', type: FieldType.number, values: [1, 2], config: { unit: 'reqps' } },
      ],
    });

  it("each series carries its query's range: the target's expression, else what Prometheus says it ran", () => {
    const targets = [{ refId: 'D', expr: 'sum(job:requests:rate5m{job="api"})' }];
    expect(findRequestSeries([frame('D')], 'D', targets).map((s) => s.rangeMs)).toEqual([300_000]);
    const ran = frame('D', { executedQueryString: 'Expr: sum by (job) (rate(http_requests_total{job="api"}[1m]))\nStep: 15s' });
    expect(findRequestSeries([ran], 'D', []).map((s) => s.rangeMs)).toEqual([60_000]);
    // a query without a readable range: the mean of the points, as before
    expect(findRequestSeries([frame('D')], 'D', [{ refId: 'D', expr: 'sum(rate(x[$__rate_interval]))' }]).map((s) => s.rangeMs)).toEqual([undefined]);
  });

  it('a window right after a traffic step: the tiled count sees the whole step', () => {
    // a 1-minute rate of 10 req/s stepping to 20 at 60 s: the window (60 s, 120 s] had 20 req/s throughout
    const s = { ...series([60_000, 90_000, 120_000], [10, 15, 20]), rangeMs: 60_000 };
    expect(countRequests([s], window)).toEqual({ ok: true, count: 1200 });
    expect(countRequests([{ ...s, rangeMs: undefined }], window)).toEqual({ ok: true, count: 1050 });
  });
});
