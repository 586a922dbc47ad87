// Knob combinations that cannot work, refused when the mixin renders (the
// Mimir mixin's config asserts): each message names the knobs, says why the
// rules could not do their job with them, and what to change. Only real
// impossibilities are here; a choice that is merely unusual renders.
local catalogue = import '../catalogue.libsonnet';
local durations = import 'durations.libsonnet';

local s(d) = durations.seconds(d);

// Labels the alerts set or keep from their expressions, and annotations the
// pack writes: extra ones must not overwrite them (alert-extra.libsonnet).
local ownLabels(cfg) = ['alertname', 'severity', 'upstream'] + [
  cfg[k]
  for k in ['serviceLabel', 'instanceLabel', 'clusterLabel', 'namespaceLabel', 'podLabel', 'containerLabel']
  if cfg[k] != ''
];
local ownAnnotations = ['summary', 'description', 'runbook_url', 'dashboard_url', 'profile_url'];
local isLabelName(n) =
  local cs = std.stringChars(n);
  std.length(cs) > 0
  && !std.member('0123456789', cs[0])
  && std.all([std.member('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_', c) for c in cs]);

// The keys of an alert-keyed knob (alertFor, alertSeverity) against the catalogue.
local alertKeys(knob, m) =
  local names = std.set([a.name for a in catalogue.alerts]);
  local unknown = std.setDiff(std.set(std.objectFields(m)), names);
  local missing = std.setDiff(names, std.set(std.objectFields(m)));
  assert unknown == [] : '%s names %s, no alert of the pack (jsonnet/catalogue.libsonnet lists them): fix the name' % [knob, std.join(', ', unknown)];
  assert missing == [] : '%s has no entry for %s: override it with `%s+: { ... }` to keep the others' % [knob, std.join(', ', missing), knob];
  true;

