// The Kubernetes bundle with every kubernetes knob changed (and one alert's
// for:): the deploy tests check that no shipped default is left anywhere.
local mixin = (import 'mixin.libsonnet') + (import 'deploy/deploy.libsonnet') + {
  _config+:: {
    alertFor+: { CPUNotTrackingLoad: '1h30m' },
    kubernetes+: {
      namespace: 'obs',
      grafanaNamespace: 'grafana',
      commonLabels: { team: 'platform' },
      ruleLabels: { prometheus: 'main' },
      alertmanagerConfigLabels: { alertmanager: 'main' },
      dashboardSidecarLabels: { grafana_dashboard: 'hotpath' },
      dashboardFolder: 'SRE',
      dashboardFolderAnnotation: 'k8s-sidecar-target-directory',
      grafanaInstanceSelector: { matchLabels: { team: 'platform' } },
      pyroscopeURL: 'http://pyroscope-querier.profiles.svc:4040',
      prometheusURL: 'http://thanos-query.observability.svc:10902',
      grafana+: {
        pluginZipURL: 'https://artifacts.example.com/hotpath-overlay-panel-%(version)s.zip',
        pyroscopeDatasource: { name: 'Profiles', uid: 'profiles' },
      },
      notify+: {
        image: 'registry.example.com/hotpath-notify@sha256:0123',
        port: 8080,
        publicURL: '',
        secretName: 'notify-secrets',
        alertmanagerNamespace: 'alerting',
        alertmanagerPodLabels: { alertmanager: 'main' },
        maxAlerts: 50,
        concurrency: 4,
        stateVolumeSize: '20Gi',
        stateStorageClassName: 'fast-ssd',
        stateAccessMode: 'ReadWriteOnce',
        alertmanagerName: 'alertmanager',
      },
    },
  },
};
(import 'lib/render.libsonnet')(mixin) + (import 'deploy/render.libsonnet')(mixin)
