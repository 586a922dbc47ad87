#!/usr/bin/env bash
# Builds the pinned Alertmanager and its amtool (tools/alertmanager/go.mod) into .tools/bin, through
# tools/build-module.sh like every tools module, with one extra step:
# Alertmanager's ui package embeds ui/app/dist (`//go:embed app/dist`), the web UI that its
# release process builds with npm; the module the Go proxy serves does not contain it, so a
# plain `go build` fails ("pattern app/dist: no matching files found"). The module cache is
# read-only (and -overlay may not replace files in it), so this script copies the module's
# source out of the tree once, adds ui/index.html (a page saying the UI is not built in; the
# API, /api/v2, is complete) as app/dist/index.html, and builds with a go.work that replaces the
# module by that copy. Every dependency version still comes from tools/alertmanager/go.sum.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(cd "$here" && go list -m -f '{{.Version}}' github.com/prometheus/alertmanager)
work="${HOTPATH_TOOLS_CACHE:-$HOME/.cache/hotpath/tools}/alertmanager-src-$version-$(sha256sum "$here/ui/index.html" | cut -c1-12)"
if [[ ! -f "$work/.complete" ]]; then
  src=$(cd "$here" && go mod download -json "github.com/prometheus/alertmanager@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d "$src" ]] || { echo "tools/alertmanager: go mod download gave no source directory" >&2; exit 1; }
  rm -rf "$work" && mkdir -p "$work"
  cp -r "$src" "$work/alertmanager" && chmod -R u+w "$work/alertmanager"
  mkdir -p "$work/alertmanager/ui/app/dist" && cp "$here/ui/index.html" "$work/alertmanager/ui/app/dist/index.html"
  printf 'go %s\n\nuse %s\n\nreplace github.com/prometheus/alertmanager %s => %s/alertmanager\n' \
    "$(cd "$here" && go list -m -f '{{.GoVersion}}')" "$here" "$version" "$work" > "$work/go.work"
  touch "$work/.complete"
fi
GOWORK="$work/go.work" exec "$root/tools/build-module.sh" tools/alertmanager github.com/prometheus/alertmanager/cmd/alertmanager github.com/prometheus/alertmanager/cmd/amtool
