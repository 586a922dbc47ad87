#!/usr/bin/env bash
# Builds the commands of one pinned Go tools module (a folder under tools/ with
# its own go.mod, go.sum and tools.go) into .tools/bin.
#
#   tools/build-module.sh [-tags TAGS] [-toolchain goX.Y.Z] DIR PKG...
#
# Why one script for every tools module: Prometheus, Thanos, Alertmanager and the
# plugin validator each pin dependencies the others would upgrade (Go's minimal
# version selection picks the newest of one module graph), so each lives in a
# module of its own, and they all build the same way:
#   - a stamp (hash of go.mod, go.sum, the flags and this script) in .tools/ makes
#     a re-run a no-op;
#   - the binaries are also kept in a cache outside the checkout, keyed by that
#     same hash (HOTPATH_TOOLS_CACHE, default ~/.cache/hotpath/tools), so a fresh
#     clone on the same machine (CI) copies them instead of rebuilding;
#   - -mod=readonly: go.sum is the lock, a build never rewrites it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tags=
toolchain=
while [[ $# -gt 0 ]]; do
  case "$1" in
    -tags) tags=$2; shift 2 ;;
    -toolchain) toolchain=$2; shift 2 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 ]]; then
  echo "usage: tools/build-module.sh [-tags TAGS] [-toolchain goX.Y.Z] DIR PKG..." >&2
  exit 2
fi
dir=$1; shift
mod="$root/$dir"
[[ -f "$mod/go.mod" ]] || { echo "build-module: $mod/go.mod not found" >&2; exit 2; }
name=$(basename "$dir")
bin="$root/.tools/bin"
stamp="$root/.tools/$name.stamp"
want=$( { cat "$mod/go.mod" "$mod/go.sum" "$0"; echo "tags=$tags toolchain=$toolchain $*"; } | sha256sum | cut -d' ' -f1)
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
cache="${HOTPATH_TOOLS_CACHE:-$HOME/.cache/hotpath/tools}/$name-$want"
mkdir -p "$bin"
if [[ ! -f "$cache/.complete" ]]; then
  echo "tools: building $* (pinned in $dir/go.mod${tags:+, tags $tags}${toolchain:+, $toolchain}); the first build takes minutes" >&2
  start=$(date +%s)
  rm -rf "$cache" && mkdir -p "$cache"
  (
    cd "$mod"
    if [[ -n "$toolchain" ]]; then export GOTOOLCHAIN=$toolchain; fi
    go build -mod=readonly -trimpath ${tags:+-tags "$tags"} -o "$cache/" "$@"
  )
  touch "$cache/.complete"
  echo "tools: built $name in $(( $(date +%s) - start ))s" >&2
fi
find "$cache" -maxdepth 1 -type f ! -name .complete -exec cp -f {} "$bin/" \;
echo "$want" > "$stamp"
