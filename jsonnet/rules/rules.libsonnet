// Recording rules, one file per area.
{
  prometheusRules+:: { groups+: [] },
}
