// The import flavour of a dashboard, for Grafana's "Import dashboard" UI:
// `__inputs` make the import dialog ask for a Prometheus and a Pyroscope
// datasource, `__requires` lists the plugins it uses. The importer replaces
// each `${DS_...}` with the datasource picked, so the placeholders sit only in
// the datasource variables' current value; panels keep using the variables.
// Provisioning never resolves `__inputs`, which is why dashboards/ ships the
// plain flavour and dashboards-import/ this one (README: Dashboards).
local inputs = [
  { name: 'DS_PROMETHEUS', label: 'Prometheus', type: 'prometheus', pluginName: 'Prometheus' },
  { name: 'DS_PROFILES', label: 'Pyroscope', type: 'grafana-pyroscope-datasource', pluginName: 'Grafana Pyroscope' },
];

local panelNames = {
  timeseries: 'Time series',
  heatmap: 'Heatmap',
  table: 'Table',
  flamegraph: 'Flame Graph',
  'hotpath-overlay-panel': 'hotpath overlay',
};

// Every panel, those inside a collapsed row too: Grafana keeps a collapsed
// row's panels under the row, and an import needs their plugins all the same.
local panels(dash) = std.flattenArrays([
  if p.type == 'row' then std.get(p, 'panels', []) else [p]
  for p in dash.panels
]);

// Only the datasources some panel queries: the import dialog requires every
// input, and the overview and throttling dashboards must import without a Pyroscope.
local used(dash) = std.set([
  t.datasource.type
  for p in panels(dash)
  for t in p.targets
]);

function(dash)
  local want = [i for i in inputs if std.member(used(dash), i.type)];
  dash {
    __inputs: [
      { name: i.name, label: i.label, description: '', type: 'datasource', pluginId: i.type, pluginName: i.pluginName }
      for i in want
    ],
    __requires: [
      { type: 'grafana', id: 'grafana', name: 'Grafana', version: '10.4.0' },
    ] + [
      { type: 'datasource', id: i.type, name: i.pluginName, version: '1.0.0' }
      for i in want
    ] + [
      { type: 'panel', id: t, name: panelNames[t], version: '' }
      for t in std.set([p.type for p in panels(dash)])
    ],
    templating+: {
      list: [
        v + (
          local input = [i for i in want if v.type == 'datasource' && v.query == i.type];
          if input == [] then {}
          else { current: { selected: true, text: '${%s}' % input[0].name, value: '${%s}' % input[0].name } }
        )
        for v in super.list
      ],
    },
  }
