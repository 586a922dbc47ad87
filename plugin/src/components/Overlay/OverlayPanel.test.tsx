import { createDataFrame, DataFrame, DataQueryRequest, DataQueryResponse, dateTime, FieldType, LoadingState, makeTimeRange, PanelProps } from '@grafana/data';
import { config, locationService, setDataSourceSrv } from '@grafana/runtime';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';

import { TEST_IDS } from '../../constants';
import { HotpathOptions } from '../../options';
import { diffTrees, treeToFrame } from '@hotpath/profile-core';
import { printlnAfter, printlnBefore } from '@hotpath/profile-core/testing';
import { panelProps } from '../testUtils';

import { OverlayPanel } from './OverlayPanel';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (m: number) => T0 + m * MIN;
const WIDTH = 600; // 10 px per minute over the hour

const cpu = (values: Array<number | null> = Array.from({ length: 61 }, (_, i) => (i >= 30 ? 0.02 : 0.01))) =>
  createDataFrame({
    refId: 'A',
    fields: [
      { name: 'Time', type: FieldType.time, values: values.map((_, i) => at(i)) },
      { name: 'CPU per request', type: FieldType.number, values, config: { unit: 's' } },
    ],
  });
const alerts = () =>
  createDataFrame({
    refId: 'B',
    fields: [
      { name: 'Time', type: FieldType.time, values: Array.from({ length: 16 }, (_, i) => at(35 + i)) },
      { name: 'Value', type: FieldType.number, values: Array(16).fill(1), labels: { alertname: 'CPUPerRequestAboveUpstream', alertstate: 'firing' } },
    ],
  });
const profileTarget = { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: 'pyro' }, queryType: 'profile', labelSelector: '{service_name="api"}', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds' };

/** The request rate (req/s, unit reqps as the service dashboard's query D): `before` until minute 30, `after` from it; one series per instance when given. */
const requestRate = (before: number, after: number, instances?: Record<string, number>) =>
  Object.entries(instances ?? { '': 1 }).map(([instance, weight]) =>
    createDataFrame({
      refId: 'D',
      fields: [
        { name: 'Time', type: FieldType.time, values: Array.from({ length: 61 }, (_, i) => at(i)) },
        { name: 'requests/s', type: FieldType.number, values: Array.from({ length: 61 }, (_, i) => (i >= 30 ? after : before) * weight), config: { unit: 'reqps' }, labels: instance ? { instance } : undefined },
      ],
    })
  );
/** The service dashboard's query F: one request rate per instance (instance:requests:rate5m), weights summing to the job's rate. */
const instanceRates = (rate: number, weights: Record<string, number>) =>
  requestRate(rate, rate, weights).map((f) => ({ ...f, refId: 'F' }));
/** The same code under k times the traffic: every value times k. */
const times = (t: ReturnType<typeof printlnBefore>, k: number) => ({ ...t, total: t.total.map((v) => v * k), self: t.self.map((v) => v * k) });
/** A stand-in Pyroscope: the window before minute 30 is the healthy profile, after it the incident (or, with traffic, the healthy profile doubled). */
function standIn(opts: { fail?: string; empty?: boolean; emptyBefore?: number; traffic?: boolean } = {}) {
  const requests: DataQueryRequest[] = [];
  const ds = {
    query: (request: DataQueryRequest) =>
      new Observable<DataQueryResponse>((s) => {
        requests.push(request);
        if (opts.fail) {
          s.error({ status: 500, data: { message: opts.fail } });
          return;
        }
        const incident = request.range.from.valueOf() >= at(30);
        const tree = opts.traffic ? times(printlnBefore(), incident ? 2 : 1) : incident ? printlnAfter() : printlnBefore();
        const empty = opts.empty || (opts.emptyBefore !== undefined && request.range.from.valueOf() < opts.emptyBefore);
        s.next({ data: empty ? [] : [treeToFrame(tree, { refId: 'C' })], state: LoadingState.Done });
        s.complete();
      }),
  };
  setDataSourceSrv({ get: async () => ds, getList: () => [], getInstanceSettings: () => undefined, reload: () => {} } as never);
  return requests;
}

