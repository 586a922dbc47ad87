import { createDataFrame, DataQueryRequest, DataQueryResponse, dateTime, FieldType, LoadingState, makeTimeRange, PanelProps } from '@grafana/data';
import { locationService, setDataSourceSrv } from '@grafana/runtime';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';

import { TEST_IDS } from '../../constants';
import { HotpathOptions } from '../../options';
import { changesByUnit, diffTrees, functionRows, OTHER_NAME, Tree, treeToFrame } from '@hotpath/profile-core';
import { fromAscii, generateTree, pyroscopeTruncate } from '@hotpath/profile-core/testing';
import { sortRows } from '../TopTable/TopTable';
import { panelProps } from '../testUtils';

import { OverlayPanel } from './OverlayPanel';

// Pyroscope's answers, cut as Pyroscope cuts them (data/truncation.ts pyroscopeTruncate): to the
// query's maxNodes, DEFAULT_NODES when the query sets none (16384 in Grafana; smaller here so
// that a 10k-node profile is cut as a busy service's is).
const DEFAULT_NODES = 500;
const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (m: number) => T0 + m * MIN;
const profileTarget = { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: 'pyro' }, queryType: 'profile', labelSelector: '{service_name="api"}', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds' };

const cpu = () =>
  createDataFrame({
    refId: 'A',
    fields: [
      { name: 'Time', type: FieldType.time, values: Array.from({ length: 61 }, (_, i) => at(i)) },
      { name: 'CPU', type: FieldType.number, values: Array.from({ length: 61 }, (_, i) => (i >= 30 ? 2 : 1)), config: { unit: 's' } },
    ],
  });

/**
 * A stand-in Pyroscope with full profiles: the dashboard range's is `after`, a window's `before`
 * or `after` minute 30; `maxAllowed`: its max_flamegraph_nodes_max; `defaultNodes`: its answers' size when the query sets none.
 */
function standIn(before: Tree, after: Tree, { maxAllowed = Infinity, defaultNodes = DEFAULT_NODES } = {}) {
  const requests: DataQueryRequest[] = [];
  const ds = {
    query: (request: DataQueryRequest) =>
      new Observable<DataQueryResponse>((s) => {
        requests.push(request);
        const maxNodes = (request.targets[0] as { maxNodes?: number }).maxNodes ?? defaultNodes;
        if (maxNodes > maxAllowed) {
          s.error({ status: 400, data: { message: `max flamegraph nodes limit ${maxNodes} is greater than allowed ${maxAllowed}` } });
          return;
        }
        const whole = request.range.from.valueOf() === at(0) && request.range.to.valueOf() === at(60);
        const full = whole || request.range.from.valueOf() >= at(30) ? after : before;
        s.next({ data: [treeToFrame(pyroscopeTruncate(full, maxNodes), { refId: 'C' })], state: LoadingState.Done });
        s.complete();
      }),
  };
  setDataSourceSrv({ get: async () => ds, getList: () => [], getInstanceSettings: () => undefined, reload: () => {} } as never);
  return requests;
}

/** 1 req/s all along (unit reqps): the same requests in every window */
const requestRate = () =>
  createDataFrame({
    refId: 'D',
    fields: [
      { name: 'Time', type: FieldType.time, values: Array.from({ length: 61 }, (_, i) => at(i)) },
      { name: 'requests/s', type: FieldType.number, values: Array(61).fill(1), config: { unit: 'reqps' } },
    ],
  });

function props(profile: Tree, options: Partial<HotpathOptions> = {}, nodes = DEFAULT_NODES, extra: Array<ReturnType<typeof cpu>> = []): PanelProps<HotpathOptions> {
  const timeRange = makeTimeRange(dateTime(at(0)), dateTime(at(60)));
  const series = [cpu(), ...extra, treeToFrame(pyroscopeTruncate(profile, nodes), { refId: 'C' })];
  const base = panelProps(series, { seriesRefIds: ['A'], profileRefId: 'C', ...options }, { width: 600, height: 800 });
  const request = { targets: [{ refId: 'A' }, profileTarget], requestId: 'r', interval: '1m', intervalMs: MIN, range: timeRange, scopedVars: {}, timezone: 'utc', app: 'dashboard', startTime: 0 };
  return { ...base, id: 29, timeRange, data: { ...base.data, timeRange, request } };
}

function drag(a: number, b: number) {
  const area = screen.getByTestId(TEST_IDS.stripArea);
  act(() => {
    fireEvent.mouseDown(area, { clientX: a * 10, button: 0 });
  });
  act(() => {
    fireEvent.mouseMove(window, { clientX: b * 10 });
    fireEvent.mouseUp(window, { clientX: b * 10 });
  });
}

const tableNames = (id: string, n: number) => [...screen.getByTestId(id).querySelectorAll('tbody tr')].slice(0, n).map((r) => r.querySelector('td')!.getAttribute('title'));
const topNames = (tree: Tree, n: number) => sortRows(functionRows(tree), { key: 'self', desc: true }, n).map((r) => r.name);
const changeNames = (diff: Tree, n: number) => changesByUnit(diff, 'share').slice(0, n).map((r) => r.name);

