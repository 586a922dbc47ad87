// For prometheus-operator: the rule pack as a PrometheusRule, and an
// AlertmanagerConfig that routes the pack's alerts to hotpath-notify. For
// Alertmanager itself (alertmanagerSnippets: deploy/alertmanager/): a merge
// patch for a prometheus-operator `Alertmanager` that lets the
// AlertmanagerConfig see the pack's alerts, and the same route and receiver as
// plain alertmanager.yml for an Alertmanager without the operator.
local files = import '../lib/files.libsonnet';

{
  local k = $._config.kubernetes,
  local n = k.notify,

  // The pack's alert names, read from the alert groups themselves: a new alert
  // is routed without a second list to keep in step.
  local alertNames = [r.alert for g in $.prometheusAlerts.groups for r in g.rules if std.objectHas(r, 'alert')],
  local alertnameRegex = std.join('|', alertNames),
  local webhookURL = 'http://hotpath-notify.%s.svc:%d/webhook' % [k.namespace, n.port],

  // The route's timing, the same with and without the operator.
  local timing = { groupWait: '30s', groupInterval: '5m', repeatInterval: '12h' },

  kubernetesManifests+:: {
    'prometheus-operator/prometheusrule.yaml': files.prometheusRule($, {
      namespace: k.namespace,
      labels+: k.commonLabels + k.ruleLabels,
    }),

    // The operator adds `namespace="<this namespace>"` to this route unless
    // the Alertmanager's alertmanagerConfigMatcherStrategy is None; the pack's
    // alerts carry the namespace of the service they are about, so with the
    // operator's default (OnNamespace) none of them would reach the receiver.
    // deploy/grafana's kube-prometheus-stack values and deploy/alertmanager's
    // patch set None.
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
          matchers: [{ name: 'alertname', matchType: '=~', value: alertnameRegex }],
          // One notification per alert: the receiver answers each alert with
          // its own profile diff, so grouping would only delay the later ones.
          groupBy: ['...'],
        } + timing,
        receivers: [{
          name: 'hotpath-notify',
          webhookConfigs: [{
            url: webhookURL,
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

  // The merge patch's spec: None, the AlertmanagerConfig's route keeps only
  // its own matchers. The empty selectors pick every AlertmanagerConfig in
  // every namespace where the Alertmanager had none (an Alertmanager without
  // selectors picks no AlertmanagerConfig at all); a merge patch leaves
  // selectors you already have as they are.
  local alertmanagerPatchSpec = {
    alertmanagerConfigMatcherStrategy: { type: 'None' },
    alertmanagerConfigSelector: if k.alertmanagerConfigLabels == {} then {} else { matchLabels: k.alertmanagerConfigLabels },
    alertmanagerConfigNamespaceSelector: {},
  },

  alertmanagerSnippets+:: {
    'prometheus-operator-alertmanager.yaml': {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'Alertmanager',
      metadata: { name: n.alertmanagerName, namespace: n.alertmanagerNamespace },
      spec: alertmanagerPatchSpec,
    },

    // Without the operator: merge into alertmanager.yml (the route first
    // under your root route; continue keeps your own receivers for these
    // alerts), and mount the Secret's token at the credentials_file path.
    'alertmanager.yml': {
      route: {
        routes: [{
          receiver: 'hotpath-notify',
          matchers: ['alertname=~"%s"' % alertnameRegex],
          group_by: ['...'],
          group_wait: timing.groupWait,
          group_interval: timing.groupInterval,
          repeat_interval: timing.repeatInterval,
          continue: true,
        }],
      },
      receivers: [{
        name: 'hotpath-notify',
        webhook_configs: [{
          url: webhookURL,
          send_resolved: true,
          max_alerts: n.maxAlerts,
          http_config: { authorization: { credentials_file: '/etc/alertmanager/secrets/%s/token' % n.secretName } },
        }],
      }],
    },
  },

  // What a reader of deploy/alertmanager/<file> needs to apply it, written as
  // the file's header comment (deploy/render.libsonnet). The patch names one
  // Alertmanager: kubectl refuses it for any other ("the name of the object
  // does not match the name on the URL"), so the comment gives the same spec
  // as an inline patch for an Alertmanager of another name.
  alertmanagerSnippetComments+:: {
    'prometheus-operator-alertmanager.yaml': [
      'A merge patch for the prometheus-operator Alertmanager %s in namespace %s' % [n.alertmanagerName, n.alertmanagerNamespace],
      '(kubernetes.notify.alertmanagerName and alertmanagerNamespace). Apply it with:',
      '  kubectl -n %s patch alertmanager %s --type merge --patch-file prometheus-operator-alertmanager.yaml' % [n.alertmanagerNamespace, n.alertmanagerName],
      'Your Alertmanager has another name (kubectl get alertmanagers -A lists them)? kubectl refuses this',
      'file for it: its metadata names %s. Render the bundle with alertmanagerName (and' % n.alertmanagerName,
      'alertmanagerNamespace) set to yours, or patch yours with the spec alone, e.g. for <name> in <namespace>:',
      "  kubectl -n <namespace> patch alertmanager <name> --type merge -p '%s'" % std.manifestJsonMinified({ spec: alertmanagerPatchSpec }),
    ],
  },
}
