// Alerting rules, one file per area.
{
  prometheusAlerts+:: { groups+: [] },
}
