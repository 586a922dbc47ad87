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
# Every suite by default, the largest first: promtool evaluates one suite on
# one core, so the suites run side by side, one per core, and the longest
# starts at once rather than last.
[ ${#suites[@]} -gt 0 ] || mapfile -t suites < <(ls -S -- *.yaml)
jobs=${RULE_TEST_JOBS:-$(nproc)}
printf '%s\0' "${suites[@]}" | xargs -0 -P "$jobs" -I{} sh -c \
  's=$(date +%s); "$0" test rules "$1" >"$2/$1.log" 2>&1 && echo "$1: passed in $(($(date +%s) - s))s" || { echo "$1: FAILED" >"$2/$1.failed"; echo "$1: FAILED after $(($(date +%s) - s))s"; }' \
  "$root/.tools/bin/promtool" {} "$tmp"
failed=0
for s in "${suites[@]}"; do
  if [ -e "$tmp/$s.failed" ]; then
    echo "== $s" >&2
    cat "$tmp/$s.log" >&2
    failed=1
  fi
done
exit $failed
