#!/usr/bin/env node
// grafana-frames: a panel's transformations, run by Grafana's own code (@grafana/data's
// transformDataFrame and standard transformers, the plugin's dependency) on the data frames
// Grafana's Prometheus datasource makes of real query results. The Go tests in this folder query
// the real Prometheus, pipe the results here, and assert on what the panel would show.
//
//   node tests/dashboards/grafana-frames.mjs < request.json > answer.json
//
// request: { panels: [{ key, transformations, format: "table" | "time_series",
//            results: { <refId>: [{ metric: {label: value}, values: [[unix s, "value"], ...] }] } }] }
//   (an instant result has one value per series; one frame per series either way)
// answer:  { <key>: { frames: [{ name, fields: [{ name, display, labels }], rows: [{ <display>: value }] }] } }
//
// How the datasource shapes frames (Grafana 11 to 12, the backend converter then the frontend):
// - pkg/promlib/converter/prom.go: each series is a frame of two fields, Time and Value, the
//   series' labels (`__name__` too) on the Value field; a result with no series is one frame with
//   no fields (testdata/prom-warnings-no-data-frame.jsonc).
// - packages/grafana-prometheus/src/result_transformer.ts, transformDFToTable (format "table"): the
//   frames of one refId become one frame: Time, a string field per label name (the union over its
//   series, in their sorted order, '' where a series lacks it), and the value as "Value #<refId>"
//   when the request has more than one query ("Value" otherwise).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// @grafana/data reads window.grafanaBootData when it loads (a feature toggle); Node has no window.
globalThis.window ??= globalThis;
let data, rxjs;
try {
  const require = createRequire(join(ROOT, 'plugin', 'package.json'));
  data = require('@grafana/data');
  rxjs = require('rxjs');
} catch (e) {
  process.stderr.write(`grafana-frames: cannot load the plugin's @grafana/data (run \`npm ci\` at the repository's root): ${e.message}\n`);
  process.exit(2);
}
const { FieldType, getFieldDisplayName, standardTransformers, standardTransformersRegistry, transformDataFrame } = data;

// What Grafana's app registers at start (and @grafana/data's mockTransformationsRegistry in
// tests): each standard transformer once (standardTransformers lists joinByField under two names).
standardTransformersRegistry.setInit(() =>
  [...new Map(Object.values(standardTransformers).map((t) => [t.id, t])).values()].map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    transformation: t,
  })),
);

/** The backend's frames for one refId: one per series, or one without fields for no series. */
export function seriesFrames(refId, result) {
  if (result.length === 0) {
    return [{ refId, fields: [], length: 0 }];
  }
  return result.map(({ metric, values }) => ({
    refId,
    length: values.length,
    fields: [
      { name: 'Time', type: FieldType.time, config: {}, values: values.map(([t]) => t * 1000) },
      { name: 'Value', type: FieldType.number, config: {}, labels: { ...metric }, values: values.map(([, v]) => parseFloat(v)) },
    ],
  }));
}

/** transformDFToTable: the frames of each refId as one table frame. */
export function toTable(frames) {
  if (frames.length === 0 || (frames.length === 1 && frames[0].length === 0)) {
    return frames;
  }
  const refIds = [...new Set(frames.map((f) => f.refId))];
  return refIds.map((refId) => {
    const own = frames.filter((f) => f.refId === refId);
    const labels = [];
    for (const f of own) {
      for (const l of Object.keys(f.fields[1]?.labels ?? {}).sort()) {
        if (!labels.includes(l)) {
          labels.push(l);
        }
      }
    }
    const time = { name: 'Time', type: FieldType.time, config: {}, values: [] };
    const value = { name: refIds.length > 1 ? `Value #${refId}` : 'Value', type: FieldType.number, config: {}, values: [] };
    const labelFields = labels.map((name) => ({ name, type: FieldType.string, config: { filterable: true }, values: [] }));
    for (const f of own) {
      (f.fields[0]?.values ?? []).forEach((t) => time.values.push(t));
      (f.fields[1]?.values ?? []).forEach((v) => {
        value.values.push(v);
        labelFields.forEach((lf) => lf.values.push(f.fields[1].labels?.[lf.name] ?? ''));
      });
    }
    return { refId, fields: [time, ...labelFields, value], length: time.values.length };
  });
}

/** Each frame as the panel sees it: its fields (by display name) and its rows. */
function describe(frames) {
  return frames.map((frame) => {
    const names = frame.fields.map((f) => getFieldDisplayName(f, frame, frames));
    const rows = [];
    for (let i = 0; i < frame.length; i++) {
      rows.push(Object.fromEntries(frame.fields.map((f, j) => [names[j], f.values[i] ?? null])));
    }
    return { name: frame.name ?? null, fields: frame.fields.map((f, j) => ({ name: f.name, display: names[j], labels: f.labels ?? null })), rows };
  });
}

async function panelFrames(panel) {
  const frames = Object.entries(panel.results).flatMap(([refId, result]) => seriesFrames(refId, result));
  const input = panel.format === 'table' ? toTable(frames) : frames;
  return describe(await rxjs.firstValueFrom(transformDataFrame(panel.transformations ?? [], input)));
}

async function main() {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
  }
  const answer = {};
  for (const panel of JSON.parse(text).panels) {
    answer[panel.key] = { frames: await panelFrames(panel) };
  }
  process.stdout.write(JSON.stringify(answer));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`grafana-frames: ${e.stack ?? e}\n`);
    process.exit(1);
  });
}
