// Small Grafana panel and target builders (grafonnet cannot be fetched here).
// A panel is built without id and gridPos: lib/layout.libsonnet assigns both,
// so panels never overlap and ids stay unique. Every panel takes a unit and a
// description: the description is the "how to read it" Grafana shows on hover.
local refIds = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

// Targets without a refId get A, B, C... in order, as Grafana's editor does.
local withRefIds(targets) = [
  { refId: refIds[i] } + targets[i]
  for i in std.range(0, std.length(targets) - 1)
];

// Grafana's built-in "Mixed" pseudo datasource, for a panel whose targets use
// different datasources (each target then names its own).
local mixed = { type: 'datasource', uid: '-- Mixed --' };

// Grafana's Prometheus datasource answers a query that matches no series with
// one frame without fields (pkg/promlib/converter in Grafana). The heatmap
// panel with calculate: false reads that frame's time field without checking
// it (prepareHeatmapData in public/app/plugins/panel/heatmap/fields.ts builds
// its rows frame from `frame.fields.find(time)`, undefined here, then reads
// `field.config`): the panel shows "TypeError: Cannot read properties of
// undefined (reading 'config')" instead of "No data". Filtering fields drops a
// frame left without any (filterFieldsTransformer in @grafana/data), and a
// regex that matches every name keeps every field of a frame that has some: so
// an empty result reaches the panel as no frame at all, and it says "No data".
local dropEmptyFrames = { id: 'filterFieldsByName', options: { include: { pattern: '.*' } } };

local base(type, title, unit, description, targets, w, h) = {
  assert std.length(description) > 0 : 'panel "%s" needs a description' % title,
  local sources = std.set([t.datasource.type for t in targets]),
  type: type,
  title: title,
  description: description,
  datasource: if std.length(sources) == 1 then targets[0].datasource else mixed,
  targets: withRefIds(targets),
  fieldConfig: { defaults: { unit: unit }, overrides: [] },
  w:: w,
  h:: h,
};

{
  // A PromQL target. `ds` is the datasource reference (a variable, never a uid).
  prom(ds, expr, legend='', instant=false, format='time_series'):: {
    datasource: ds,
    expr: expr,
    legendFormat: legend,
    range: !instant,
    instant: instant,
    format: format,
  },

  // A Pyroscope profile query, in the grafana-pyroscope-datasource query model.
  profile(ds, profileTypeId, labelSelector):: {
    datasource: ds,
    queryType: 'profile',
    profileTypeId: profileTypeId,
    labelSelector: labelSelector,
    groupBy: [],
  },

  // Overrides for series picked by the query that produced them.
  byRefId(refId, properties):: {
    matcher: { id: 'byFrameRefID', options: refId },
    properties: [{ id: k, value: properties[k] } for k in std.objectFields(properties)],
  },

  // softMax: the axis reaches at least this far, and further when the data
  // does; for a share (percentunit), 1 keeps an all-zero series on a 0-100%
  // axis (Grafana pads an all-zero range to 0-100 of the raw unit, which a
  // share axis labels 0-10000%).
  timeseries(title, unit, description, targets, w=12, h=8, stack=false, min=null, softMax=null)::
    base('timeseries', title, unit, description, targets, w, h) {
      fieldConfig+: {
        defaults+: {
          custom: {
            drawStyle: 'line',
            lineWidth: 1,
            fillOpacity: if stack then 40 else 10,
            showPoints: 'never',
            spanNulls: false,
            stacking: { mode: if stack then 'normal' else 'none', group: 'A' },
          } + (if softMax == null then {} else { axisSoftMax: softMax }),
          color: { mode: 'palette-classic' },
        } + (if min == null then {} else { min: min }),
      },
      options: {
        legend: { displayMode: 'table', placement: 'bottom', calcs: ['mean', 'max'], showLegend: true },
        tooltip: { mode: 'multi', sort: 'desc' },
      },
    },

  // A heatmap. calculate=false: every series is a row (an instance, a
  // container), its colour the value. calculate=true: Grafana buckets the
  // values of all series, its colour the number of series in a bucket.
  heatmap(title, unit, description, targets, w=12, h=8, calculate=false)::
    base('heatmap', title, unit, description, targets, w, h) {
      options: {
        calculate: calculate,
        cellGap: 1,
        color: { mode: 'scheme', scheme: 'Oranges', scale: 'exponential', exponent: 0.5, steps: 64, reverse: false },
        yAxis: { axisPlacement: 'left', unit: if calculate then unit else 'short' },
        rowsFrame: { layout: 'auto' },
        cellValues: { unit: unit },
        tooltip: { mode: 'single', yHistogram: false, showColorScale: true },
        legend: { show: true },
        filterValues: { le: 1e-9 },
      } + (if calculate then {
             calculation: { yBuckets: { mode: 'count', value: '20', scale: { type: 'linear' } } },
           } else {}),
      // First, before anything reads a field: see dropEmptyFrames.
      transformations: [dropEmptyFrames],
    },

  // A table of instant queries merged on their labels, one row per label set.
  // `columns` maps a refId to { name, unit }; labels not named in `hide` stay
  // as columns. Grafana's Prometheus datasource turns every label of an
  // instant result into a column, __name__ too (transformDFToTable in
  // packages/grafana-prometheus/src/result_transformer.ts), and the merge
  // transformation joins two rows only where every column they share is equal:
  // a plain selector keeps its series' name, so its rows would join no other
  // query's. The name is dropped from every frame before the merge, whatever
  // the queries (an override of one keeps joining).
  table(title, description, targets, columns, sortBy, hide=[], w=24, h=10)::
    base('table', title, 'none', description, targets, w, h) {
      options: {
        showHeader: true,
        cellHeight: 'sm',
        footer: { show: false, reducer: ['sum'], fields: '' },
        sortBy: [{ displayName: sortBy, desc: true }],
      },
      fieldConfig+: {
        defaults+: { custom: { align: 'auto', cellOptions: { type: 'auto' } } },
        overrides: [
          {
            matcher: { id: 'byName', options: columns[r].name },
            properties: [{ id: 'unit', value: columns[r].unit }],
          }
          for r in std.objectFields(columns)
        ],
      },
      transformations: [
        { id: 'filterFieldsByName', options: { exclude: { names: ['__name__'] } } },
        { id: 'merge', options: {} },
        {
          id: 'organize',
          options: {
            excludeByName: { [k]: true for k in ['Time'] + hide },
            renameByName: { ['Value #' + r]: columns[r].name for r in std.objectFields(columns) },
          },
        },
      ],
    },

  // Grafana's built-in flame graph panel: works without the hotpath plugin.
  flamegraph(title, unit, description, targets, w=12, h=14)::
    base('flamegraph', title, unit, description, targets, w, h) { options: {} },

  // A panel of a plugin this file has no builder for (the hotpath overlay).
  // Grafana shows "panel plugin not found" for just this panel when the
  // plugin is not installed; the rest of the dashboard is unaffected.
  plugin(type, title, unit, description, targets, options, w=24, h=14)::
    base(type, title, unit, description, targets, w, h) { options: options },

  // A full-width row header.
  row(title):: { type: 'row', title: title, collapsed: false, panels: [], w:: 24, h:: 1 },

  // A row shown closed, holding `panels` (lib/layout.libsonnet places them):
  // Grafana runs their queries only once the row is opened, so a panel that
  // needs something a cluster may lack (a Pyroscope datasource) shows no
  // error until asked for, and the row's title says what it needs.
  collapsedRow(title, panels):: self.row(title) { collapsed: true, panels: panels },
}
