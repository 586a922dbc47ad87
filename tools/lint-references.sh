#!/usr/bin/env bash
# lint-references.sh: fails on references a reader of this repository cannot
# follow: documents and folders that are not in it (a design document, seed
# stories, their numbers), issue numbers of a tracker that is not linked, and
# narrated CI incidents ("CI at 02:44"). Say the fact and its reason instead,
# and point at what is here: docs/reference.md for the public names, the
# playground's incidents by story name (println, epoll, cfs, gzip, outlier).
#
# It also checks that docs/reference.md lists every option of the panel
# plugin (plugin/src/options.ts), the one part of that page written by hand.
#
# Scans every file git tracks or would track (untracked, not ignored), text
# only. `make lint` runs it; `tools/lint-references.sh FILE...` checks those.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Each rule: an extended regex (case-insensitive), then what to write instead.
patterns=(
  'DESIGN\.md'
  'shared/|seeds/'
  '\bissues? #?[0-9]+'
  '\bstor(y|ies) [0-9]{3}|\bstory \([0-9]{3}\)|\(00[0-9]\)'
  '\bCI (at|saw)\b|\bCI [a-z]* ?at [0-9]{1,2}:[0-9]{2}'
)
instead=(
  'a design document that is not in the repository: state the contract here (docs/reference.md for public names)'
  'a folder outside the repository: name the playground incident (docs/reference.md) or say the fact'
  'an issue number without a link: say the fact and why (or link a public tracker)'
  'an incident by its number: name it (println, epoll, cfs, gzip, outlier) or say the fact'
  'the story of a CI run: say what fails and why'
)

# Files whose text must name these patterns: this lint, the lints' own test
# (it seeds them), and the test that keeps the same words out of dashboard text.
allow='^(tools/lint-references\.sh|tools/lint\.test\.mjs|tests/dashboards/descriptions_test\.go):'

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <({ git ls-files; git ls-files --others --exclude-standard; } | grep -vE '(^|/)(package-lock\.json|go\.sum)$' | sort -u)
fi
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done

status=0
for i in "${!patterns[@]}"; do
  hits=$(printf '%s\0' "${existing[@]}" | xargs -0 grep -nIiHE -- "${patterns[$i]}" | grep -vE "$allow" || true)
  if [ -n "$hits" ]; then
    cut -c1-240 <<<"$hits" >&2
    echo "  -> ${instead[$i]}" >&2
    status=1
  fi
done

# docs/reference.md lists every plugin option (plugin/src/options.ts).
if [ $# -eq 0 ]; then
  for opt in $(sed -n "s/^ *path: '\([A-Za-z]*\)',\$/\1/p" plugin/src/options.ts); do
    if ! grep -q "^| \`$opt\` |" docs/reference.md; then
      echo "docs/reference.md: the plugin option $opt (plugin/src/options.ts) is not listed; add it in jsonnet/reference.libsonnet" >&2
      status=1
    fi
  done
fi

[ $status -eq 0 ] && echo "references: every one resolves (${#existing[@]} files)"
exit $status
