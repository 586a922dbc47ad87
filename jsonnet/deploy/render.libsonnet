// Turns a mixin with the Kubernetes bundle (deploy.libsonnet) into its files,
// keyed by path relative to the repository root: one manifest per file.
local files = import '../lib/files.libsonnet';

function(mixin) {
  ['deploy/kubernetes/' + path]: files.yaml(mixin.kubernetesManifests[path])
  for path in std.objectFields(mixin.kubernetesManifests)
} + {
  ['deploy/grafana/' + path]: files.yaml(mixin.grafanaSnippets[path])
  for path in std.objectFields(mixin.grafanaSnippets)
} + {
  ['deploy/alertmanager/' + path]: files.yaml(mixin.alertmanagerSnippets[path], std.get(std.get(mixin, 'alertmanagerSnippetComments', {}), path, []))
  for path in std.objectFields(mixin.alertmanagerSnippets)
}
