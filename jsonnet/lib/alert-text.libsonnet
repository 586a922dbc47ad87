// Go-template snippets for alert annotations. Label names come from the config;
// a label that is configured but absent on a series prints nothing.
function(cfg) {
  local label(l) = '{{ $labels.%s }}' % l,
  local optional(l, text) = if l == '' then '' else '{{ with $labels.%s }}%s{{ end }}' % [l, text],

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