{
  _config+:: {
    local c = self,
    // A knob's value as the messages quote it: numbers as the rules print them.
    local str(x) = if std.isNumber(x) then (import 'promql.libsonnet')(c).num(x) else std.toString(x),

    // ---- Labels and inputs --------------------------------------------------
    local required = {
      serviceLabel: 'every recording rule aggregates to it and every alert names it',
      instanceLabel: 'the outlier alert tells the instances of a service apart by it',
      podLabel: 'the throttling rules and the cAdvisor join read it',
      containerLabel: 'the throttling rules and the cAdvisor join read it',
    },
    assert std.all([
      c[k] != '' || error '%s is empty: %s' % [k, required[k]]
      for k in std.objectFields(required)
    ]),
    local labels = [l for l in [c.serviceLabel, c.instanceLabel, c.clusterLabel, c.namespaceLabel, c.podLabel, c.containerLabel] if l != ''],
    assert std.length(std.set(labels)) == std.length(labels)
           : "the label knobs (serviceLabel, instanceLabel, clusterLabel, namespaceLabel, podLabel, containerLabel) name one label twice (%s): an aggregation cannot keep one label as two identities; give each its own, or set clusterLabel/namespaceLabel to '' when you have none" % std.join(', ', labels),
    assert std.length(c.requestSources) > 0 : 'requestSources is empty: the pack needs at least one request counter (by default the sources requestsFrom turns on; turn one on, e.g. requestsFrom+: { app: true })',
    assert std.all([
      (std.isObject(r) && std.get(r, 'metric', '') != '')
      || error 'requestSources: every source needs a metric, got %s' % str(r)
      for r in c.requestSources
    ]),
    local sourceFields = ['metric', 'selector', 'serviceLabel', 'namespaceLabel', 'instanceLabel', 'podLabel', 'relayLabels'],
    assert std.all([
      local unknown = std.setDiff(std.set(std.objectFields(r)), std.set(sourceFields));
      unknown == [] || error 'requestSources: %s has %s, not a field of a source (%s): it would be ignored' % [r.metric, std.join(', ', unknown), std.join(', ', sourceFields)]
      for r in c.requestSources
    ]),
    local shapes = std.set(c.requestSourceShapes.precedence),
    local unknownShapes = std.setDiff(std.set(std.objectFields(c.requestsFrom)), shapes),
    assert unknownShapes == []
           : 'requestsFrom names %s, no request source hotpath knows (%s): fix the name, or add your counter to requestSources' % [std.join(', ', unknownShapes), std.join(', ', c.requestSourceShapes.precedence)],
    assert std.all([
      std.isBoolean(c.requestsFrom[k]) || error 'requestsFrom.%s is %s: each source is turned on with true and off with false' % [k, str(c.requestsFrom[k])]
      for k in std.objectFields(c.requestsFrom)
    ]),

    assert std.all([
      local unknown = std.setDiff(std.set(std.objectFields(r)), std.set(['metric', 'selector', 'routeLabel', 'serviceLabel']));
      local routeLabels = if std.isArray(std.get(r, 'routeLabel', null)) then r.routeLabel else [std.get(r, 'routeLabel', '')];
      (std.isObject(r) && std.get(r, 'metric', '') != '' || error 'endpointRequestSources: every source needs a metric, got %s' % str(r))
      && (std.all([std.isString(l) && l != '' for l in routeLabels]) && routeLabels != [] || error 'endpointRequestSources: %s needs a routeLabel, the label that holds its route (a list of labels is joined with "/")' % r.metric)
      && (unknown == [] || error 'endpointRequestSources: %s has %s, not a field of a source (metric, selector, routeLabel, serviceLabel): it would be ignored' % [r.metric, std.join(', ', unknown)])
      for r in c.endpointRequestSources
    ]),
    assert c.endpointRegressionMinShare > 0 && c.endpointRegressionMinShare < 1
           : 'endpointRegressionMinShare is %s: want a share of the service between 0 and 1, e.g. 0.03' % c.endpointRegressionMinShare,
    assert std.length(c.endpointProfileLabels) > 0 && std.all([std.isString(l) && l != '' for l in c.endpointProfileLabels])
           : 'endpointProfileLabels: want at least one profile label name, e.g. span_name',

    assert std.all([
      local unknown = std.setDiff(std.set(std.objectFields(v)), std.set(['metric', 'selector', 'versionLabel', 'versionRegex', 'serviceLabel', 'joinOnPod']));
      (std.isObject(v) && std.get(v, 'metric', '') != '' || error 'versionSources: every source needs a metric, got %s' % str(v))
      && (unknown == [] || error 'versionSources: %s has %s, not a field of a source (metric, selector, versionLabel, versionRegex, serviceLabel, joinOnPod): it would be ignored' % [v.metric, std.join(', ', unknown)])
      for v in c.versionSources
    ]),
    assert std.all([
      std.isString(n) && n != '' && std.findSubstr('"', n) == []
      || error 'sidecarContainers: every entry is a non-empty regular expression of container names without a double quote, got %s' % std.toString(n)
      for n in c.sidecarContainers
    ]),

    // ---- Windows against the intervals that fill them ----------------------
    assert s(c.baselineMinHistory) <= s(c.baselineWindow)
           : 'baselineMinHistory (%s) is longer than baselineWindow (%s): history is counted inside the window, so no service would ever have enough and the regression alerts could never fire; shorten baselineMinHistory or widen baselineWindow' % [c.baselineMinHistory, c.baselineWindow],
    assert s(c.baselineMinHistory) % 12 == 0
           : 'baselineMinHistory (%s) must be a whole number of 12-second steps: the history is counted in twelfths of it; e.g. 6h' % c.baselineMinHistory,
    assert s(c.baselineWindow) >= 2 * s(c.baselineInterval)
           : 'baselineWindow (%s) holds fewer than two baselineIntervals (%s): the cost model is fitted on what its group records every interval inside the window, and cannot fit a line through fewer than two samples' % [c.baselineWindow, c.baselineInterval],
    assert s(c.baselineWindow) >= 2 * s(c.regressionNoiseInterval)
           : "baselineWindow (%s) holds fewer than two regressionNoiseIntervals (%s): the noise model's median and spread are taken over the residuals sampled every interval inside the window; a spread needs at least two" % [c.baselineWindow, c.regressionNoiseInterval],
    local fit = 'the fit of CPU on req/s reads what the pack records once per interval, and a line needs two points',
    local filledEachInterval = {
      regressionResidualWindow: 'the residual it takes the median of is recorded once per interval, so some evaluations would find none and the noise path would flap',
      loadFitWindow: fit,
      loadFitLongWindow: fit,
    },
    assert std.all([
      s(c[w]) >= 2 * s(c.evaluationInterval)
      || error '%s (%s) holds fewer than two evaluationIntervals (%s): %s; widen it or evaluate more often' % [w, c[w], c.evaluationInterval, filledEachInterval[w]]
      for w in std.objectFields(filledEachInterval)
    ]),

    assert s(c.regressionResidualWindow) >= 2 * s(c.functionEvaluationInterval)
           : "regressionResidualWindow (%s) holds fewer than two functionEvaluationIntervals (%s): FunctionCostPerRequestRegression judges the median of each function's excess over it, recorded once per interval; widen it or evaluate the function groups more often" % [c.regressionResidualWindow, c.functionEvaluationInterval],
    assert 2 * s(c.functionEvaluationInterval) <= 300
           : "functionEvaluationInterval (%s) is over 2m30s: the function model's and band's groups, and the alert's hold (its own ALERTS), read the function groups' series as their last sample within Prometheus's 5m lookback, which two intervals must fit in; e.g. '2m'" % c.functionEvaluationInterval,

    // ---- Thresholds -----------------------------------------------------------
    assert std.all([
      c[k] > 1 || error "%s is %s: at or below 1 it fires on whatever sits at or above its own reference (its prediction, its siblings' median, its usual ratio), half of a healthy fleet; use a factor above 1, e.g. 1.5" % [k, str(c[k])]
      for k in ['cpuRegressionFactor', 'allocRegressionFactor', 'outlierFactor', 'upstreamBaselineFactor']
    ]),
    local quantiles = { baselineHalfQuantile: '0.25', functionFitQuantile: '0.5' },
    assert std.all([
      (0 <= c[k] && c[k] <= 1) || error '%s is %s: a quantile lies in 0..1 (outside it quantile_over_time returns an infinity and the cost model is never fitted); e.g. %s' % [k, str(c[k]), quantiles[k]]
      for k in std.objectFields(quantiles)
    ]),
    local shares = { notTrackingLoadFixedShare: '0.8', throttledPeriodsThreshold: '0.25' },
    assert std.all([
      (0 < c[k] && c[k] <= 1) || error '%s is %s: it is a share, in (0, 1]; above 1 the alert can never fire, at 0 or below it fires on everything; e.g. %s' % [k, str(c[k]), shares[k]]
      for k in std.objectFields(shares)
    ]),
    assert std.all([
      c[k] >= 0 || error "%s is %s: a negative floor puts the threshold below a steady service's usual residual, so it fires while healthy; use 0 or more, e.g. 0.25" % [k, str(c[k])]
      for k in ['cpuRegressionFloor', 'allocRegressionFloor']
    ]),
    assert std.isNumber(c.cpuRegressionMinCores) && c.cpuRegressionMinCores >= 0
           : 'cpuRegressionMinCores is %s: it is the CPU, in cores, a regression must add before it pages; use 0 (off) or more, e.g. 0.01' % str(c.cpuRegressionMinCores),
    assert std.isNumber(c.regressionHoldShare) && 0 <= c.regressionHoldShare && c.regressionHoldShare <= 1
           : 'regressionHoldShare is %s: it is a share of the way from the typical residual to the threshold, in 0..1 (1: no hysteresis; above 1 the hold level would sit above the threshold, below 0 under the typical residual, holding the alert on a healthy service); e.g. 0.5' % str(c.regressionHoldShare),
    assert c.minRequestRate > 0
           : 'minRequestRate is %s: CPU per request divides by the request rate, so an idle service would be judged on a division by zero; use a floor above 0, e.g. 0.2' % str(c.minRequestRate),
    assert std.isNumber(c.maxUpstreamsPerService) && c.maxUpstreamsPerService >= 1 && c.maxUpstreamsPerService == std.floor(c.maxUpstreamsPerService)
           : 'maxUpstreamsPerService is %s: it is a count of join slots, a whole number from 1; e.g. 8' % str(c.maxUpstreamsPerService),

    // ---- Alerts -------------------------------------------------------------
    assert alertKeys('alertFor', c.alertFor),
    assert alertKeys('alertSeverity', c.alertSeverity),
    assert std.all([
      (isLabelName(l) && std.isString(c.alertExtraLabels[l]))
      || error 'alertExtraLabels: %s: %s is not a Prometheus label name with a string value' % [l, str(c.alertExtraLabels[l])]
      for l in std.objectFields(c.alertExtraLabels)
    ]),
    local labelClash = std.setInter(std.set(std.objectFields(c.alertExtraLabels)), std.set(ownLabels(c))),
    assert labelClash == []
           : 'alertExtraLabels names %s, a label the alerts set or keep: it would overwrite the value that says what fired; set severity with alertSeverity and the identity labels with their label knobs' % std.join(', ', labelClash),
    assert std.all([
      std.isString(c.alertExtraAnnotations[a]) || error 'alertExtraAnnotations: %s: %s is not a string' % [a, str(c.alertExtraAnnotations[a])]
      for a in std.objectFields(c.alertExtraAnnotations)
    ]),
    local versionAnnotations = if c.versionSources != [] then ['version', 'previous_version', 'rollout_time'] else [],
    local annotationClash = std.setInter(std.set(std.objectFields(c.alertExtraAnnotations)), std.set(ownAnnotations + versionAnnotations)),
    assert annotationClash == []
           : "alertExtraAnnotations names %s, an annotation of the pack: set runbookURL, grafanaURL or profileURL for the links; summary and description are the alert's own; version, previous_version and rollout_time come from versionSources" % std.join(', ', annotationClash),
  },
}
