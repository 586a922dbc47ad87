// Knobs of money: the list prices that turn cores and memory into money.
// They steer rules/cost.libsonnet (lib/money.libsonnet), the money panels
// and the money line of hotpath-notify's messages.

{
  _config+:: {
    // ---- Money -----------------------------------------------------------------
    // List prices that turn cores and memory into money: the dashboards show
    // each service's cost a month at its current rate and per million
    // requests, and every efficiency alert's message what its change costs a
    // month at the current traffic, always beside the cores and per-request
    // figures they come from. The defaults are AWS Fargate's on-demand list
    // prices for Linux/x86 in US East (N. Virginia), per vCPU-hour and per
    // GB-hour of memory (https://aws.amazon.com/fargate/pricing/, read
    // 2026-03): a public price that bills CPU and memory apart. They are list
    // prices, not your bill: set what a core-hour costs you (a node's price
    // divided by its cores, after discounts), e.g. `costPerCoreHour: 0.031611`
    // for GCP N2 in us-central1. 0 turns money off everywhere: no cost series,
    // no money columns or panels, no money line in messages.
    costPerCoreHour: 0.04048,

    // The price of a GiB of memory for an hour; 0 leaves memory out (the
    // money is then CPU only, as the alerts' always is: an efficiency change
    // is a change of CPU). Example: `costPerGiBHour: 0.004237` (GCP N2).
    costPerGiBHour: 0.004445,

    // The ISO 4217 code the prices are in; dashboards and messages format
    // money with it (USD shows as $, EUR as €). Example: `currency: 'EUR'`.
    currency: 'USD',

    // The resident memory of a service's processes, summed per service, that
    // costPerGiBHour prices. Change it for a runtime that exports another
    // gauge, e.g. `'jvm_memory_used_bytes'` with `memorySelector: 'area="heap"'`.
    memoryMetric: 'process_resident_memory_bytes',
    memorySelector: '',
  },
}
