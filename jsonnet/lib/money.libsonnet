// Money: the list prices of config/money.libsonnet (costPerCoreHour,
// costPerGiBHour, currency) turned into the factors the cost series, the
// dashboards' money panels and hotpath-notify's money line use, and, per
// efficiency alert, the PromQL of "the change" in cores at the current
// traffic. One place, so that a price of 0 turns money off everywhere.
//
// Usage: local money = (import 'lib/money.libsonnet')(cfg);
//        if money.on then ... money.perCoreMonth ...
local series = import 'series.libsonnet';

function(cfg)
  local p = (import 'promql.libsonnet')(cfg);
  local key = p.list(p.service);
  local ikey = p.list(p.instance);
  local isPrice(v) = std.isNumber(v) && v >= 0;
  assert isPrice(cfg.costPerCoreHour) : 'costPerCoreHour must be a number >= 0 (0 turns money off), not %s' % std.toString(cfg.costPerCoreHour);
  assert isPrice(cfg.costPerGiBHour) : 'costPerGiBHour must be a number >= 0 (0 leaves memory out), not %s' % std.toString(cfg.costPerGiBHour);
  assert std.isString(cfg.currency) && std.length(cfg.currency) == 3 && std.asciiUpper(cfg.currency) == cfg.currency
         : 'currency must be an ISO 4217 code such as "USD" or "EUR", not %s' % std.toString(cfg.currency);
  {
    // A month as cloud price lists count it: 365 days * 24 h / 12.
    hoursPerMonth:: 730,

    // Money is on when a core-hour has a price; memory only then, and when a
    // GiB-hour has one too.
    on:: cfg.costPerCoreHour > 0,
    memoryOn:: self.on && cfg.costPerGiBHour > 0,

    // Cores -> money a month; CPU seconds per request -> money per million
    // requests (a million requests of s seconds are 1e6 * s / 3600 core-hours).
    perCoreMonth:: cfg.costPerCoreHour * self.hoursPerMonth,
    perGiBMonth:: cfg.costPerGiBHour * self.hoursPerMonth,
    perMillionRequestSeconds:: cfg.costPerCoreHour * 1e6 / 3600,

    // Grafana's unit for the currency: its built-in currency units where it
    // has one, else the code as a suffix.
    grafanaUnit::
      local builtIn = ['USD', 'GBP', 'EUR', 'JPY', 'RUB', 'UAH', 'BRL', 'DKK', 'ISK', 'NOK', 'SEK', 'CZK', 'CHF', 'PLN', 'ZAR', 'INR', 'KRW', 'IDR', 'PHP', 'VND'];
      if std.member(builtIn, cfg.currency) then 'currency' + cfg.currency else 'suffix: ' + cfg.currency,

    // What hotpath-notify needs to put a price on cores (catalogue.json's
    // `money`), or null when money is off.
    catalogue:: if self.on then {
      perCoreHour: cfg.costPerCoreHour,
      currency: cfg.currency,
      hoursPerMonth: $.hoursPerMonth,
    } else null,

    // Per efficiency alert, "the change" in cores at the current traffic, as
    // PromQL for the alert's identity labels (`{{at}}`: the alert's start, in
    // unix seconds), with what it counts (`what`) and whether it is a cost of
    // requests (`perRequest`: no traffic, no such cost), and `only`: a series
    // with the alert's identity labels, that hotpath-notify narrows to the
    // alert's values to keep only its service. null for an alert
    // without one (CFS throttling: the quota costs latency, not cores).
    //   costModel alerts (the regressions, CPU and allocations alike): (CPU
    //     per request now - what the cost model as the alert fired predicts
    //     per request at today's traffic) x today's request rate; the
    //     allocations' price is the CPU the service spends beyond its model.
    //   siblings: the instance's CPU beyond what its requests would cost at
    //     its siblings' median CPU per request.
    //   upstream: the service's CPU beyond what its requests would cost at
    //     its usual ratio to that upstream (the ratio's baseline median).
    //   dayEarlier (a fixed cost): the fixed part of the CPU, the cores that
    //     do not follow traffic (the long fit where the service has it, as
    //     the alert reads them).
    changeCores(alert)::
      local cm = (import 'baseline-model.libsonnet')(cfg);
      local cpu = (import 'cost-models.libsonnet')(cfg).cpu;
      local o = cm.model(cpu).outcome(cpu.factor);
      if alert.costModel != null then {
        what: 'CPU per request now against the cost model when the alert fired, at the current traffic',
        perRequest: true,
        only: series.requests,
        cores: '(\n%(now)s\n- on (%(key)s)\n%(before)s\n)\n* on (%(key)s)\n%(requests)s' % { now: o.now, before: o.before, key: key, requests: series.requests },
      }
      else if alert.baseline == 'siblings' then {
        what: "the instance's CPU beyond its siblings' median CPU per request, at its traffic",
        perRequest: true,
        only: series.instanceRequests,
        cores: |||
          %(cpu)s
          - on (%(ikey)s)
          (
            %(requests)s
            * on (%(key)s) group_left ()
            quantile by (%(key)s) (0.5, %(serving)s)
          )
        ||| % { cpu: series.instanceCpu, requests: series.instanceRequests, serving: (import 'serving-instances.libsonnet')(cfg), key: key, ikey: ikey },
      }
      else if alert.identity == 'upstream' then {
        what: 'CPU beyond its usual CPU per request relative to the upstream, at the current traffic',
        perRequest: true,
        only: series.cpuPerRequestToUpstream,
        cores: |||
          %(cpu)s
          * on (%(key)s) group_right ()
          (1 - %(usual)s / on (%(key)s, upstream) (%(ratio)s > 0))
        ||| % { cpu: series.cpu, usual: series.cpuPerRequestToUpstreamBaselineMedian, ratio: series.cpuPerRequestToUpstream, key: key },
      }
      else if alert.baseline == 'dayEarlier' then {
        what: 'the fixed part of its CPU, which does not follow traffic',
        perRequest: false,
        only: series.requests,
        cores: '%s\nor\n%s' % [series.cpuLongFixed, series.cpuRecentFixed],
      }
      else null,
  }