const before = generateTree(10_000, 11);
const after = generateTree(10_000, 11, { perturb: 4 });
// a shared 2-core machine renders a 10k-node panel a few times per test
jest.setTimeout(30_000);
const SLOW = { timeout: 20_000 };

beforeEach(() => {
  act(() => locationService.replace('/d/hotpath-service?var-job=api'));
});

describe('Pyroscope\'s truncated trees in the overlay', () => {
  it('the dashboard range: says how much is in "other"; the top table equals the untruncated profile\'s', async () => {
    // the premise: the cut tree's own table is wrong
    expect(topNames(pyroscopeTruncate(after, DEFAULT_NODES), 10)).not.toEqual(topNames(after, 10));
    const requests = standIn(before, after);
    render(<OverlayPanel {...props(after)} />);
    expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/Pyroscope cut the profile: \d+\.\d% of it is in "other".*loading it at 1,000,000 nodes/);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/tables exact \(the complete profile, 10,000 nodes\)/), SLOW);
    expect(requests).toHaveLength(1);
    expect(requests[0].targets[0]).toMatchObject({ refId: 'C', maxNodes: 1_000_000 });
    expect(tableNames(TEST_IDS.topTable, 10)).toEqual(topNames(after, 10));
  });

  it('a selection and its baseline: the changes table equals the untruncated diff\'s; the flame graph keeps the cut answer', async () => {
    const cutDiff = diffTrees(pyroscopeTruncate(before, DEFAULT_NODES), pyroscopeTruncate(after, DEFAULT_NODES));
    const exactDiff = diffTrees(before, after);
    expect(changeNames(cutDiff, 8)).not.toEqual(changeNames(exactDiff, 8));
    const requests = standIn(before, after);
    render(<OverlayPanel {...props(after)} />);
    drag(40, 50);
    act(() => locationService.partial({ 'hotpath-view': 'diff', 'hotpath-baseline': `${at(5)}-${at(15)}` }));
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/Selection: .*tables exact.*Baseline: .*tables exact/), SLOW);
    // the two windows as asked, then each again at Max nodes
    expect(requests.map((r) => (r.targets[0] as { maxNodes?: number }).maxNodes).sort()).toEqual([1_000_000, 1_000_000, undefined, undefined]);
    expect(tableNames(TEST_IDS.changesTable, 8)).toEqual(changeNames(exactDiff, 8));
  });

  it('when Pyroscope refuses the larger answer: says the tables are not exact, and why', async () => {
    standIn(before, after, { maxAllowed: 16_384 });
    render(<OverlayPanel {...props(after)} />);
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/tables NOT exact: .*greater than allowed 16384/), SLOW);
    // the cut tree's "other" stays in its table, named for what it is
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('other (folded nodes: many functions)');
  });

  it('a diff of two of the panel\'s queries (Baseline query option): flagged, and the tables said not exact', async () => {
    const requests = standIn(before, after);
    const baselineFrame = treeToFrame(pyroscopeTruncate(before, DEFAULT_NODES), { refId: 'B' });
    render(<OverlayPanel {...props(after, { baselineRefId: 'B' }, DEFAULT_NODES, [baselineFrame])} />);
    expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/Pyroscope cut the profile: \d+\.\d% of it is in "other".*tables NOT exact: a diff of two queries/);
    expect(requests).toHaveLength(0);
  });

  it('the headline never names "other" as the function that leads the change', async () => {
    // many new small functions, each cut into "other", and one real function that grew
    const smalls = Array.from({ length: 60 }, (_, i) => `         ├─ pkg.small${i} 5`).join('\n');
    const base = fromAscii(`
total 100
└─ main.main 100
   └─ main.handler 100
      ├─ fmt.Println 20
      └─ main.work 80
`);
    const incident = fromAscii(`
total 500
└─ main.main 500
   └─ main.handler 500
      ├─ fmt.Println 120
      ├─ main.work 80
      └─ main.fanout 300
${smalls}
`);
    // a Pyroscope that refuses more nodes: the tables stay on the cut trees, where "other" leads
    // per request (the same requests on both sides): "other" +0.50 ns/req, fmt.Println +0.17 ns/req
    standIn(base, incident, { maxAllowed: 10, defaultNodes: 5 });
    render(<OverlayPanel {...props(incident, {}, 5, [requestRate()])} />);
    drag(40, 50);
    act(() => locationService.partial({ 'hotpath-view': 'diff', 'hotpath-baseline': `${at(5)}-${at(15)}` }));
    await waitFor(() => expect(screen.getByTestId(TEST_IDS.truncation)).toHaveTextContent(/NOT exact/), SLOW);
    expect(tableNames(TEST_IDS.changesTable, 1)).toEqual([OTHER_NAME]);
    const headline = screen.getByTestId(TEST_IDS.headline);
    expect(within(headline).queryByText(/Led by other/)).toBeNull();
    expect(headline).toHaveTextContent(/Led by fmt\.Println/);
  });
});
