// The throttling answer (throttling.mjs's judgeThrottling) as the lines that lead its message,
// in Slack mrkdwn. A figure without its series gets one line that says which series is missing.
import { formatAmount } from './change-text.mjs';

const cores = (v) => `${v.toFixed(2)} cores`;
const seconds = (v) => formatAmount(v * 1e9, 'ns');
const missing = (what) => `_${what}._`;

/** The lines of a throttling answer; `escape` makes outside text (service names) literal. */
export function throttlingLines(t, escape) {
  if (t.why) {
    return [missing(`No throttling figures: ${escape(t.why)}`)];
  }
  const lines = [];
  if (t.usage === undefined) {
    lines.push(missing('No CPU usage series for this container over the incident (container:cpu_usage_seconds:rate5m, from cAdvisor)'));
  } else {
    const limit = t.limit !== undefined ? ` against a limit of ${cores(t.limit)}${t.limit > 0 ? ` (${Math.round((t.usage / t.limit) * 100)}% used)` : ''}` : '';
    const request = t.request !== undefined ? `${limit ? ' and' : ' against'} a request of ${cores(t.request)}` : '';
    lines.push(`*CPU quota:* ${cores(t.usage)} used on average${limit}${request}.`);
  }
  if (t.limit === undefined) {
    lines.push(missing("No CPU limit series (cAdvisor's container_spec_cpu_quota, or kube-state-metrics' limits; kube-prometheus-stack drops container_spec_* by default), so usage is not set against the limit"));
  }
  if (t.request === undefined) {
    lines.push(missing("No CPU request series (kube-state-metrics' kube_pod_container_resource_requests), so no advice to drop the limit"));
  }
  if (t.throttled !== undefined) {
    const services = t.services.length ? ` of ${t.services.map((s) => `\`${escape(s)}\``).join(', ')}` : '';
    const per = t.perRequest !== undefined ? `, at most ${seconds(t.perRequest)} added per request${services} (${t.podRequests.toFixed(t.podRequests >= 10 ? 0 : 1)} req/s)` : '';
    lines.push(`*Throttled:* ${t.throttled.toFixed(2)} s/s${per}.`);
  }
  if (t.throttled === undefined) {
    lines.push(missing('No throttled-seconds series for this container over the incident (container:cpu_cfs_throttled_seconds:rate5m)'));
  }
  if (t.perRequest === undefined) {
    lines.push(missing('Not per request: the pod serves no requests hotpath counts'));
  }
  if (t.burst !== undefined) {
    const of = t.limit > 0 ? `, ${Math.round((t.usage / t.limit) * 100)}% of the limit` : '';
    lines.push(
      t.bursty
        ? `*Bursty:* ${t.burstWindow} peaks reach ${cores(t.peak)}, ${t.burst.toFixed(1)}× the 5m mean: the quota runs out within bursts while the mean sits low${of}.`
        : `*Steady:* ${t.burstWindow} peaks reach ${cores(t.peak)}, ${t.burst.toFixed(1)}× the 5m mean: the container needs more CPU than its limit most of the time.`
    );
  } else {
    lines.push(missing(`No burstiness: no ${t.burstWindow} rate of the CPU counter over the incident`));
  }
  if (t.gomaxprocsAdvice) {
    const g = t.gomaxprocsAdvice;
    lines.push(`*GOMAXPROCS:* ${g.threads} against a limit of ${cores(t.limit)}: ${g.threads} threads spend a CFS period's quota in ${g.exhaustMs.toFixed(1)} ms, then wait. Set it to ${g.advise} (Go 1.25+ sets it from the limit; older Go: go.uber.org/automaxprocs).`);
  } else if (t.gomaxprocs !== undefined) {
    lines.push(`*GOMAXPROCS:* ${t.gomaxprocs}${t.limit > 0 ? `, within the limit of ${cores(t.limit)}` : ''}.`);
  } else {
    lines.push(missing('No GOMAXPROCS series (go_sched_gomaxprocs_threads, exported by Go services with client_golang\'s runtime metrics): not a Go service, or not exported'));
  }
  lines.push(suggestionText(t));
  return lines;
}

/** The suggestion line: remove the limit, raise it to a value, or why there is none. */
export function suggestionText(t) {
  const s = t.suggestion;
  if (s.action === 'remove') {
    return `*Suggestion:* remove the limit and keep the request of ${cores(s.request)}: bursty and serving requests, with a request that covers its mean; the request keeps its share under contention and bursts borrow idle CPU.`;
  }
  if (s.action === 'raise') {
    const from = s.from === 'peak' ? `its ${t.burstWindow} peak` : 'its mean usage plus throttled time';
    return `*Suggestion:* raise the limit to ${s.millicores}m: ${from} is ${cores(s.demand)}, with ${Math.round((t.headroom - 1) * 100)}% headroom${t.limit !== undefined ? `, above today's ${Math.round(t.limit * 1000)}m` : ''}.`;
  }
  return missing(`No suggested limit: ${s.why}`);
}
