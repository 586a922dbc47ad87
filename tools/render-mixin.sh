#!/usr/bin/env bash
# render-mixin.sh ENTRY.jsonnet OUTDIR: renders a mixin entry point (a file that
# evaluates to { "relative/path": "file text" }) into OUTDIR, starting clean:
# `make generate`, the drift check, the Go tests' overlays and the demo's overlay.
set -euo pipefail
entry=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out" && mkdir -p "$out"
"$root/.tools/bin/jsonnet" -J "$root/jsonnet" -c -m "$out" -S "$entry" >/dev/null
