#!/usr/bin/env bash
# Builds the pinned Go tools into .tools/bin (git-ignored): promtool and
# prometheus from github.com/prometheus/prometheus, jsonnet, jsonnetfmt and
# jsonnet-lint from github.com/google/go-jsonnet. Versions come from
# tools/go.mod; a stamp of that file's hash makes re-runs a no-op.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/bin"
stamp="$root/.tools/go-tools.stamp"
want=$(cat "$root/tools/go.mod" "$root/tools/go.sum" "$0" | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
mkdir -p "$bin"
echo "tools: building promtool, prometheus, jsonnet, jsonnetfmt, jsonnet-lint (pinned in tools/go.mod; first run takes a few minutes)" >&2
start=$(date +%s)
cd "$root/tools"
# -mod=readonly: go.sum is the lock; a build never rewrites it.
go build -mod=readonly -trimpath -o "$bin/" \
  github.com/prometheus/prometheus/cmd/prometheus \
  github.com/prometheus/prometheus/cmd/promtool \
  github.com/google/go-jsonnet/cmd/jsonnet \
  github.com/google/go-jsonnet/cmd/jsonnetfmt \
  github.com/google/go-jsonnet/cmd/jsonnet-lint
echo "$want" > "$stamp"
echo "tools: built in $(( $(date +%s) - start ))s into .tools/bin" >&2
