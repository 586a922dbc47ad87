// Knobs of the Kubernetes bundle: namespaces, selector labels, Grafana's
// side and hotpath-notify's Deployment. They steer deploy/*.libsonnet, which
// `make generate` renders into deploy/kubernetes/, deploy/grafana/ and
// deploy/alertmanager/.

{
  _config+:: {
    // ---- Kubernetes bundle (deploy/kubernetes) --------------------------------
    // `make generate` renders deploy/kubernetes/ from these knobs and the ones
    // above: the PrometheusRule and AlertmanagerConfig for prometheus-operator,
    // the dashboards for Grafana's sidecar and for grafana-operator, and
    // hotpath-notify (Deployment, PersistentVolumeClaim, Service, NetworkPolicy,
    // Ingress); deploy/alertmanager/ the routing for Alertmanager itself.
    kubernetes: {
      // Where the PrometheusRule, the AlertmanagerConfig and hotpath-notify go.
      // The AlertmanagerConfig's webhook URL names it
      // (http://hotpath-notify.<namespace>.svc:9095/webhook). Change it to keep
      // hotpath with your other monitoring, e.g. `namespace: 'monitoring'`.
      namespace: 'hotpath',

      // Where the dashboard ConfigMaps and GrafanaDashboards go: Grafana's own
      // namespace, because kube-prometheus-stack's dashboard sidecar looks only
      // there unless its `searchNamespace` is ALL. Example: 'grafana'.
      grafanaNamespace: 'monitoring',

      // Labels every manifest carries, e.g. to select the bundle with kubectl
      // (`kubectl get all -l app.kubernetes.io/part-of=hotpath -A`).
      commonLabels: { 'app.kubernetes.io/part-of': 'hotpath' },

      // Labels that prometheus-operator's ruleSelector picks the PrometheusRule
      // by. kube-prometheus-stack selects `release: <its Helm release name>`
      // unless ruleSelectorNilUsesHelmValues is false; set your release's name,
      // e.g. `{ release: 'prometheus' }`, or {} when your ruleSelector is empty.
      ruleLabels: { release: 'kube-prometheus-stack' },

      // Labels that the Alertmanager's alertmanagerConfigSelector picks the
      // AlertmanagerConfig by. kube-prometheus-stack's is empty by default and
      // picks every AlertmanagerConfig in every namespace; set the labels your
      // selector wants, e.g. `{ alertmanagerConfig: 'enabled' }`.
      alertmanagerConfigLabels: {},

      // The label (and value) that kube-prometheus-stack's Grafana sidecar finds
      // dashboard ConfigMaps by (its `sidecar.dashboards.label` and `labelValue`).
      // Change it to match a sidecar configured otherwise, e.g.
      // `{ grafana_dashboard: 'hotpath' }`.
      dashboardSidecarLabels: { grafana_dashboard: '1' },

      // The Grafana folder the dashboards land in: an annotation on the
      // ConfigMaps (the sidecar reads it when its `folderAnnotation` names
      // dashboardFolderAnnotation; deploy/grafana's values set that) and the
      // folder of the GrafanaDashboards. Example: `dashboardFolder: 'SRE / CPU'`;
      // `dashboardFolderAnnotation: 'k8s-sidecar-target-directory'` for a
      // sidecar configured with that annotation already.
      dashboardFolder: 'hotpath',
      dashboardFolderAnnotation: 'grafana_folder',

      // Which Grafana instances of grafana-operator import the GrafanaDashboards
      // (their instanceSelector); label your Grafana resource with it. Example:
      // `{ matchLabels: { team: 'platform' } }`.
      grafanaInstanceSelector: { matchLabels: { dashboards: 'grafana' } },

      // Pyroscope's URL from inside the cluster: hotpath-notify queries it and
      // the Grafana snippets add it as a datasource. Example for Pyroscope's
      // Helm chart in microservices mode, namespace pyroscope:
      // 'http://pyroscope-query-frontend.pyroscope.svc:4040'.
      pyroscopeURL: 'http://pyroscope.pyroscope.svc:4040',

      // Prometheus's URL from inside the cluster (or Thanos Query's): with it
      // hotpath-notify finds where an incident started in the alert's own
      // recorded series and gives each change per request; empty leaves the
      // receiver on windows from the alert's times, marked approximate in
      // every message. Example for kube-prometheus-stack released as `kps`
      // in namespace monitoring: 'http://kps-prometheus.monitoring.svc:9090'.
      prometheusURL: 'http://prometheus-operated.monitoring.svc:9090',

      // Grafana's side (deploy/grafana: values for Grafana's Helm chart and
      // kube-prometheus-stack, and a Grafana resource for grafana-operator).
      grafana: {
        // Where Grafana downloads the panel plugin's zip (`make plugin` builds
        // plugin/hotpath-overlay-panel-<version>.zip); the version is the
        // plugin's own. Point it at your artifact store when Grafana cannot
        // reach GitHub, e.g.
        // 'https://artifacts.example.com/hotpath-overlay-panel-0.2.0.zip'.
        pluginZipURL: 'https://github.com/hotpath/hotpath/releases/download/v%(version)s/hotpath-overlay-panel-%(version)s.zip',

        // The Pyroscope datasource the snippets add. The dashboards pick
        // profiles through their `profiles` variable, so the name is free;
        // keep the uid stable if you link to Explore with it. Example:
        // `pyroscopeDatasource: { name: 'Profiles', uid: 'profiles' }`.
        pyroscopeDatasource: { name: 'Pyroscope', uid: 'pyroscope' },
      },

      // hotpath-notify, the Alertmanager receiver (notify/README.md).
      notify: {
        // The image built from deploy/notify/Dockerfile. Pin your registry's
        // copy by digest, e.g. 'registry.example.com/hotpath-notify@sha256:...'.
        image: 'ghcr.io/hotpath/hotpath-notify:0.2.0',

        // Keep one (or 0 to stop it): the receiver keeps its journal and what
        // it announced on its claim (see stateVolumeSize), which one pod at a
        // time may mount, so a second replica would only wait for the first. Its
        // queue keeps one busy replica from blocking Alertmanager
        // (notify/README.md).
        replicas: 1,

        // The port it listens on, and the Service's. Change it only if 9095
        // is taken by policy, e.g. 8080.
        port: 9095,

        // How Slack's image fetcher reaches the receiver: the diff pictures'
        // links start with it. The Ingress routes only /images/ of this host to
        // the receiver; empty renders no Ingress (messages then carry no
        // fetchable picture). Example: 'https://hotpath-notify.example.com'.
        publicURL: 'https://hotpath-notify.example.com',
        // The IngressClass of the Ingress, and the namespace of its controller
        // (the NetworkPolicy lets only that controller's pods fetch images).
        // Example for ingress-nginx: 'nginx' and 'ingress-nginx'.
        ingressClassName: 'nginx',
        ingressControllerNamespace: 'ingress-nginx',
        // The TLS Secret of an https publicURL's host, in the receiver's
        // namespace. Nothing in the bundle creates it: cert-manager does when
        // certManagerIssuer is set, or you do (`kubectl create secret tls`).
        // Without it the ingress controller serves its own default certificate,
        // which Slack's image fetcher refuses: messages arrive without their
        // picture. Example: 'wildcard-example-com'.
        ingressTLSSecretName: 'hotpath-notify-tls',
        // The cert-manager issuer that fills ingressTLSSecretName: the Ingress
        // gets `cert-manager.io/cluster-issuer: <name>` (kind ClusterIssuer) or
        // `cert-manager.io/issuer: <name>` (kind Issuer, in the receiver's
        // namespace), and cert-manager's ingress-shim requests the certificate
        // for publicURL's host. Empty name: no annotation (bring the Secret
        // yourself). Example: `{ kind: 'ClusterIssuer', name: 'letsencrypt-prod' }`.
        certManagerIssuer: { kind: 'ClusterIssuer', name: '' },

        // The Secret (created by you, never rendered) that holds the bearer
        // token Alertmanager sends (key `token`) and the Slack incoming webhook
        // URL (key `slack-webhook-url`; optional: without it messages go only
        // to the out-dir). Change it to follow your Secret naming, e.g.
        // 'hotpath-notify-credentials' (the AlertmanagerConfig reads the
        // token from the same Secret, in the same namespace).
        secretName: 'hotpath-notify',

        // The Alertmanager pods allowed to post to the webhook: their namespace
        // and their labels (kube-prometheus-stack's, for an Alertmanager named
        // alertmanager in namespace monitoring). Example for another release:
        // `alertmanagerPodLabels: { 'alertmanager': 'main' }`.
        alertmanagerNamespace: 'monitoring',
        alertmanagerPodLabels: { 'app.kubernetes.io/name': 'alertmanager' },

        // The name of your prometheus-operator `Alertmanager` resource (in
        // alertmanagerNamespace): deploy/alertmanager's snippet is a merge patch
        // for it that sets the matcher strategy the AlertmanagerConfig needs.
        // kube-prometheus names it main; kube-prometheus-stack sets the same
        // fields through its values instead. Example: 'alertmanager'.
        alertmanagerName: 'main',

        // The largest webhook Alertmanager may send; it truncates at this and
        // says how many it dropped. The receiver queues up to 1000 alerts on
        // disk (queueMax in notify/lib/notifier.mjs) and refuses the rest with
        // a 503 so Alertmanager sends them again. Lower it to bound a storm's
        // renders, e.g. 50; keep it within the receiver's queue.
        maxAlerts: 200,

        // One render is one headless Chromium (about 300 MB and a core for a
        // few seconds); the receiver renders --concurrency (2) at once. Raise the
        // limits with the concurrency, e.g. `concurrency: 4` and 2Gi.
        concurrency: 2,
        resources: {
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { memory: '1536Mi' },
        },

        // The size of the receiver's PersistentVolumeClaim `hotpath-notify`:
        // the journal (accepted alerts not yet delivered, Slack deliveries
        // waiting for a retry, what was announced), messages.jsonl and each
        // alert's folder (message and picture, a few hundred KB, removed after
        // the receiver's --retention of 14 days). 2Gi holds thousands of
        // alerts. Raise it for a noisy fleet, e.g. '10Gi'; a bound claim grows
        // only where its StorageClass allows volume expansion.
        stateVolumeSize: '2Gi',

        // The claim's StorageClass. null leaves it to the cluster's default
        // class; '' asks for a pre-provisioned volume with no class. A claim's
        // class cannot change once it is bound (delete the claim to move, and
        // its state with it). Example: 'gp3' on EKS, 'premium-rwo' on GKE.
        stateStorageClassName: null,

        // How the claim may be mounted. ReadWriteOncePod (Kubernetes 1.29+,
        // CSI volumes) lets one pod use it, cluster-wide: a second receiver
        // waits Pending until the first is gone, during a rollout (the new pod
        // is created while the old one shuts down) and while an evicted or
        // drained pod is still shutting down. Use 'ReadWriteOnce' only where
        // the volume plugin is not CSI: one node at a time, not one pod, so a
        // new pod on the same node can start beside the old one for the old
        // one's shutdown (up to 60s).
        stateAccessMode: 'ReadWriteOncePod',
      },
    },
  },
}
