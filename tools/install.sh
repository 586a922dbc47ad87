#!/usr/bin/env bash
# Builds the pinned Go tools into .tools/bin (git-ignored): promtool and
# prometheus from github.com/prometheus/prometheus, jsonnet, jsonnetfmt and
# jsonnet-lint from github.com/google/go-jsonnet. Versions come from
# tools/go.mod; tools/build-module.sh makes re-runs a no-op and keeps the
# binaries in a cache outside the checkout for fresh clones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/build-module.sh" tools \
  github.com/prometheus/prometheus/cmd/prometheus \
  github.com/prometheus/prometheus/cmd/promtool \
  github.com/google/go-jsonnet/cmd/jsonnet \
  github.com/google/go-jsonnet/cmd/jsonnetfmt \
  github.com/google/go-jsonnet/cmd/jsonnet-lint
