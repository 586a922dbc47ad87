// The Kubernetes bundle: add it to a mixin to render deploy/. Each leaf adds
// manifests to kubernetesManifests+:: (deploy/kubernetes/<path>) or Grafana
// configuration snippets to grafanaSnippets+:: (deploy/grafana/<file>), and
// reads its knobs from _config.kubernetes.
(import 'prometheus-operator.libsonnet')
+ (import 'dashboards.libsonnet')
+ (import 'grafana.libsonnet')
+ (import 'notify.libsonnet')
