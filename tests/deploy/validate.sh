#!/usr/bin/env bash
# Validates every manifest that deploy/ ships (deploy/kubernetes, the Grafana
# resource of deploy/grafana and the Alertmanager of deploy/alertmanager) against the schemas vendored in
# tests/deploy/schemas (README.md there: which versions, from where), with the
# pinned kubeconform (tools/kubeconform), offline:
#   -strict: unknown and duplicate fields are errors, as the API server's
#     strict field validation makes them;
#   a kind without a vendored schema is an error (no -ignore-missing-schemas),
#     and the summary must count every file as valid, none skipped.
# Then the known-bad manifests of testdata/invalid must each be refused: the
# schemas are strict enough to catch a typo.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
kubeconform=.tools/bin/kubeconform
[[ -x $kubeconform ]] || { echo "validate: $kubeconform not built: run 'make tools'" >&2; exit 1; }
tpl='{{ .ResourceKind }}{{ .KindSuffix }}.json'
# validate K8SDIR FILE...: Kubernetes' kinds from K8SDIR, the operators' from crds/
validate() {
  local k8s=$1; shift
  "$kubeconform" -strict -summary -schema-location "$k8s/$tpl" -schema-location "tests/deploy/schemas/crds/$tpl" "$@"
}

shipped=(deploy/kubernetes deploy/grafana/grafana-operator-grafana.yaml deploy/alertmanager/prometheus-operator-alertmanager.yaml)
want=$(find "${shipped[@]}" -name '*.yaml' | wc -l)
releases=(tests/deploy/schemas/kubernetes-*)
for k8s in "${releases[@]}"; do
  summary=$(validate "$k8s" "${shipped[@]}") || { echo "$summary" >&2; echo "validate: deploy/ does not match the schemas of ${k8s##*/}" >&2; exit 1; }
  echo "${k8s##*/}: $summary"
  grep -q "Valid: $want, Invalid: 0, Errors: 0, Skipped: 0" <<<"$summary" || {
    echo "validate: want all $want manifests valid against ${k8s##*/}, none skipped" >&2
    exit 1
  }
done

status=0
for bad in tests/deploy/testdata/invalid/*.yaml; do
  if validate "${releases[0]}" "$bad" >/dev/null 2>&1; then
    echo "validate: $bad passed, but it must be refused ($(sed -n 's/^# //p' "$bad" | head -1))" >&2
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "validate: all $(ls tests/deploy/testdata/invalid/*.yaml | wc -l) known-bad manifests refused"
exit $status