function props(series: DataFrame[], options: Partial<HotpathOptions> = {}): PanelProps<HotpathOptions> {
  const timeRange = makeTimeRange(dateTime(at(0)), dateTime(at(60)));
  const base = panelProps(series, { seriesRefIds: ['A'], anomalyRefId: 'B', profileRefId: 'C', ...options }, { width: WIDTH, height: 700 });
  const request = { targets: [{ refId: 'A' }, { refId: 'B' }, profileTarget], requestId: 'r', interval: '1m', intervalMs: MIN, range: timeRange, scopedVars: {}, timezone: 'utc', app: 'dashboard', startTime: 0 };
  return { ...base, id: 24, timeRange, data: { ...base.data, timeRange, request } };
}

function setup(series = [cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' })], options: Partial<HotpathOptions> = {}, standInOpts: Parameters<typeof standIn>[0] = {}) {
  const requests = standIn(standInOpts);
  const utils = render(<OverlayPanel {...props(series, options)} />);
  return { requests, ...utils };
}

/** Drags on the strip from minute a to minute b (jsdom: the strip's left edge is at x 0). */
function drag(a: number, b: number, shiftKey = false) {
  const area = screen.getByTestId(TEST_IDS.stripArea);
  act(() => {
    fireEvent.mouseDown(area, { clientX: a * 10, button: 0, shiftKey });
  });
  act(() => {
    fireEvent.mouseMove(window, { clientX: (a + b) * 5 });
    fireEvent.mouseMove(window, { clientX: b * 10 });
  });
  act(() => {
    fireEvent.mouseUp(window, { clientX: b * 10 });
  });
}

/** both windows answered (the stand-in answers after a tick) */
const settled = () => waitFor(() => expect(screen.getByTestId(TEST_IDS.statusBaseline)).not.toHaveAttribute('data-status', 'loading'));

const search = () => new URLSearchParams(locationService.getLocation().search);
const clickView = (label: string) => fireEvent.click(within(screen.getByTestId(TEST_IDS.views)).getByLabelText(label));

/** Grafana's boot config lists the installed app plugins: Profiles Drilldown is one only where a test installs it. */
const installDrilldown = (installed: boolean) => {
  config.apps = installed ? { 'grafana-pyroscope-app': { id: 'grafana-pyroscope-app', path: '', version: '1.0.0', preload: false } as never } : {};
};

beforeEach(() => {
  act(() => locationService.replace('/d/hotpath-service?var-job=api'));
  installDrilldown(false);
});

describe('OverlayPanel', () => {
  it('without a selection: the strip and the profile of the whole range', () => {
    setup();
    expect(screen.getByTestId(TEST_IDS.strip)).toBeInTheDocument();
    expect(screen.getAllByTestId(TEST_IDS.anomaly)).toHaveLength(1);
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('fmt.Println');
    expect(screen.getByTestId(TEST_IDS.status)).toHaveTextContent(/Drag on the strip/);
    expect(within(screen.getByTestId(TEST_IDS.views)).getByLabelText('Diff')).toBeDisabled();
  });

  it('without a selection, a diff from the query runner: the view buttons say Diff', () => {
    setup([cpu(), alerts(), treeToFrame(diffTrees(printlnBefore(), printlnAfter()), { refId: 'C' })]);
    const views = within(screen.getByTestId(TEST_IDS.views));
    expect(views.getByLabelText('Diff')).toBeChecked();
    expect(views.getByLabelText('Flame graph')).toBeDisabled();
    expect(views.getByLabelText('Flame graph')).not.toBeChecked();
  });

  it('drag a window: the comparison and its automatic baseline load; switching views does not re-fetch', async () => {
    const { requests } = setup();
    drag(40, 50);
    expect(search().get('hotpath-window')).toBe(`${at(40)}-${at(50)}`);
    // the anomaly started at minute 35: the baseline is the 10 minutes before it
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveAttribute('data-status', 'done'));
    expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'done');
    expect(screen.getByTestId(TEST_IDS.baseline)).toHaveAttribute('data-from', String(at(25)));
    expect(screen.getByTestId(TEST_IDS.baseline)).toHaveAttribute('data-to', String(at(35)));
    expect(requests.map((r) => [r.range.from.valueOf(), r.range.to.valueOf()])).toEqual([
      [at(40), at(50)],
      [at(25), at(35)],
    ]);
    expect(requests[0].targets[0]).toMatchObject({ refId: 'C', queryType: 'profile', labelSelector: '{service_name="api"}' });

    clickView('Diff');
    expect(search().get('hotpath-view')).toBe('diff');
    const first = screen.getByTestId(TEST_IDS.changesTable).querySelector('tbody tr');
    expect(first).toHaveTextContent('prototext.MarshalOptions.Format');
    clickView('Side by side');
    expect(screen.getByTestId(TEST_IDS.sideBySide)).toBeInTheDocument();
    clickView('Changes');
    expect(screen.getByTestId(TEST_IDS.changesTable)).toHaveTextContent('fmt.Println');
    clickView('Flame graph');
    expect(requests).toHaveLength(2);
  });

  it('a link reproduces the view', async () => {
    act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=${at(5)}-${at(15)}&hotpath-view=diff`));
    const { requests } = setup();
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.changesTable)).toBeInTheDocument());
    expect(requests.map((r) => r.range.from.valueOf())).toEqual([at(40), at(5)]);
    expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveTextContent('chosen by hand');
  });

  it("an alert link (hotpath-at) opens on the anomaly around that moment, against the window before it", async () => {
    act(() => locationService.replace(`/d/hotpath-service?var-job=api&from=${at(0)}&to=${at(60)}&hotpath-at=${at(40)}&hotpath-view=diff`));
    const { requests } = setup();
    await waitFor(() => expect(search().get('hotpath-window')).toBe(`${at(35)}-${at(51)}`));
    expect(search().get('hotpath-at')).toBeNull();
    expect(search().get('hotpath-view')).toBe('diff');
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.changesTable)).toBeInTheDocument());
    expect(requests.map((r) => [r.range.from.valueOf(), r.range.to.valueOf()])).toEqual([
      [at(35), at(51)],
      [at(19), at(35)],
    ]);
  });

  it('an alert link without an anomaly at its moment: the 15 minutes before it', async () => {
    act(() => locationService.replace(`/d/hotpath-service?hotpath-at=${at(20)}`));
    setup();
    await waitFor(() => expect(search().get('hotpath-window')).toBe(`${at(5)}-${at(20)}`));
    await settled();
  });

  it('Shift-drag picks the baseline by hand', async () => {
    setup();
    drag(40, 50);
    drag(5, 12, true);
    expect(search().get('hotpath-baseline')).toBe(`${at(5)}-${at(12)}`);
    expect(screen.getByTestId(TEST_IDS.baseline)).toHaveAttribute('data-from', String(at(5)));
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveAttribute('data-status', 'done'));
  });

  it('drags a window edge to adjust it', async () => {
    setup();
    drag(40, 50);
    drag(50, 55);
    expect(search().get('hotpath-window')).toBe(`${at(40)}-${at(55)}`);
    await settled();
  });

  it('a click on an anomaly selects it; the baseline mode buttons change the baseline', async () => {
    setup();
    drag(45, 45);
    expect(search().get('hotpath-window')).toBe(`${at(35)}-${at(51)}`);
    expect(screen.getByTestId(TEST_IDS.baseline)).toHaveAttribute('data-from', String(at(19)));
    await settled();
    fireEvent.click(within(screen.getByTestId(TEST_IDS.baselineMode)).getByLabelText('−1d'));
    expect(search().get('hotpath-baseline')).toBe('day');
    expect(screen.getByTestId(TEST_IDS.offStrip)).toHaveTextContent(/baseline .* is before the dashboard range/);
    fireEvent.click(screen.getByTestId(TEST_IDS.clearSelection));
    expect(search().get('hotpath-window')).toBeNull();
    expect(search().get('var-job')).toBe('api');
  });

  it('a failing profile query says what failed, and retries', async () => {
    const { requests } = setup(undefined, {}, { fail: 'pyroscope: 503 upstream unavailable' });
    drag(40, 50);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'error'));
    expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveTextContent(/failed/);
    expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('title', expect.stringMatching(/HTTP 500: pyroscope: 503 upstream unavailable/));
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/could not be loaded.*HTTP 500: pyroscope: 503 upstream unavailable/);
    const before = requests.length;
    fireEvent.click(within(screen.getByTestId(TEST_IDS.statusComparison)).getByTestId(TEST_IDS.retry));
    await waitFor(() => expect(requests.length).toBe(before + 1));
  });

  it('a window with no samples says so', async () => {
    setup(undefined, {}, { empty: true });
    drag(40, 50);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'empty'));
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/No samples in the selected window/);
  });

  it('bad input: gaps and NaN in the series, no anomaly series, no profile frame', async () => {
    setup([cpu([0.01, null, NaN, 0.02, ...Array(57).fill(null)])]);
    expect(screen.queryAllByTestId(TEST_IDS.anomaly)).toHaveLength(0);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/None of the 1 frame is a profile/);
    drag(40, 50);
    expect(search().get('hotpath-window')).toBe(`${at(40)}-${at(50)}`);
    await settled();
  });

  it('a query error of the query runner is shown where the profile would be', () => {
    const p = props([cpu()]);
    standIn();
    render(<OverlayPanel {...p} data={{ ...p.data, errors: [{ message: 'pyroscope: bad gateway', refId: 'C' }] }} />);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent('Query C: pyroscope: bad gateway');
    expect(screen.getByTestId(TEST_IDS.strip)).toBeInTheDocument();
  });

  it('an unreadable URL is named, not silently ignored', () => {
    act(() => locationService.replace('/d/hotpath-service?hotpath-window=yesterday'));
    setup();
    expect(screen.getByTestId(TEST_IDS.status)).toHaveTextContent('Ignored from the URL: hotpath-window=yesterday is not <from ms>-<to ms>');
  });

  it('links out to Explore and Profiles Drilldown with the windows', async () => {
    installDrilldown(true);
    setup();
    drag(40, 50);
    const explore = screen.getByTestId(TEST_IDS.exploreLink).getAttribute('href')!;
    const panes = JSON.parse(new URL(explore, 'http://g').searchParams.get('panes')!);
    expect(panes.comparison.range).toEqual({ from: String(at(40)), to: String(at(50)) });
    expect(panes.baseline.range).toEqual({ from: String(at(25)), to: String(at(35)) });
    const dd = new URL(screen.getByTestId(TEST_IDS.drilldownLink).getAttribute('href')!, 'http://g').searchParams;
    expect(dd.get('var-serviceName')).toBe('api');
    expect(dd.get('explorationType')).toBe('diff-flame-graph');
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'done'));
  });

  it('no Profiles Drilldown link where the app is not installed (it would open "App not found"); Explore stays', async () => {
    setup();
    drag(40, 50);
    expect(screen.getByTestId(TEST_IDS.exploreLink)).toBeInTheDocument();
    expect(screen.queryByTestId(TEST_IDS.drilldownLink)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'done'));
  });

  it('strip height 0 hides the strip', () => {
    setup(undefined, { stripHeight: 0 });
    expect(screen.queryByTestId(TEST_IDS.strip)).not.toBeInTheDocument();
    expect(screen.getByTestId(TEST_IDS.topTable)).toBeInTheDocument();
  });

  describe('per request', () => {
    const withRequests = (before: number, after: number, instances?: Record<string, number>) => [cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' }), ...requestRate(before, after, instances)];

    it('println with load flat: per request is the default; the headline blames per request, led by the text marshalling', async () => {
      setup(withRequests(10, 10));
      drag(40, 50);
      await settled();
      clickView('Diff');
      expect(within(screen.getByTestId(TEST_IDS.units)).getByLabelText('Per request')).toBeChecked();
      const headline = screen.getByTestId(TEST_IDS.headline);
      expect(headline).toHaveTextContent('Total +300% = load ~0% × per request +300%');
      expect(headline).toHaveAttribute('data-driver', 'per request');
      expect(headline).toHaveTextContent(/Led by google\.golang\.org\/protobuf\/encoding\/prototext\.MarshalOptions\.Format/);
      // 10 req/s over 10 minutes: 6000 requests; 280 more samples over them
      const first = screen.getByTestId(TEST_IDS.changesTable).querySelector('tbody tr')!;
      expect(first.querySelector('[data-col="per-request"]')).toHaveTextContent('+0.05/req');
      expect(screen.queryByTestId(TEST_IDS.unitNotice)).not.toBeInTheDocument();
    });

    it('a traffic doubling that CPU follows reads load +100%, per request ~0%, no function flagged', async () => {
      // the baseline by hand, well before the step at minute 30
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=${at(5)}-${at(15)}`));
      setup(withRequests(10, 20), {}, { traffic: true });
      await settled();
      clickView('Changes');
      const headline = screen.getByTestId(TEST_IDS.headline);
      expect(headline).toHaveTextContent('Total +100% = load +100% × per request ~0%');
      expect(headline).toHaveAttribute('data-driver', 'load');
      expect(headline).toHaveTextContent('No function flagged.');
      expect(screen.getByTestId(TEST_IDS.changesTable).querySelectorAll('tr[data-flagged="true"]')).toHaveLength(0);
      // the absolute unit blames everything: every function doubled
      fireEvent.click(within(screen.getByTestId(TEST_IDS.units)).getByLabelText('Absolute'));
      expect(search().get('hotpath-unit')).toBe('absolute');
      expect(screen.getByTestId(TEST_IDS.changesTable).querySelectorAll('tr[data-flagged="true"]').length).toBeGreaterThan(0);
    });

    it("a traffic doubling read through the dashboard's 5-minute rate: the windows either side of the step count it whole", async () => {
      // job:requests:rate5m at minute i: the requests of (i - 5, i], 10 req/s doubling to 20 at minute 30
      const rate5m = Array.from({ length: 61 }, (_, i) => (i <= 30 ? 10 : i >= 35 ? 20 : 10 + 2 * (i - 30)));
      const d = createDataFrame({
        refId: 'D',
        fields: [
          { name: 'Time', type: FieldType.time, values: rate5m.map((_, i) => at(i)) },
          { name: 'requests/s', type: FieldType.number, values: rate5m, config: { unit: 'reqps' } },
        ],
      });
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(30)}-${at(40)}&hotpath-baseline=${at(20)}-${at(30)}`));
      standIn({ traffic: true });
      const p = props([cpu(), alerts(), treeToFrame(printlnBefore(), { refId: 'C' }), d], { requestsRefId: 'D' });
      const request = { ...p.data.request!, targets: [...p.data.request!.targets, { refId: 'D', expr: 'job:requests:rate5m{job="api"}' }] };
      render(<OverlayPanel {...p} data={{ ...p.data, request }} />);
      await settled();
      clickView('Changes');
      // the rate's mean over (30, 40] is 18 req/s: load +80% and per request +11%, a regression that is not there
      const headline = screen.getByTestId(TEST_IDS.headline);
      expect(headline).toHaveTextContent('Total +100% = load +100% × per request ~0%');
      expect(headline).toHaveAttribute('data-driver', 'load');
    });

    it('without a request series the panel says so and shows shares', async () => {
      setup();
      drag(40, 50);
      await settled();
      clickView('Diff');
      expect(within(screen.getByTestId(TEST_IDS.units)).getByLabelText('Share')).toBeChecked();
      expect(within(screen.getByTestId(TEST_IDS.units)).getByLabelText('Per request')).toBeDisabled();
      expect(screen.getByTestId(TEST_IDS.unitNotice)).toHaveTextContent(/No request-rate series.*showing shares/);
      expect(screen.getByTestId(TEST_IDS.headline)).toHaveTextContent(/No load vs per-request split: Baseline: no request-rate series/);
    });

    it('zero requests in the baseline: a message, not Infinity', async () => {
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=${at(5)}-${at(15)}`));
      setup(withRequests(0, 10));
      await settled();
      clickView('Diff');
      expect(screen.getByTestId(TEST_IDS.unitNotice)).toHaveTextContent('Per request: baseline: zero requests in the window: per request is undefined. Showing shares.');
      expect(screen.getByTestId(TEST_IDS.panel).textContent).not.toMatch(/Infinity|NaN/);
    });

    it('siblings: the same window, the instance against every other one, normalised per request', async () => {
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-instance=catalog-2&hotpath-view=diff`));
      const { requests } = setup(withRequests(10, 10, { 'catalog-1': 1, 'catalog-2': 1, 'catalog-3': 1 }));
      await settled();
      expect(requests.map((r) => [r.range.from.valueOf(), r.range.to.valueOf(), (r.targets[0] as { labelSelector?: string }).labelSelector])).toEqual([
        [at(40), at(50), '{service_name="api", instance="catalog-2"}'],
        [at(40), at(50), '{service_name="api", instance!="catalog-2"}'],
      ]);
      expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveTextContent('every other instance, same window');
      expect(within(screen.getByTestId(TEST_IDS.baselineMode)).getByLabelText('Siblings')).toBeChecked();
      // one instance has a third of the traffic: load −50% (1 of 3 vs 2 of 3)
      expect(screen.getByTestId(TEST_IDS.headline)).toHaveTextContent(/= load −50% × per request/);
    });

    it('siblings on the service dashboard: the job rate (D) counts windows, the per-instance rates (F) count siblings', async () => {
      // D: the job's 30 req/s, no instance label; F: 10 req/s on each of three instances
      const dashboard = { requestsRefId: 'D', instanceRequestsRefId: 'F' };
      const series = [cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' }), ...requestRate(30, 30), ...instanceRates(10, { 'catalog-1': 1, 'catalog-2': 1, 'catalog-3': 1 })];
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-instance=catalog-2&hotpath-view=diff`));
      setup(series, dashboard);
      await settled();
      // catalog-2 served a third of the requests, its siblings two thirds
      expect(screen.getByTestId(TEST_IDS.headline)).toHaveTextContent(/= load −50% × per request/);
      expect(screen.queryByTestId(TEST_IDS.unitNotice)).not.toBeInTheDocument();
    });

    it('siblings without per-instance rates: the panel says which count is missing and shows shares', async () => {
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-instance=catalog-2&hotpath-view=diff`));
      setup([cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' }), ...requestRate(30, 30)], { requestsRefId: 'D' });
      await settled();
      expect(screen.getByTestId(TEST_IDS.unitNotice)).toHaveTextContent(/no request-rate series with instance="catalog-2".*Showing shares/);
    });

    it('the per-instance rates do not count twice in a window: the job rate alone counts its requests', async () => {
      const series = [...withRequests(10, 10), ...instanceRates(10, { 'catalog-1': 1, 'catalog-2': 1, 'catalog-3': 1 })];
      setup(series, { requestsRefId: 'D', instanceRequestsRefId: 'F' });
      drag(40, 50);
      await settled();
      clickView('Diff');
      // 10 req/s over 10 minutes: 6000 requests, as without F
      const first = screen.getByTestId(TEST_IDS.changesTable).querySelector('tbody tr')!;
      expect(first.querySelector('[data-col="per-request"]')).toHaveTextContent('+0.05/req');
    });

    it('siblings without an instance: no baseline, and the panel says what to set', async () => {
      act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings`));
      setup();
      await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'done'));
      expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveTextContent(/Siblings: name the instance/);
      fireEvent.blur(screen.getByTestId(TEST_IDS.instance), { target: { value: 'catalog-2' } });
      expect(search().get('hotpath-instance')).toBe('catalog-2');
      await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveAttribute('data-status', 'done'));
    });
  });
});

