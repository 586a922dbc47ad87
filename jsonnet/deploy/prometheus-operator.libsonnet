// For prometheus-operator: the rule pack as a PrometheusRule, and an
// AlertmanagerConfig that routes the pack's alerts to hotpath-notify.
local files = import '../lib/files.libsonnet';

{
  local k = $._config.kubernetes,
  local n = k.notify,

  // The pack's alert names, read from the alert groups themselves: a new alert
  // is routed without a second list to keep in step.
  local alertNames = [r.alert for g in $.prometheusAlerts.groups for r in g.rules if std.objectHas(r, 'alert')],

  kubernetesManifests+:: {
    'prometheus-operator/prometheusrule.yaml': files.prometheusRule($, {
      namespace: k.namespace,
      labels+: k.commonLabels + k.ruleLabels,
    }),

    // The operator adds a `namespace=<this namespace>` matcher to this route
    // unless the Alertmanager's alertmanagerConfigMatcherStrategy is None; the
    // pack's alerts carry the namespace of the service they are about, so set
    // it to None (the README's install section shows how).
    'prometheus-operator/alertmanagerconfig.yaml': {
      apiVersion: 'monitoring.coreos.com/v1alpha1',
      kind: 'AlertmanagerConfig',
      metadata: {
        name: 'hotpath-notify',
        namespace: k.namespace,
        labels: k.commonLabels + k.alertmanagerConfigLabels + { 'app.kubernetes.io/name': 'hotpath-notify' },
      },
      spec: {
        route: {
          receiver: 'hotpath-notify',
          matchers: [{ name: 'alertname', matchType: '=~', value: std.join('|', alertNames) }],
          // One notification per alert: the receiver answers each alert with its
          // own profile diff, so grouping would only delay the later ones.
          groupBy: ['...'],
          groupWait: '30s',
          groupInterval: '5m',
          repeatInterval: '12h',
        },
        receivers: [{
          name: 'hotpath-notify',
          webhookConfigs: [{
            url: 'http://hotpath-notify.%s.svc:%d/webhook' % [k.namespace, n.port],
            // A resolve updates the message.
            sendResolved: true,
            maxAlerts: n.maxAlerts,
            httpConfig: {
              authorization: { type: 'Bearer', credentials: { name: n.secretName, key: 'token' } },
            },
          }],
        }],
      },
    },
  },
}
