#!/usr/bin/env bash
# The promtool rule tests: checks that the suites match their generator
# (tests/rules/gen), renders the overlays some suites run against into
# .cache/rules-test/<overlay>/, and runs every suite with the pinned promtool.
#   tests/rules/run.sh [SUITE.yaml ...]   (default: every suite)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd tests && go run ./rules/gen -out "$tmp")
drift=0
for f in "$tmp"/*.yaml tests/rules/*.yaml; do
  name=$(basename "$f")
  if ! diff -u "tests/rules/$name" "$tmp/$name" >"$tmp/$name.diff" 2>&1; then
    head -30 "$tmp/$name.diff" >&2
    drift=1
  fi
done
if [ $drift -ne 0 ]; then
  echo "drift: tests/rules/*.yaml differ from tests/rules/gen; run: (cd tests && go run ./rules/gen)" >&2
  exit 1
fi

for overlay in tests/rules/overlays/*.jsonnet; do
  tools/render-mixin.sh "$overlay" ".cache/rules-test/$(basename "$overlay" .jsonnet)"
done

cd tests/rules
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(*.yaml)
"$root/.tools/bin/promtool" test rules "${suites[@]}"
