import { createDataFrame, FieldType } from '@grafana/data';

import { treeToFrame } from '@hotpath/profile-core';
import { printlnAfter } from '@hotpath/profile-core/testing';

import { findProfileTarget, linkQuery, profileQuery, profileQueryProblem } from './query';

const prom = { refId: 'A', datasource: { type: 'prometheus', uid: '${datasource}' }, expr: 'job:cpu_seconds_per_request:ratio_rate5m' };
const pyro = { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' }, labelSelector: '{service_name="$job"}', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', queryType: 'profile', hide: true };
const vars: Record<string, string> = { $job: 'api', '${profiles}': 'pyro-uid' };
const replace = (s: string) => s.replace(/\$\{profiles\}|\$job/g, (m) => vars[m]);

describe('the profile query', () => {
  it('by refId', () => {
    expect(findProfileTarget({ targets: [prom, pyro] }, 'C', [])).toEqual({ ok: true, target: pyro });
    expect(findProfileTarget({ targets: [prom, pyro] }, 'Z', [])).toEqual({ ok: false, message: 'The panel has no query Z (Profile query option); its queries: A, C. Add a Pyroscope (profiles) query Z (edit the panel, + Add query), or set the Profile query option to one of these.' });
  });

  it('without a refId: the target behind the first profile frame, else the first Pyroscope target', () => {
    const other = { ...pyro, refId: 'D' };
    expect(findProfileTarget({ targets: [prom, pyro, other] }, '', [treeToFrame(printlnAfter(), { refId: 'D' })])).toEqual({ ok: true, target: other });
    expect(findProfileTarget({ targets: [prom, other] }, '', [])).toEqual({ ok: true, target: other });
  });

  it('says why there is none', () => {
    expect(findProfileTarget(undefined, '', [])).toMatchObject({ ok: false, message: expect.stringMatching(/no query request/) });
    const ts = createDataFrame({ refId: 'A', fields: [{ name: 'time', type: FieldType.time, values: [1] }] });
    expect(findProfileTarget({ targets: [prom] }, '', [ts])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/None of the panel's queries is a Pyroscope \(profiles\) query\. Add one: .*datasource Grafana Pyroscope \(on the hotpath dashboards: the Profiles variable, \$profiles\)/),
    });
  });

  it('a hidden profile query still runs per window; the cache key has the variables replaced', () => {
    const q = profileQuery(pyro, { targets: [prom, pyro], timezone: 'utc' }, replace);
    expect(q.target).not.toHaveProperty('hide');
    expect(q.base).toEqual({ timezone: 'utc' });
    expect(q.key).toContain('service_name=\\"api\\"');
  });

  it('links get the variables replaced', () => {
    const l = linkQuery(pyro, replace);
    expect(l.datasource).toEqual({ type: 'grafana-pyroscope-datasource', uid: 'pyro-uid' });
    expect(l.labelSelector).toBe('{service_name="api"}');
    expect(l).not.toHaveProperty('hide');
  });
});

describe('a profile query that cannot return a profile', () => {
  const unset = (name: string) => (s: string) => s.replace(new RegExp(`\\$\\{${name}\\}|\\$${name}\\b`, 'g'), '');

  it('runs as it is: no problem', () => {
    expect(profileQueryProblem(pyro, replace)).toBeUndefined();
    // a target on the panel's datasource (no uid of its own) and another datasource's target: nothing to judge
    expect(profileQueryProblem({ ...pyro, datasource: undefined }, replace)).toBeUndefined();
    expect(profileQueryProblem(prom, (s) => s.replace('${datasource}', 'prom-uid'))).toBeUndefined();
  });

  it("the dashboard's profiles variable names no datasource (none installed): it says so and where to choose one", () => {
    for (const r of [unset('profiles'), (s: string) => s]) {
      const p = profileQueryProblem(pyro, r);
      expect(p?.title).toBe('No profiles datasource selected');
      expect(p?.message).toBe(
        "Query C reads its profiles from ${profiles}, which names no datasource. Choose a Pyroscope datasource in the dashboard's profiles variable (top of the dashboard) or in query C's datasource picker. None to choose: add one under Connections → Data sources → Grafana Pyroscope."
      );
    }
  });

  it('no profile type: it says which query and where to pick one', () => {
    expect(profileQueryProblem({ ...pyro, profileTypeId: '' } as typeof pyro, replace)).toEqual({
      title: 'No profile type',
      message: 'Query C names no profile type: pick one in its Profile type menu (edit the panel), e.g. process_cpu → cpu.',
    });
    expect(profileQueryProblem({ ...pyro, profileTypeId: '$type' } as typeof pyro, replace)?.message).toMatch(/^Query C names no profile type \(\$type is empty\)/);
  });
});
