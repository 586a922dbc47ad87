#!/usr/bin/env node
// lint-runbook: fails when an alert of the pack has no section in the runbook, or when an alert's
// runbook_url points at an anchor the runbook does not have. On-call follows that link from the
// page; a missing section is found at the worst moment, so `make lint` finds it first.
//
// The alerts come from two places that must agree: the catalogue (catalogue/catalogue.json) and
// the rendered alert rules (rules/hotpath-alerts.yaml), so an alert added to either is checked.
// A section is a `## Name` heading; its anchor is GitHub's: the heading lower-cased, spaces as
// hyphens, punctuation other than hyphens and underscores dropped.
//
//   node tools/lint-runbook.mjs                      the repository's files (make lint)
//   node tools/lint-runbook.mjs RUNBOOK ALERTS.yaml  other files (the lint's own test)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [runbookPath, alertsPath] =
  process.argv.length > 3 ? process.argv.slice(2, 4) : [join(ROOT, 'docs/runbook.md'), join(ROOT, 'rules/hotpath-alerts.yaml')];

const anchor = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const runbook = readFileSync(runbookPath, 'utf8');
const sections = new Set([...runbook.matchAll(/^## +(.+)$/gm)].map((m) => m[1].trim()));
const anchors = new Set([...runbook.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => anchor(m[1])));

const catalogue = JSON.parse(readFileSync(join(ROOT, 'catalogue/catalogue.json'), 'utf8'));
// The rendered rules are YAML written by jsonnet's manifestYamlDoc: one `- alert: Name` line per
// alert and a `runbook_url: "..."` line among its annotations, so two line patterns read them.
const alertsYaml = readFileSync(alertsPath, 'utf8');
const ruleAlerts = [...alertsYaml.matchAll(/^\s*- alert: "?([A-Za-z0-9_]+)"?\s*$/gm)].map((m) => m[1]);
const runbookUrls = [...alertsYaml.matchAll(/^\s*runbook_url: "?([^"\s]+)"?\s*$/gm)].map((m) => m[1]);

const problems = [];
for (const name of new Set([...catalogue.alerts.map((a) => a.name), ...ruleAlerts])) {
  if (!sections.has(name)) {
    problems.push(`missing runbook section for: ${name} (add "## ${name}" to docs/runbook.md)`);
  }
}
for (const url of runbookUrls) {
  const hash = url.split('#')[1];
  if (hash === undefined || !anchors.has(hash)) {
    problems.push(`runbook_url ${url} points at no heading of the runbook`);
  }
}
if (ruleAlerts.length === 0) {
  problems.push(`no alerts read from ${alertsPath}`);
}
if (problems.length > 0) {
  console.error(problems.map((p) => `lint-runbook: ${p}`).join('\n'));
  process.exit(1);
}
console.log(`lint-runbook: ${ruleAlerts.length} alerts, each with its runbook section`);
