// Slack's limits on an incoming-webhook message, applied as the last step before a message
// leaves: fitForSlack() makes a finished payload safe to post, checkSlackLimits() says what
// Slack would refuse (the test sink answers as Slack does). Slack refuses a block over its limit
// with a 400 (`invalid_blocks`), which no retry can fix: the page would be lost. Cutting happens
// here, after escaping, so that `&` -> `&amp;` cannot push a cut field over a limit.
//
// Limits from Slack's Block Kit reference (https://docs.slack.dev/reference/block-kit/blocks):
// a message holds at most 50 blocks; a section's text at most 3000 characters, each of its
// (at most 10) fields 2000; an image's alt_text 2000, its image_url 3000, its title 2000; a
// context block at most 10 elements, each text 3000; a header's text 150. The top-level
// `text` is truncated by Slack past 40,000 characters (we cut it ourselves, visibly).
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  sectionFields: 10,
  sectionField: 2000,
  altText: 2000,
  imageUrl: 3000,
  imageTitle: 2000,
  contextElements: 10,
  contextText: 3000,
  headerText: 150,
  text: 40_000,
};

const ELLIPSIS = '…';

// Unicode bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069):
// a label value carrying them displays its characters in another order than they are stored,
// so `job=ipa` could read as `job=api`. They have no place in an alert.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
// Other invisible control characters (C0 but tab and newline, DEL, C1): no meaning in a message.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// A bare @here / @channel / @everyone notifies everyone in the channel when the webhook's app
// parses mentions (link_names); the `@` becomes a look-alike (U+FF20) so a value can never page a
// whole channel. Escaping already turns `<!here>` into text.
const MENTIONS = /(^|[^\w@＠])@(here|channel|everyone)\b/gi;

/** Removes bidi and control characters and neutralises bare channel-wide mentions. */
export function sanitize(s) {
  return String(s).replace(BIDI_CONTROLS, '').replace(CONTROLS, '').replace(MENTIONS, '$1＠$2');
}

/**
 * Cuts escaped mrkdwn text to at most max UTF-16 units (what Slack counts), ending in "…": never
 * inside an entity (`&amp;`), never between the two halves of a surrogate pair.
 */
export function cutText(s, max) {
  if (s.length <= max) {
    return s;
  }
  let end = max - ELLIPSIS.length;
  const amp = s.lastIndexOf('&', end);
  if (amp >= 0 && amp > end - 8) {
    const semi = s.indexOf(';', amp);
    if (semi === -1 || semi >= end) {
      end = amp; // an entity would be cut: end before it
    }
  }
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) {
    end--; // a high surrogate whose low half would be cut
  }
  return s.slice(0, Math.max(0, end)) + ELLIPSIS;
}

const fitString = (s, max) => cutText(sanitize(s), max);

function fitTextObject(t, max) {
  return t && typeof t.text === 'string' ? { ...t, text: fitString(t.text, max) } : t;
}

function fitBlock(b) {
  const L = SLACK_LIMITS;
  switch (b?.type) {
    case 'section':
      return {
        ...b,
        ...(b.text ? { text: fitTextObject(b.text, L.sectionText) } : {}),
        ...(Array.isArray(b.fields) ? { fields: b.fields.slice(0, L.sectionFields).map((f) => fitTextObject(f, L.sectionField)) } : {}),
      };
    case 'image':
      return {
        ...b,
        alt_text: fitString(b.alt_text ?? '', L.altText),
        ...(b.title ? { title: fitTextObject(b.title, L.imageTitle) } : {}),
      };
    case 'context':
      return { ...b, elements: (b.elements ?? []).slice(0, L.contextElements).map((e) => (e.type === 'image' ? e : fitTextObject(e, L.contextText))) };
    case 'header':
      return { ...b, text: fitTextObject(b.text, L.headerText) };
    default:
      return b;
  }
}

/**
 * The payload as Slack accepts it: every text within its block's limit (cut after escaping, with
 * "…"), at most 50 blocks (the last one saying how many were left out), image blocks whose URL
 * is too long dropped, bidi controls and bare @here/@channel neutralised. Pure: returns a copy.
 */
export function fitForSlack(payload) {
  const L = SLACK_LIMITS;
  const out = { ...payload };
  if (typeof payload.text === 'string') {
    out.text = fitString(payload.text, L.text);
  }
  if (Array.isArray(payload.blocks)) {
    let blocks = payload.blocks.filter((b) => !(b?.type === 'image' && String(b.image_url ?? '').length > L.imageUrl)).map(fitBlock);
    if (blocks.length > L.blocks) {
      const left = blocks.length - (L.blocks - 1);
      blocks = [...blocks.slice(0, L.blocks - 1), { type: 'context', elements: [{ type: 'mrkdwn', text: `${left} more blocks left out (Slack shows at most ${L.blocks})` }] }];
    }
    out.blocks = blocks;
  }
  return out;
}

/** What Slack would refuse in this payload (a short reason, as Slack's error names it), or undefined. */
export function checkSlackLimits(payload) {
  const L = SLACK_LIMITS;
  if (!payload || (typeof payload.text !== 'string' && !Array.isArray(payload.blocks))) {
    return 'invalid_payload: no text and no blocks';
  }
  if (typeof payload.text === 'string' && payload.text.length > L.text) {
    return `msg_too_long: text of ${payload.text.length} characters`;
  }
  const blocks = payload.blocks ?? [];
  if (blocks.length > L.blocks) {
    return `invalid_blocks: ${blocks.length} blocks, at most ${L.blocks}`;
  }
  const over = (what, s, max) => (typeof s === 'string' && s.length > max ? `invalid_blocks: ${what} of ${s.length} characters, at most ${max}` : undefined);
  for (const [i, b] of blocks.entries()) {
    const at = `blocks[${i}]`;
    const why =
      (b.type === 'section' && (over(`${at}.text`, b.text?.text, L.sectionText) || (b.fields?.length > L.sectionFields && `invalid_blocks: ${at} has ${b.fields.length} fields`) || b.fields?.map((f, j) => over(`${at}.fields[${j}]`, f.text, L.sectionField)).find(Boolean))) ||
      (b.type === 'image' && (over(`${at}.alt_text`, b.alt_text, L.altText) || over(`${at}.image_url`, b.image_url, L.imageUrl) || over(`${at}.title`, b.title?.text, L.imageTitle))) ||
      (b.type === 'context' && ((b.elements?.length > L.contextElements && `invalid_blocks: ${at} has ${b.elements.length} elements`) || b.elements?.map((e, j) => over(`${at}.elements[${j}]`, e.text, L.contextText)).find(Boolean))) ||
      (b.type === 'header' && over(`${at}.text`, b.text?.text, L.headerText));
    if (why) {
      return why;
    }
  }
  return undefined;
}
