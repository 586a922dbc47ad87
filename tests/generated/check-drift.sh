#!/usr/bin/env bash
# Fails when a generated file (rules/, dashboards/, dashboards-import/,
# deploy/kubernetes/, deploy/grafana/, deploy/alertmanager/, catalogue/, docs/reference.md) differs from what jsonnet/
# generates, or when those folders hold files that are stale, uncommitted or
# untracked: generated files are never edited by hand (run `make generate` and
# commit the result).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools/render-mixin.sh jsonnet/generate.jsonnet "$tmp"
status=0
dirs="rules dashboards dashboards-import catalogue deploy/kubernetes deploy/grafana deploy/alertmanager"
for dir in $dirs; do
  mkdir -p "$tmp/$dir"
  if ! diff -r -u "$tmp/$dir" "$dir"; then
    echo "drift: $dir/ differs from jsonnet/ (diff above: generated vs committed); run 'make generate'" >&2
    status=1
  fi
done
for file in docs/reference.md; do
  if ! diff -u "$tmp/$file" "$file"; then
    echo "drift: $file differs from jsonnet/ (diff above: generated vs committed); run 'make generate'" >&2
    status=1
  fi
done
dirty=$(git status --porcelain --untracked-files=all -- $dirs docs/reference.md)
if [ -n "$dirty" ]; then
  printf 'drift: generated files not committed:\n%s\n' "$dirty" >&2
  status=1
fi
[ $status -eq 0 ] && echo "generated files match jsonnet/ ($(find "$tmp" -type f | wc -l) files)"
exit $status
