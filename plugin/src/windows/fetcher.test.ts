import { createDataFrame, DataQueryRequest, DataQueryResponse, FieldType, LoadingState } from '@grafana/data';
import type { DataSourceSrv } from '@grafana/runtime';
import type { DataQuery } from '@grafana/schema';
import { Observable, Subscriber } from 'rxjs';

import { treeToFrame } from '@hotpath/profile-core';
import { fromAscii, printlnAfter, printlnBefore } from '@hotpath/profile-core/testing';

import { labelMatcher, ProfileLoader, ProfileQuery, windowRequest, withMatcher } from './fetcher';

const W1 = { from: 1000_000, to: 1600_000 };
const W2 = { from: 2000_000, to: 2600_000 };
const W3 = { from: 3000_000, to: 3600_000 };

interface Call {
  request: DataQueryRequest;
  subscriber: Subscriber<DataQueryResponse>;
  cancelled: boolean;
  answer: (frames: unknown[]) => void;
  fail: (e: unknown) => void;
}

/** A DataSourceSrv whose datasource answers only when the test says so. */
function setup(opts: { getFails?: boolean } = {}) {
  const calls: Call[] = [];
  const ds = {
    query: (request: DataQueryRequest) =>
      new Observable<DataQueryResponse>((subscriber) => {
        const call: Call = {
          request,
          subscriber,
          cancelled: false,
          answer: (frames) => {
            subscriber.next({ data: frames, state: LoadingState.Done });
            subscriber.complete();
          },
          fail: (e) => subscriber.error(e),
        };
        calls.push(call);
        return () => {
          call.cancelled = !subscriber.closed || call.cancelled;
          call.cancelled = true;
        };
      }),
  };
  const srv = {
    get: jest.fn(async () => {
      if (opts.getFails) {
        throw new Error('Datasource ${profiles} was not found');
      }
      return ds;
    }),
  } as unknown as DataSourceSrv;
  const onChange = jest.fn();
  const loader = new ProfileLoader({ getDataSourceSrv: () => srv, onChange, describe: (w) => `${w.from}..${w.to}` });
  const query: ProfileQuery = {
    target: { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' }, queryType: 'both' } as never,
    base: { scopedVars: { job: { text: 'api', value: 'api' } }, timezone: 'utc', panelId: 24, dashboardUID: 'hotpath-service' },
    key: 'api',
  };
  loader.setQuery(query);
  return { loader, calls, srv, onChange, query };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const frame = (tree = printlnAfter()) => treeToFrame(tree, { refId: 'C' });

describe('ProfileLoader', () => {
  it('sends the panel target with the window range through getDataSourceSrv', async () => {
    const { loader, calls, srv } = setup();
    loader.load('comparison', W1);
    await flush();
    expect(srv.get).toHaveBeenCalledWith({ type: 'grafana-pyroscope-datasource', uid: '${profiles}' }, { job: { text: 'api', value: 'api' } });
    const r = calls[0].request;
    expect(r.range.from.valueOf()).toBe(W1.from);
    expect(r.range.to.valueOf()).toBe(W1.to);
    expect(r.targets).toEqual([{ refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' }, queryType: 'profile' }]);
    expect(r.timezone).toBe('utc');
    expect(r.panelId).toBe(24);
    expect(loader.get('comparison')).toMatchObject({ status: 'loading', window: W1 });
    calls[0].answer([frame()]);
    expect(loader.get('comparison')).toMatchObject({ status: 'done', window: W1 });
    expect(loader.get('comparison')?.tree?.total[0]).toBe(400);
  });

  it('caches per window: going back, or both slots on one window, does not re-fetch', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].answer([frame()]);
    loader.load('comparison', W2);
    await flush();
    calls[1].answer([frame(printlnBefore())]);
    loader.load('comparison', W1);
    loader.load('baseline', W2);
    await flush();
    expect(calls).toHaveLength(2);
    expect(loader.fetches).toBe(2);
    expect(loader.get('comparison')?.tree?.total[0]).toBe(400);
    expect(loader.get('baseline')?.status).toBe('done');
    // the same window asked again is a no-op
    loader.load('comparison', { ...W1 });
    expect(loader.fetches).toBe(2);
  });

  it('cancels a fetch superseded before it answered', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    loader.load('comparison', W2);
    await flush();
    expect(calls[0].cancelled).toBe(true);
    expect(calls[1].cancelled).toBe(false);
    // the cancelled window is not cached: selecting it again fetches again
    loader.load('comparison', W1);
    await flush();
    expect(calls).toHaveLength(3);
  });

  it('cancels a fetch superseded before the datasource was even resolved', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    loader.load('comparison', W2);
    await flush();
    expect(calls.map((c) => c.request.range.from.valueOf())).toEqual([W2.from]);
  });

  it('keeps a window another slot still shows', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    loader.load('baseline', W1);
    await flush();
    expect(calls).toHaveLength(1);
    loader.load('comparison', W2);
    await flush();
    expect(calls[0].cancelled).toBe(false);
    calls[0].answer([frame()]);
    expect(loader.get('baseline')?.status).toBe('done');
  });

  it('out-of-order answers land in their own windows', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    loader.load('baseline', W2);
    await flush();
    const [c1, c2] = calls;
    c2.answer([frame(printlnBefore())]);
    expect(loader.get('comparison')?.status).toBe('loading');
    expect(loader.get('baseline')?.status).toBe('done');
    c1.answer([frame(printlnAfter())]);
    expect(loader.get('comparison')?.tree?.total[0]).toBe(400);
    expect(loader.get('baseline')?.tree?.total[0]).toBe(100);
  });

  it('a late answer for an old window never replaces the new one', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    loader.load('comparison', W2);
    await flush();
    calls[1].answer([frame(fromAscii('total 7\n  b 7'))]);
    // a datasource that ignores cancellation and answers anyway
    calls[0].subscriber.next({ data: [frame()], state: LoadingState.Done });
    expect(loader.get('comparison')).toMatchObject({ status: 'done', window: W2 });
    expect(loader.get('comparison')?.tree?.total[0]).toBe(7);
  });

  it('waits for the final answer of a streaming query', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].subscriber.next({ data: [], state: LoadingState.Loading });
    expect(loader.get('comparison')?.status).toBe('loading');
    calls[0].subscriber.next({ data: [frame()], state: LoadingState.Done });
    expect(loader.get('comparison')?.status).toBe('done');
  });

  it('says what failed: an HTTP error of the datasource', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].fail({ status: 502, data: { message: 'pyroscope: upstream connect error' } });
    expect(loader.get('comparison')).toMatchObject({
      status: 'error',
      message: 'The profile query failed in 1000000..1600000: HTTP 502: pyroscope: upstream connect error',
    });
  });

  it('says what failed: errors in the response', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].subscriber.next({ data: [], errors: [{ message: 'invalid label selector', refId: 'C' }], state: LoadingState.Error });
    expect(loader.get('comparison')?.message).toBe('The profile query failed in 1000000..1600000: invalid label selector');
  });

  it('says what failed: the datasource cannot be found', async () => {
    const { loader } = setup({ getFails: true });
    loader.load('comparison', W1);
    await flush();
    expect(loader.get('comparison')?.status).toBe('error');
    expect(loader.get('comparison')?.message).toMatch(/datasource \$\{profiles\} not found .*was not found/);
  });

  it('retries a failed window', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].fail(new Error('timeout'));
    // an error is cached too: moving away and back does not hammer a failing datasource
    loader.load('comparison', W2);
    loader.load('comparison', W1);
    await flush();
    expect(loader.get('comparison')?.status).toBe('error');
    loader.retry('comparison');
    await flush();
    calls[calls.length - 1].answer([frame()]);
    expect(loader.get('comparison')?.status).toBe('done');
  });

  it('a window with no samples is empty, not an error', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    loader.load('baseline', W2);
    loader.load('baseline', W3);
    await flush();
    calls[0].answer([]);
    calls[1].answer([frame(fromAscii('total 0'))]);
    expect(loader.get('comparison')).toMatchObject({ status: 'empty', message: 'No samples in 1000000..1600000.' });
    expect(loader.get('baseline')).toMatchObject({ status: 'empty', message: 'No samples in 3000000..3600000.' });
  });

  it('a response without a profile frame names what came back', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].answer([createDataFrame({ refId: 'C', fields: [{ name: 'time', type: FieldType.time, values: [1] }, { name: 'cpu', type: FieldType.number, values: [2] }] })]);
    expect(loader.get('comparison')?.message).toBe('The profile query returned no profile in 1000000..1600000 (frames: C (time, cpu)).');
  });

  it('another query (another $job) is another cache entry', async () => {
    const { loader, calls, query } = setup();
    loader.load('comparison', W1);
    await flush();
    calls[0].answer([frame()]);
    loader.setQuery({ ...query, key: 'cache' });
    loader.load('comparison', W1);
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('dispose cancels what is in flight', async () => {
    const { loader, calls } = setup();
    loader.load('comparison', W1);
    await flush();
    loader.dispose();
    expect(calls[0].cancelled).toBe(true);
  });

  it('evicts the oldest finished windows beyond maxEntries, never a shown one', async () => {
    const { calls } = setup();
    const srv = { get: async () => ({ query: () => new Observable((s) => { s.next({ data: [frame()], state: LoadingState.Done }); s.complete(); }) }) } as unknown as DataSourceSrv;
    const loader = new ProfileLoader({ getDataSourceSrv: () => srv, onChange: () => {}, maxEntries: 2 });
    loader.setQuery({ target: { refId: 'C' }, key: 'k' });
    for (let i = 0; i < 5; i++) {
      loader.load('comparison', { from: i * 10_000, to: i * 10_000 + 5000 });
      await flush();
    }
    expect(loader.fetches).toBe(5);
    loader.load('comparison', { from: 0, to: 5000 });
    await flush();
    expect(loader.fetches).toBe(6);
    expect(calls).toHaveLength(0);
  });

  it('windowRequest: the window is the range, the target asks for a profile', () => {
    const r = windowRequest({ target: { refId: 'C', queryType: 'both' } as never, key: '' }, W1);
    expect(r.range.raw).toEqual({ from: r.range.from, to: r.range.to });
    expect(r.targets[0]).toEqual({ refId: 'C', queryType: 'profile' });
    expect(r.app).toBe('dashboard');
  });
});

describe('label matchers (the siblings baseline)', () => {
  it('adds a matcher to a Pyroscope selector, empty or not, and escapes the value', () => {
    expect(withMatcher('{service_name="api"}', 'instance!="a"')).toBe('{service_name="api", instance!="a"}');
    expect(withMatcher('{}', 'instance="a"')).toBe('{instance="a"}');
    expect(withMatcher(undefined, 'instance="a"')).toBe('{instance="a"}');
    expect(withMatcher('{service_name="api"}', '')).toBe('{service_name="api"}');
    expect(labelMatcher('pod', '!=', 'we"ird\\pod')).toBe('pod!="we\\"ird\\\\pod"');
  });

  it('a window request carries the matcher in its labelSelector only', () => {
    const q = { target: { refId: 'C', labelSelector: '{service_name="api"}' } as DataQuery, key: 'k' };
    const r = windowRequest(q, { from: 1000, to: 2000 }, 'instance="a"');
    expect(r.targets[0]).toMatchObject({ refId: 'C', queryType: 'profile', labelSelector: '{service_name="api", instance="a"}' });
    expect(windowRequest(q, { from: 1000, to: 2000 }).targets[0]).toMatchObject({ labelSelector: '{service_name="api"}' });
  });
});
