// Every label knob renamed, a static upstream edge, the cAdvisor CPU source
// and version sources: the rules must use these names and no default one.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      serviceLabel: 'service',
      instanceLabel: 'target',
      clusterLabel: 'k8s_cluster',
      namespaceLabel: 'k8s_namespace',
      podLabel: 'k8s_pod',
      containerLabel: 'k8s_container',
      cpuSource: 'cadvisor',
      staticUpstreams: { api: ['cache'] },
      // versions from a service's own gauge and through the pod
      versionSources: [
        { metric: 'app_build_info' },
        { metric: 'kube_pod_container_info', versionLabel: 'image', versionRegex: '[^@]+:([^:/@]+)(@.+)?', joinOnPod: true },
      ],
    },
  }
)
