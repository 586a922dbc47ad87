// The message of one alert, as a Slack-compatible incoming-webhook payload ({ text, blocks }).
// Everything that comes from outside (label values, annotations, function names) is text:
// escape() makes Slack's mrkdwn control characters literal, and function names sit in code
// spans, where *bold*, _italic_ and ~strike~ do not apply.
import { formatDuration } from './windows.mjs';

/** How many changed functions a message lists. */
export const TOP_N = 5;
const MAX_FIELD = 300;

/**
 * Slack's escaping (&, <, > as entities: no <!channel>, no <url|links>) plus backticks, replaced
 * by a look-alike (U+02CB) so that a value cannot close a code span or open a code block.
 */
export function escape(s) {
  const v = String(s ?? '');
  const cut = v.length > MAX_FIELD ? `${v.slice(0, MAX_FIELD)}…` : v;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/`/g, 'ˋ').replace(/[\r\n]+/g, ' ');
}

const pct = (v) => `${v > 0 ? '+' : ''}${v.toFixed(1)}%`;
const hhmm = (ms) => new Date(ms).toISOString().slice(11, 16);

/**
 * The changes a message lists: of the snapshot's biggest changes (summary.json's diff.top, by
 * size), the increases first (what got more expensive is the answer), the biggest first.
 */
export function topChanges(summary, n = TOP_N) {
  return [...(summary?.diff?.top ?? [])].sort((a, b) => b.deltaPercent - a.deltaPercent).slice(0, n);
}

/** The changes as lines of text. */
export function topChangesText(summary, n = TOP_N) {
  const rows = topChanges(summary, n);
  return rows.map((r, i) => `${i + 1}. \`${escape(r.function)}\` ${pct(r.deltaPercent)} of ${summary.unit === 'bytes' ? 'allocated bytes' : 'CPU'} (${r.baselineSelfPercent.toFixed(1)}% → ${r.comparisonSelfPercent.toFixed(1)}%)`);
}

/** <url|label> for an http(s) URL; undefined for anything else (javascript:, a Slack <!here>). */
function link(url, label) {
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || url.length > 4000) {
    return undefined;
  }
  return `<${url.replace(/&/g, '&amp;').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\|/g, '%7C')}|${label}>`;
}

/** The identity of an alert in one line: AlertName job=api instance=... */
export function alertTitle(alert) {
  const l = alert.labels ?? {};
  const who = ['job', 'namespace', 'instance', 'upstream', 'pod', 'container']
    .filter((k) => l[k])
    .map((k) => `${k}=${escape(l[k])}`)
    .join(' ');
  return `${escape(l.alertname ?? 'alert')}${who ? ` ${who}` : ''}`;
}

/**
 * @param {object} m { alert, status: 'firing'|'resolved', windows, summary?, reason?, imageUrl? }
 */
export function buildMessage({ alert, status, windows, summary, reason, imageUrl }) {
  const a = alert.annotations ?? {};
  const icon = status === 'resolved' ? ':white_check_mark: RESOLVED' : ':fire: FIRING';
  const title = `${icon} ${alertTitle(alert)}`;
  const lines = [];
  if (a.summary) {
    lines.push(escape(a.summary));
  }
  if (windows) {
    const { incident, baseline } = windows;
    lines.push(`Diff of ${hhmm(incident.from)}–${hhmm(incident.to)} UTC (${formatDuration(incident.to - incident.from)}) against ${hhmm(baseline.from)}–${hhmm(baseline.to)} UTC, ${escape(windows.reason)}.`);
  }
  const changes = topChangesText(summary);
  if (changes.length) {
    lines.push('*Biggest changes:*', ...changes);
  } else if (status === 'firing') {
    lines.push(`*No profile diff:* ${escape(reason ?? 'no change found')}`);
  }
  const links = [link(a.dashboard_url, 'dashboard'), link(a.runbook_url, 'runbook')].filter(Boolean);
  const body = lines.join('\n');
  const blocks = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${title}*` } },
    ...(body ? [{ type: 'section', text: { type: 'mrkdwn', text: body } }] : []),
    ...(imageUrl && !reason ? [{ type: 'image', image_url: imageUrl, alt_text: `diff flame graph of ${alertTitle(alert)}` }] : []),
    ...(links.length ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: links.join(' · ') }] }] : []),
  ];
  return { text: `${title}\n${body}${links.length ? `\n${links.join(' · ')}` : ''}`, blocks };
}
