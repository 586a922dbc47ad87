#!/usr/bin/env bash
# assemble.sh OUT: the runtime tree of hotpath-notify, written into OUT (emptied first), from a
# checkout where `make plugin` has run (plugin/dist and plugin/node_modules). The Dockerfile next
# to this file RUNs it; `make test-deploy` runs it into a temporary folder and starts the receiver
# from there, with no checkout around it.
#
# OUT keeps the repository's layout for the files the receiver reads (notify/ imports
# ../plugin/scripts/headless, which finds plugin/dist and its bundles by its own location):
#   notify/                 the receiver (no tests)
#   catalogue/catalogue.json
#                           the alerts the receiver knows (their profile kind and baseline)
#   plugin/scripts/         the snapshot CLI and the headless host it renders with
#   plugin/dist/            the built panel
#   plugin/src/data/, plugin/src/windows/windows.ts, plugin/src/constants/testIds.ts
#                           sources the bundles' age is compared with, and the test ids
#   plugin/node_modules/    the packages loaded at run time and their dependencies:
#                           playwright-core (drives Chromium), pprof-format (reads Pyroscope's
#                           answers), esbuild (loaded by the host)
#   .cache/browser/, .cache/notify/
#                           the host page, the data layer and the panel's window rules, bundled
#                           here, ahead of time: the tree has none of the @grafana/* packages or
#                           TypeScript sources they are bundled from
# Chromium is not in it: the image installs Debian's, the host finds it at $CHROMIUM
# (default /usr/bin/chromium).
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: deploy/notify/assemble.sh OUT" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
for need in plugin/dist/module.js plugin/node_modules/esbuild/package.json plugin/node_modules/playwright-core/package.json; do
  [[ -f "$root/$need" ]] || { echo "assemble: $need is missing: run 'make plugin' first" >&2; exit 1; }
done
case "$(realpath -m "$out")/" in
  "$root"/*) echo "assemble: OUT must be outside the checkout ($root)" >&2; exit 2 ;;
esac

# The bundles, built from the checkout's packages into its .cache (reused when fresh); loading
# panel-windows.mjs bundles the window rules.
(cd "$root" && node --input-type=module -e "
  const { buildHost } = await import('./plugin/scripts/headless/build.mjs');
  const { dataLayer } = await import('./plugin/scripts/headless/data-node.mjs');
  await import('./notify/lib/panel-windows.mjs');
  await buildHost('host');
  await dataLayer();
")
bundles=(.cache/browser/host.js .cache/browser/data-node.mjs .cache/notify/windows.mjs)
# The run-time packages and their dependencies (optional ones where installed: esbuild's binary
# is the platform's package, @esbuild/linux-x64 here), from the installed package.json files.
packages=$(cd "$root/plugin" && node --input-type=module -e "
  import { existsSync, readFileSync } from 'node:fs';
  const seen = new Set();
  const add = (name) => {
    const file = 'node_modules/' + name + '/package.json';
    if (seen.has(name) || !existsSync(file)) return;
    seen.add(name);
    const p = JSON.parse(readFileSync(file, 'utf8'));
    Object.keys({ ...p.dependencies, ...p.optionalDependencies }).forEach(add);
  };
  ['playwright-core', 'pprof-format', 'esbuild'].forEach(add);
  console.log([...seen].map((n) => 'plugin/node_modules/' + n).join(' '));
")

rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
copy() { # copy PATH...: each path of the checkout to the same path under OUT
  for p in "$@"; do
    mkdir -p "$out/$(dirname "$p")"
    cp -R "$root/$p" "$out/$p"
  done
}
copy notify/hotpath-notify.mjs notify/slack-sink.mjs notify/README.md notify/lib catalogue/catalogue.json \
  plugin/package.json plugin/package-lock.json plugin/scripts plugin/dist \
  plugin/src/data plugin/src/windows/windows.ts plugin/src/constants/testIds.ts
# shellcheck disable=SC2086 # one path per word
copy $packages
# The host rebuilds a bundle older than its sources: every file gets one fixed, old time (which
# also makes the tree the same from build to build), then the bundles a newer one.
find "$out" -exec touch -h -d '2000-01-01T00:00:00Z' {} +
copy "${bundles[@]}"
for b in "${bundles[@]}"; do touch -d '2000-01-02T00:00:00Z' "$out/$b"; done
echo "assemble: hotpath-notify in $out ($(du -sh "$out" | cut -f1)): node $out/notify/hotpath-notify.mjs --help"
