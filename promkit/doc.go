// Package promkit runs the pinned Prometheus (and Thanos) for the playground
// and the tests: it writes a server's config, starts it and waits until it is
// ready, queries it, parses the exposition format, reads and writes rule files
// with Prometheus's own parser, and backfills history into TSDB blocks (raw
// series from OpenMetrics, then recording rules one dependency level per
// pass).
//
// It does not own processes: a Launcher starts them. ExecLauncher is the
// plain one (tests); the playground's Supervisor is another (process groups,
// pid file). Every wait is bounded and every error carries the server's own
// words (its API message, or the tail of its log).
package promkit
