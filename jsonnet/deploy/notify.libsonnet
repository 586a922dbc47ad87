// hotpath-notify in the cluster: a Deployment of the image built from
// deploy/notify/Dockerfile, the PersistentVolumeClaim that keeps its state and
// pictures, its Service, a NetworkPolicy that lets only Alertmanager post to it,
// and an Ingress that opens only the pictures (/images/) to Slack's image
// fetcher.
//
// A Deployment with a claim of its own, not a StatefulSet: the claim is a plain
// manifest, so its size applies with kubectl apply (a StatefulSet's
// volumeClaimTemplates cannot change), an install from before the claim updates
// in place, and "one receiver at a time" holds through the claim's access mode
// (ReadWriteOncePod: a second pod cannot mount it, whatever created that pod)
// together with a rollout that never adds a pod (maxSurge 0: the old pod is
// stopped before the new one is created).
local durations = import '../lib/durations.libsonnet';

{
  local k = $._config.kubernetes,
  local n = k.notify,
  local labels = k.commonLabels { 'app.kubernetes.io/name': 'hotpath-notify' },
  local selector = { 'app.kubernetes.io/name': 'hotpath-notify', 'app.kubernetes.io/part-of': 'hotpath' },
  // The claim's mount: the out-dir (messages.jsonl, each alert's folder), the
  // pictures Slack fetches, and the journal; all three survive the pod.
  local stateMount = '/var/lib/hotpath-notify',
  local claimName = 'hotpath-notify',
  local secretDir = '/etc/hotpath-notify',
  local metadata = { name: 'hotpath-notify', namespace: k.namespace, labels: labels },

  // The receiver finds the anomaly's start from startsAt minus the rules'
  // for:, so it gets the longest for: of the pack.
  local pending = durations.format(std.foldl(std.max, [durations.seconds(d) for d in std.objectValues($._config.alertFor)], 0)),

  assert !std.objectHas(n, 'outDirVolume') :
         'kubernetes.notify.outDirVolume is gone: the receiver keeps its state on the PersistentVolumeClaim hotpath-notify; size it with stateVolumeSize and stateStorageClassName',
  assert n.replicas <= 1 :
         'kubernetes.notify.replicas: %d, but one receiver owns the state claim; keep 1 (or 0 to stop it)' % n.replicas,
  assert std.member(['ClusterIssuer', 'Issuer'], n.certManagerIssuer.kind) :
         "kubernetes.notify.certManagerIssuer.kind: want 'ClusterIssuer' or 'Issuer', got %s" % n.certManagerIssuer.kind,

  local publicHost =
    if n.publicURL == '' then ''
    else
      assert std.startsWith(n.publicURL, 'https://') || std.startsWith(n.publicURL, 'http://') :
             'kubernetes.notify.publicURL: want http(s)://host[:port], got %s' % n.publicURL;
      std.split(std.split(n.publicURL, '/')[2], ':')[0],

  local probe(period) = {
    httpGet: { path: '/-/healthy', port: 'http' },
    periodSeconds: period,
    timeoutSeconds: 5,
    failureThreshold: 3,
  },

  kubernetesManifests+:: {
    'notify/deployment.yaml': {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: metadata,
      spec: {
        replicas: n.replicas,
        // Stop the old pod before the new one starts: two receivers would
        // fight over the journal, and the new pod could not mount the claim
        // while the old one holds it (a surge pod would hang the rollout).
        // A rolling update that never adds a pod does that with one
        // replica, and, unlike Recreate, applies over an earlier install's
        // defaulted rollingUpdate with server-side apply too (Flux, Argo
        // CD): the API server refuses type Recreate beside a rollingUpdate
        // it filled in itself, which server-side apply never removes
        // (tests/deploy/apply: every install path against a real API server).
        // The new pod, created while the old one shuts down, waits for the
        // claim (ReadWriteOncePod) until the old one is gone.
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: labels + selector },
          spec: {
            automountServiceAccountToken: false,
            // SIGTERM's shutdown: the running alerts' drain (--shutdown-grace,
            // 20s), a Slack retry already sent (its 30s timeout, at the same
            // time) and the warm browser's close (5s) take up to about 40s,
            // more than Kubernetes' default 30s before SIGKILL.
            terminationGracePeriodSeconds: 60,
            // fsGroup makes the claim writable by the receiver's user;
            // OnRootMismatch skips the walk over every picture at each start.
            securityContext: { runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, fsGroup: 10001, fsGroupChangePolicy: 'OnRootMismatch', seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'hotpath-notify',
              image: n.image,
              args: [
                '--listen=0.0.0.0:%d' % n.port,
                '--profiles=' + k.pyroscopeURL,
              ] + (if k.prometheusURL != '' then ['--prometheus=' + k.prometheusURL] else []) + [
                '--out-dir=' + stateMount,
                '--images-dir=' + stateMount,
                // The receiver's own default (<images-dir>/.state), spelled out:
                // the journal must be on the claim.
                '--state-dir=%s/.state' % stateMount,
                '--token-file=%s/token' % secretDir,
                '--pending=' + pending,
                '--concurrency=%d' % n.concurrency,
              ] + (if n.publicURL != '' then ['--public-url=' + n.publicURL] else []),
              env: [
                // Read by hotpath-notify as --slack-webhook's default: a URL
                // with a secret in it stays out of the process's arguments.
                { name: 'HOTPATH_SLACK_WEBHOOK_URL', valueFrom: { secretKeyRef: { name: n.secretName, key: 'slack-webhook-url', optional: true } } },
                // Chromium writes its profile and crash reports under HOME; the
                // root filesystem is read-only.
                { name: 'HOME', value: '/tmp' },
              ],
              ports: [{ name: 'http', containerPort: n.port, protocol: 'TCP' }],
              readinessProbe: probe(10),
              livenessProbe: probe(30),
              resources: n.resources,
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'state', mountPath: stateMount },
                { name: 'secret', mountPath: secretDir, readOnly: true },
                { name: 'tmp', mountPath: '/tmp' },
                // Chromium shares rendered frames through /dev/shm; a
                // container's default 64 MiB is too small for a large picture.
                { name: 'shm', mountPath: '/dev/shm' },
              ],
            }],
            volumes: [
              { name: 'state', persistentVolumeClaim: { claimName: claimName } },
              { name: 'secret', secret: { secretName: n.secretName, items: [{ key: 'token', path: 'token' }] } },
              { name: 'tmp', emptyDir: {} },
              { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
            ],
          },
        },
      },
    },

    'notify/persistentvolumeclaim.yaml': {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: metadata { name: claimName },
      spec: {
        accessModes: [n.stateAccessMode],
        resources: { requests: { storage: n.stateVolumeSize } },
      } + (if n.stateStorageClassName == null then {} else { storageClassName: n.stateStorageClassName }),
    },

    'notify/service.yaml': {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: metadata,
      spec: {
        selector: selector,
        ports: [{ name: 'http', port: n.port, targetPort: 'http', protocol: 'TCP' }],
      },
    },

    // A NetworkPolicy sees ports, not paths: Alertmanager's pods may reach the
    // port, and the ingress controller's pods, whose Ingress below routes only
    // /images/. The kubelet's probes come from the node and are not filtered by
    // common CNIs.
    'notify/networkpolicy.yaml': {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: metadata,
      spec: {
        podSelector: { matchLabels: selector },
        policyTypes: ['Ingress'],
        ingress: [{
          from: [{
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': n.alertmanagerNamespace } },
            podSelector: { matchLabels: n.alertmanagerPodLabels },
          }],
          ports: [{ port: 'http', protocol: 'TCP' }],
        }] + (if publicHost != '' then [{
                from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': n.ingressControllerNamespace } } }],
                ports: [{ port: 'http', protocol: 'TCP' }],
              }] else []),
      },
    },
  } + (if publicHost == '' then {} else {
         'notify/ingress.yaml': {
           apiVersion: 'networking.k8s.io/v1',
           kind: 'Ingress',
           // cert-manager's ingress-shim turns the issuer annotation into a
           // Certificate for the tls host below, stored in its secretName.
           metadata: metadata + (
             if n.certManagerIssuer.name == '' || !std.startsWith(n.publicURL, 'https://') then {}
             else { annotations: { [{ ClusterIssuer: 'cert-manager.io/cluster-issuer', Issuer: 'cert-manager.io/issuer' }[n.certManagerIssuer.kind]]: n.certManagerIssuer.name } }
           ),
           spec: {
             ingressClassName: n.ingressClassName,
             rules: [{
               host: publicHost,
               http: {
                 // Only the pictures: /webhook and /-/healthy stay in the cluster.
                 paths: [{
                   path: '/images/',
                   pathType: 'Prefix',
                   backend: { service: { name: 'hotpath-notify', port: { name: 'http' } } },
                 }],
               },
             }],
           } + (if std.startsWith(n.publicURL, 'https://') then { tls: [{ hosts: [publicHost], secretName: n.ingressTLSSecretName }] } else {}),
         },
       }),
}
