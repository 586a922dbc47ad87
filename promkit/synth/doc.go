// Package synth generates the synthetic series that the tests, the benchmarks
// and the playground's backfilled day feed to Prometheus, in one place:
//   - model.go: the traffic and cost models (the diurnal day, cost lines,
//     counters on their line, labels);
//   - series.go: a set of services as a function of time (Model), with its
//     live /metrics page and its OpenMetrics history for a backfill;
//   - recorded.go: what the pack's job-level groups record, written straight
//     into a history instead of replayed level by level;
//   - shapes.go: the label shapes of real fleets (RealShapes), with the values
//     the pack must record from them (Expected*).
//
// It generates text and numbers only: promkit (and tests/harness for tests)
// serves, backfills and scrapes them.
package synth