// What the panel says when there is nothing to draw: each state names what is missing and the setting that fixes it.
describe('OverlayPanel empty states', () => {
  /** The panel with its profile query replaced by `target` (none: no profile query), variables resolved by `replace`. */
  function renderWith(series: DataFrame[], target: object | undefined, replace = (s: string) => s) {
    const requests = standIn();
    const p = props(series);
    const request = { ...p.data.request!, targets: [{ refId: 'A' }, { refId: 'B' }, ...(target ? [target] : [])] } as DataQueryRequest;
    render(<OverlayPanel {...p} replaceVariables={replace} data={{ ...p.data, request }} />);
    return requests;
  }
  const onProfilesVariable = { ...profileTarget, datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' } };

  it('no profiles datasource selected: it says so and names the variable to set; a window fetches nothing', async () => {
    // a dashboard whose profiles variable found no Pyroscope datasource: it interpolates to nothing, and the query runner returns no profile frame
    const requests = renderWith([cpu(), alerts()], onProfilesVariable, (s) => s.replace('${profiles}', ''));
    const error = screen.getByTestId(TEST_IDS.error);
    expect(error).toHaveTextContent(/^No profiles datasource selected/);
    expect(error).toHaveTextContent("Choose a Pyroscope datasource in the dashboard's profiles variable (top of the dashboard) or in query C's datasource picker.");
    expect(error).not.toHaveTextContent(/Not a profile frame|None of the/);
    expect(screen.queryByTestId(TEST_IDS.exploreLink)).not.toBeInTheDocument();
    drag(40, 50);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/^No profiles datasource selected/);
    // the status line names it in a few words, the whole reason its tooltip (and the view's text)
    expect(screen.getByTestId(TEST_IDS.statusNoTarget)).toHaveTextContent(/^No profiles datasource selected$/);
    expect(screen.getByTestId(TEST_IDS.statusNoTarget)).toHaveAttribute('title', expect.stringMatching(/which names no datasource/));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(requests).toHaveLength(0);
  });

  it('no profile query at all: it says how to add one', () => {
    // the service dashboard's options name query C
    renderWith([cpu(), alerts()], undefined);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent('No profile queryThe panel has no query C (Profile query option); its queries: A, B. Add a Pyroscope (profiles) query C (edit the panel, + Add query)');
    cleanup();
    // a panel of its own, no query named
    const p = props([cpu(), alerts()], { profileRefId: '' });
    render(<OverlayPanel {...p} data={{ ...p.data, request: { ...p.data.request!, targets: [{ refId: 'A' }, { refId: 'B' }] } }} />);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/^No profile queryNone of the panel's queries is a Pyroscope \(profiles\) query\. Add one: edit the panel, \+ Add query, datasource Grafana Pyroscope/);
  });

  it('no profile type: it names the query and the menu', () => {
    renderWith([cpu(), alerts()], { ...profileTarget, profileTypeId: '' });
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent('No profile typeQuery C names no profile type: pick one in its Profile type menu (edit the panel)');
  });

  it('no samples in the dashboard range: it names the query, its labels and profile type, and what to widen', () => {
    renderWith([cpu(), alerts(), treeToFrame(times(printlnBefore(), 0), { refId: 'C' })], profileTarget);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(
      'No samples in the dashboard rangeQuery C found no samples of process_cpu:cpu:nanoseconds:cpu:nanoseconds for {service_name="api"} in this range: widen the time range'
    );
  });

  it('a baseline a day earlier with no samples: says so, and says why the unit changed to share', async () => {
    act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=day&hotpath-view=diff`));
    const requests = standIn({ emptyBefore: at(0) });
    render(<OverlayPanel {...props([cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' }), ...requestRate(10, 10)])} />);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusBaseline)).toHaveAttribute('data-status', 'empty'));
    expect(requests).toHaveLength(2);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/^No samples in the baseline window.*Choose another baseline: a baseline mode above/);
    expect(within(screen.getByTestId(TEST_IDS.units)).getByLabelText('Share')).toBeChecked();
    const why = 'Showing shares: no request count for the baseline (1 day earlier), outside the dashboard range. Widen the time range to include it, or pick a baseline on the strip.';
    expect(screen.getByTestId(TEST_IDS.unitNotice)).toHaveTextContent(why);
    expect(screen.getByTestId(TEST_IDS.units)).toHaveAttribute('title', why);
  });

  it('siblings without an instance: the view says siblings need an instance, not "pick a baseline mode"', async () => {
    act(() => locationService.replace(`/d/hotpath-service?hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-view=diff`));
    standIn();
    render(<OverlayPanel {...props([cpu(), alerts(), treeToFrame(printlnAfter(), { refId: 'C' })])} />);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.statusComparison)).toHaveAttribute('data-status', 'done'));
    const error = screen.getByTestId(TEST_IDS.error);
    expect(error).toHaveTextContent(/^Siblings need an instanceType the instance to compare in the box next to the baseline modes \(or set hotpath-instance in the URL\)/);
    expect(error).not.toHaveTextContent(/pick a baseline mode/);
  });
});

// The query runner's frames as they are (no window selected, no profile query to re-run): what
// the panel draws, diffs, folds and refuses.
describe('OverlayPanel on the query runner\'s frames', () => {
  const frames = (...args: Parameters<typeof panelProps>) => {
    standIn();
    render(<OverlayPanel {...panelProps(...args)} />);
  };

  it('draws a profile frame', () => {
    frames([treeToFrame(printlnAfter(), { refId: 'A' })]);
    expect(screen.getByTestId(TEST_IDS.canvas)).toBeInTheDocument();
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('fmt.Println');
    expect(screen.queryByTestId(TEST_IDS.changesTable)).not.toBeInTheDocument();
  });

  it('diffs against the baseline query', () => {
    frames([treeToFrame(printlnBefore(), { refId: 'B' }), treeToFrame(printlnAfter(), { refId: 'A' })], { baselineRefId: 'B' });
    const changes = screen.getByTestId(TEST_IDS.changesTable);
    const firstRow = changes.querySelector('tbody tr');
    expect(firstRow).toHaveTextContent('prototext.MarshalOptions.Format');
    expect(firstRow).toHaveTextContent('+70.00 pp');
    expect(screen.getByTestId(TEST_IDS.legend)).toBeInTheDocument();
  });

  it.each([
    ['no frames', [], /No data/],
    ['a time series frame', [createDataFrame({ refId: 'A', fields: [{ name: 'time', values: [1] }, { name: 'cpu', values: [0.5] }] })], /None of the 1 frame is a profile/],
    ['a frame without self', [createDataFrame({ fields: [{ name: 'level', values: [0] }, { name: 'value', values: [1] }, { name: 'label', values: ['x'] }] })], /missing field "self"/],
    ['an empty profile', [createDataFrame({ meta: { preferredVisualisationType: 'flamegraph' }, fields: [{ name: 'level', values: [] }, { name: 'value', values: [] }, { name: 'self', values: [] }, { name: 'label', values: [] }] })], /empty/],
  ])('says what is wrong: %s', (_name, series, message) => {
    frames(series);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(message);
  });

  it('refuses to diff profiles of different units', () => {
    const cpu = printlnAfter();
    const heap = { ...printlnBefore(), unit: 'bytes' };
    frames([treeToFrame(heap, { refId: 'B' }), treeToFrame(cpu, { refId: 'A' })], { baselineRefId: 'B' });
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/baseline is in "bytes" but the profile in "short"/);
  });

  it('folds large profiles and says so', () => {
    frames([treeToFrame(printlnAfter())], { maxNodes: 4 });
    expect(screen.getByTestId(TEST_IDS.notice)).toHaveTextContent(/folded into "other"/);
  });

  it('renders hostile names as text, never as HTML', () => {
    const tree = printlnAfter();
    tree.names[tree.nameId[1]] = '<img src=x onerror="window.__pwned=1">';
    frames([treeToFrame(tree)]);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('<img src=x');
  });
});
