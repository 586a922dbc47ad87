// A line the receiver adds to a finished message about how it was made (not about the alert):
// e.g. that its picture was skipped in a storm. A context block under the message, and the same
// line in its text.
import { escape } from './mrkdwn.mjs';

export function withNote(payload, note) {
  if (!note) {
    return payload;
  }
  const line = `_${escape(note)}_`;
  return { ...payload, text: `${payload.text}\n${line}`, blocks: [...(payload.blocks ?? []), { type: 'context', elements: [{ type: 'mrkdwn', text: line }] }] };
}
