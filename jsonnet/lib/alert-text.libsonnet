// Go-template snippets for alert annotations. Label names come from the config;
// a label that is configured but absent on a series prints nothing.
function(cfg) {
  // A label's value as a template pipeline. The cluster falls back to the
  // evaluating server's external label: where the rules run inside
  // each cluster's own Prometheus and `cluster` is only its external label
  // (the usual Thanos sidecar setup), $labels.cluster is empty; on Thanos
  // Ruler or a Prometheus holding several clusters $labels.cluster is set.
  value(l):: if l == cfg.clusterLabel then 'or $labels.%s $externalLabels.%s' % [l, l] else '$labels.%s' % l,
  local value = self.value,
  local label(l) = '{{ %s }}' % value(l),
  local optional(l, text) = if l == '' then '' else '{{ with %s }}%s{{ end }}' % [value(l), text],

  // " in namespace shop (cluster eu-1)", or less.
  scope:: optional(cfg.namespaceLabel, ' in namespace {{ . }}') + optional(cfg.clusterLabel, ' (cluster {{ . }})'),
  service:: label(cfg.serviceLabel) + self.scope,
  instance:: '%s of %s' % [label(cfg.instanceLabel), self.service],
  container:: 'container %s of pod %s' % [label(cfg.containerLabel), label(cfg.podLabel)] + self.scope,
  label:: label,

  // Humanized values: a ratio as "2.35x", a share as "85%", a rate as "0.15".
  ratio:: '{{ printf "%.2f" $value }}x',
  share:: '{{ $value | humanizePercentage }}',
  number:: '{{ printf "%.2f" $value }}',
}
