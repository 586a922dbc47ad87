// The message of one alert, as a Slack-compatible incoming-webhook payload ({ text, blocks }).
// Everything that comes from outside (label values, annotations, function names) is text:
// escape() makes Slack's mrkdwn control characters literal, and function names sit in code
// spans, where *bold*, _italic_ and ~strike~ do not apply.
import { alertTitle } from './alert-identity.mjs';
import { changeText, formatAmount, shortName, TOP_N } from './change-text.mjs';
import { costText } from './cost.mjs';
import { deployText } from './deploy-windows.mjs';
import { escape } from './mrkdwn.mjs';
import { throttlingLines } from './throttling-text.mjs';
import { formatDuration } from './windows.mjs';

// the message's text helpers, where the receiver's other parts have always found them
export { alertTitle, escape };

const hhmm = (ms) => new Date(ms).toISOString().slice(11, 16);
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The changes as numbered lines of text, function names escaped. */
export function changesText(answer) {
  const alloc = answer.unit === 'bytes';
  return (answer.changes ?? []).slice(0, TOP_N).map((c, i) => `${i + 1}. ${changeText({ ...c, function: escape(c.function), via: c.via && escape(c.via) }, { alloc, rankedBy: answer.rankedBy })}`);
}

/** "10:05–10:50 UTC (45m)", with the date when the window is not today's (a day or week earlier). */
function windowText(w, ref) {
  const date = day(w.from) !== day(ref) ? `${day(w.from)} ` : '';
  return `${date}${hhmm(w.from)}–${hhmm(w.to)} UTC`;
}

/** The line that says which windows were compared and why. */
export function windowsText(windows) {
  const { incident, baseline } = windows;
  return `Compared ${windowText(incident, incident.to)} (${formatDuration(incident.to - incident.from)}) with ${windowText(baseline, incident.to)}: ${escape(windows.reason)}${windows.note ? ` (${escape(windows.note)})` : ''}.`;
}

/**
 * The busy loop's line: its CPU and traffic against the comparison window's, and where the CPU
 * goes (the heaviest frame, up to the code that calls it).
 */
export function fixedCostText(f) {
  const n = (v, digits = 2) => (v === undefined ? '?' : v.toFixed(digits));
  const at = (x) => `${n(x.cores)} cores${x.rate !== undefined ? ` at ${n(x.rate, x.rate >= 10 ? 0 : 1)} req/s` : ''}`;
  const was = f.baseline ? ` (was ${at(f.baseline)} ${escape(f.baselineName)})` : '';
  const where = f.path?.length ? `; ${Math.round(f.share * 100)}% in ${f.path.map((p) => `\`${escape(shortName(p))}\``).join(' ← ')}` : '';
  return `*Fixed cost:* ${at(f.incident)}${was}${where}`;
}

/**
 * How a regression ended (outcome.mjs's judgeOutcome): recovered, the new normal, or ended with its
 * data; the cost per request before (the model when the alert fired, at today's traffic) and now.
 */
export function outcomeText(o) {
  if (o.why) {
    return `_Not judged whether it recovered: ${escape(o.why)}._`;
  }
  const what = o.unit === 'bytes' ? 'Allocated bytes per request' : 'CPU per request';
  const pct = Math.round((o.ratio - 1) * 100);
  const figures = `${what} ${formatAmount(o.now, o.unit)} now, ${formatAmount(o.before, o.unit)} before (${pct >= 0 ? '+' : '−'}${Math.abs(pct)}%)`;
  if (o.kind === 'recovered') {
    return `*Recovered:* ${figures}, under the ×${o.limit.toFixed(2)} the alert fired on.`;
  }
  if (o.kind === 'newNormal') {
    return `*The new normal since ${day(Date.parse(o.since))} ${hhmm(Date.parse(o.since))} UTC:* ${figures}; the baseline has accepted it, and judges the next change against it.`;
  }
  return `*Ended, not recovered:* ${figures}; the alert ended with its data (traffic under its floor, or a missing series), not with the regression.`;
}

/** <url|label> for an http(s) URL; undefined for anything else (javascript:, a Slack <!here>). */
function link(url, label) {
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || url.length > 4000) {
    return undefined;
  }
  return `<${url.replace(/&/g, '&amp;').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\|/g, '%7C')}|${label}>`;
}

/**
 * @param {object} m { alert, status: 'firing'|'resolved', windows, answer?, fixed?, requestsWhy?, reason?, imageUrl?, outcome? }
 *   answer: computeAnswer()'s result; fixed: the busy loop's numbers (fixedCostText);
 *   outcome: how a resolved regression ended (outcomeText); throttling: a quota's answer (throttling-text.mjs), leading;
 *   cost: what the change costs (cost.mjs); lead: a function alert's first lines (function-lead.mjs)
 */
export function buildMessage({ alert, status, lead, windows, answer, fixed, requestsWhy, reason, imageUrl, outcome, throttling, cost }) {
  const a = alert.annotations ?? {};
  const icon = status === 'resolved' ? ':white_check_mark: RESOLVED' : ':fire: FIRING';
  const title = `${icon} ${alertTitle(alert)}`;
  const lines = [...(lead ?? []), ...(throttling ? throttlingLines(throttling, escape) : [])];
  if (outcome) {
    lines.push(outcomeText(outcome));
  }
  if (fixed) {
    lines.push(fixedCostText(fixed));
  }
  if (answer?.headline) {
    lines.push(`*${answer.headline}*`);
  }
  const changes = answer ? changesText(answer) : [];
  if (changes.length) {
    const unit = answer.rankedBy === 'per-request' ? 'per request' : answer.rankedBy === 'share' ? 'as a share' : 'over the window';
    lines.push(`*Got more expensive ${unit}:*`, ...changes);
  } else if (answer && answer.rankedBy === 'per-request' && answer.driver !== 'per request') {
    lines.push('*Load, not code:* no function got more expensive per request; the change follows the traffic.');
  } else if (answer) {
    lines.push('*No function got more expensive.*');
  }
  if (cost) {
    lines.push(costText(cost));
  }
  if (answer && requestsWhy) {
    lines.push(`_Not per request: ${escape(requestsWhy)}._`);
  }
  if (status === 'firing' && reason) {
    lines.push(`*No profile diff:* ${escape(reason)}`);
  }
  if (a.summary) {
    lines.push(escape(a.summary));
  }
  if (windows?.deploy) {
    lines.push(`${deployText(windows.deploy, escape)}.`);
  }
  if (windows) {
    lines.push(windowsText(windows));
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
