#!/usr/bin/env bash
# assemble.sh OUT: hotpath-notify installed into OUT (emptied first) as npm installs a package:
# the notify workspace and the two it depends on (@hotpath/profile-core, @hotpath/headless),
# with their run-time dependencies only (npm install --omit=dev), from a checkout where
# `make plugin` has run (the root's npm ci, the core's build, plugin/dist). The Dockerfile next
# to this file RUNs it; `make test-deploy` runs it into a temporary folder and starts the
# receiver from there, with no checkout around it.
#
# OUT is a small workspace of its own, in the repository's layout (the headless renderer finds
# the built panel and its page bundle from its own place):
#   package.json            the runtime's workspaces: notify, packages/profile-core, packages/headless
#   notify/                 the receiver (no tests, no bench)
#   packages/profile-core/  the core's ESM build (dist/) and package.json
#   packages/headless/      the headless renderer
#   node_modules/           what npm installed: the three workspaces (links inside OUT) and their
#                           dependencies: playwright-core (drives Chromium), fflate and fzstd (the
#                           core's gzip and zstd), esbuild (the renderer's bundler; unused here),
#                           prom-client (hotpath-profile-metrics' /metrics) with @opentelemetry/api,
#                           tdigest and bintrees
#   plugin/dist/, plugin/scripts/snapshot.mjs, plugin/src/constants/testIds.ts
#                           the built panel, the snapshot CLI (--renderer cli) and the test ids
#   catalogue/catalogue.json
#                           the alerts the receiver knows (their profile kind and baseline)
#   .cache/browser/host.js  the host page, bundled here ahead of time: the tree has none of the
#                           @grafana/* packages or React it is bundled from
# Each package.json is the checkout's without its scripts and devDependencies: npm resolves only
# what runs. Chromium is not in it: the image installs Debian's, the host finds it at $CHROMIUM
# (default /usr/bin/chromium).
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: deploy/notify/assemble.sh OUT" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
for need in plugin/dist/module.js packages/profile-core/dist/index.mjs node_modules/esbuild/package.json; do
  [[ -f "$root/$need" ]] || { echo "assemble: $need is missing: run 'make plugin' first" >&2; exit 1; }
done
case "$(realpath -m "$out")/" in
  "$root"/*) echo "assemble: OUT must be outside the checkout ($root)" >&2; exit 2 ;;
esac

# the host page, bundled from the checkout's packages into its .cache (reused when fresh)
(cd "$root" && node --input-type=module -e "
  const { buildHost } = await import('@hotpath/headless/build.mjs');
  await buildHost('host');
")

rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
copy() { # copy PATH...: each path of the checkout to the same path under OUT
  for p in "$@"; do
    mkdir -p "$out/$(dirname "$p")"
    cp -R "$root/$p" "$out/$p"
  done
}
copy notify/hotpath-notify.mjs notify/slack-sink.mjs notify/README.md notify/lib \
  packages/profile-core/dist packages/headless catalogue/catalogue.json \
  plugin/dist plugin/scripts/snapshot.mjs plugin/src/constants/testIds.ts
rm -f "$out/packages/headless/package.json"
# the run-time package.json files, and the runtime's own root
(cd "$root" && node --input-type=module - "$out" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
const out = process.argv[2];
const runtime = ['notify', 'packages/profile-core', 'packages/headless'];
for (const dir of runtime) {
  const { scripts, devDependencies, ...p } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
  writeFileSync(`${out}/${dir}/package.json`, `${JSON.stringify(p, null, 2)}\n`);
}
const root = { name: 'hotpath-notify-runtime', private: true, workspaces: runtime };
writeFileSync(`${out}/package.json`, `${JSON.stringify(root, null, 2)}\n`);
JS
)
(cd "$out" && npm install --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error)
# The host rebuilds a bundle older than its sources: every file gets one fixed, old time (which
# also makes the tree the same from build to build), then the bundle a newer one.
find "$out" -exec touch -h -d '2000-01-01T00:00:00Z' {} +
copy .cache/browser/host.js
touch -d '2000-01-02T00:00:00Z' "$out/.cache/browser/host.js"
echo "assemble: hotpath-notify in $out ($(du -sh "$out" | cut -f1)): node $out/notify/hotpath-notify.mjs --help"
