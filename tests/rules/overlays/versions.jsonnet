// The shipped mixin with versions from two sources: a *_build_info{version}
// gauge of the service's own, and kube-state-metrics' container images joined
// to the service through the pod. For versions.yaml.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      versionSources: [
        { metric: 'shop_build_info' },
        { metric: 'kube_pod_container_info', selector: 'container!="istio-proxy"', versionLabel: 'image', versionRegex: '[^@]+:([^:/@]+)(@.+)?', joinOnPod: true },
      ],
    },
  }
)
