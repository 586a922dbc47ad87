// The Kubernetes bundle: add it to a mixin to render deploy/. Each leaf adds
// manifests to kubernetesManifests+:: (deploy/kubernetes/<path>), Grafana
// configuration snippets to grafanaSnippets+:: (deploy/grafana/<file>) or
// Alertmanager ones to alertmanagerSnippets+:: (deploy/alertmanager/<file>),
// and reads its knobs from _config.kubernetes.
// Its knobs: config/kubernetes.libsonnet.
(import 'prometheus-operator.libsonnet')
+ (import 'dashboards.libsonnet')
+ (import 'grafana.libsonnet')
+ (import 'notify.libsonnet')
