// Text from outside (label values, annotations, function names) made literal in Slack's mrkdwn.
import { cutText } from './slack-limits.mjs';

const MAX_FIELD = 300;

/**
 * Slack's escaping (&, <, > as entities: no <!channel>, no <url|links>) plus backticks, replaced
 * by a look-alike (U+02CB) so that a value cannot close a code span or open a code block. Cut to
 * MAX_FIELD after escaping (whole entities), so a value of `&`s stays as short as any other.
 */
export function escape(s) {
  const v = String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/`/g, 'ˋ').replace(/[\r\n]+/g, ' ');
  return cutText(v, MAX_FIELD);
}
