package harness

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The pinned Thanos (.tools/bin/thanos, built by `make tools` from
// tools/thanos) in front of the harness's Prometheus servers, through
// promkit: a sidecar per Prometheus, Query over the sidecars (and rulers),
// and Ruler evaluating rule files through Query.

// ReplicaLabel: see promkit.ReplicaLabel.
const ReplicaLabel = promkit.ReplicaLabel

// Sidecar is a running `thanos sidecar`: the StoreAPI of one Prometheus.
type Sidecar struct {
	GRPC string // host:port of its StoreAPI, for Query's --endpoint
}

// StartSidecar starts a sidecar next to p (started with its data dir in
// dataDir). The sidecar refuses a Prometheus without external labels: give
// it at least ReplicaLabel.
func StartSidecar(t testing.TB, p *Prometheus, dataDir string) *Sidecar {
	t.Helper()
	c := promkit.Sidecar{Bin: Tool(t, "thanos"), PrometheusURL: p.URL, TSDBPath: dataDir, GRPC: FreeAddr(t), Addr: FreeAddr(t)}
	start(t, "thanos-sidecar", func(_ string, l promkit.Launcher) (*promkit.Server, error) {
		return promkit.StartSidecar(context.Background(), l, c)
	})
	return &Sidecar{GRPC: c.GRPC}
}

// QueryConfig describes one `thanos query`.
type QueryConfig struct {
	Endpoints []string // StoreAPI host:port of sidecars and rulers
	Engine    string   // --query.promql-engine: "prometheus" (default) or "thanos"
	Addr      string   // its HTTP host:port; default a free one (reserve one with FreeAddr for a ruler started first)
	Args      []string
}

// Query is a running `thanos query`.
type Query struct {
	*Prometheus
	GRPC string
}

// StartQuery starts Query over the endpoints and waits until it is
// connected to every one (promkit.StartQuery).
func StartQuery(t testing.TB, c QueryConfig) *Query {
	t.Helper()
	q := promkit.Query{Bin: Tool(t, "thanos"), Endpoints: c.Endpoints, Engine: c.Engine, GRPC: FreeAddr(t), Addr: c.Addr, Args: c.Args}
	if q.Addr == "" {
		q.Addr = FreeAddr(t)
	}
	p := start(t, "thanos-query", func(_ string, l promkit.Launcher) (*promkit.Server, error) {
		return promkit.StartQuery(context.Background(), l, q)
	})
	return &Query{Prometheus: p, GRPC: q.GRPC}
}

// RulerConfig describes one `thanos rule`.
type RulerConfig struct {
	RuleFiles    []string
	QueryURL     string        // the Query it evaluates through (http://host:port)
	Replica      string        // its ReplicaLabel value; default "ruler"
	DataDir      string        // default: fresh; pass one holding backfilled blocks to carry history over
	EvalInterval time.Duration // groups without their own interval; default 1m
	QueryOffset  time.Duration // --rule-query-offset (promkit.Ruler); default none
	Args         []string
}

// Ruler is a running `thanos rule`: its HTTP API serves /api/v1/rules and
// /api/v1/alerts; GRPC is its StoreAPI (what it recorded) for Query.
type Ruler struct {
	*Prometheus
	GRPC    string
	DataDir string
}

// StartRuler starts a ruler (see promkit.Ruler for the order: the ruler
// first, on a Query address reserved with FreeAddr, then that Query).
func StartRuler(t testing.TB, c RulerConfig) *Ruler {
	t.Helper()
	r := promkit.Ruler{Bin: Tool(t, "thanos"), RuleFiles: c.RuleFiles, QueryURL: c.QueryURL, Replica: c.Replica,
		DataDir: c.DataDir, GRPC: FreeAddr(t), Addr: FreeAddr(t), EvalInterval: c.EvalInterval, QueryOffset: c.QueryOffset, Args: c.Args}
	p := start(t, "thanos-rule", func(dir string, l promkit.Launcher) (*promkit.Server, error) {
		if r.DataDir == "" {
			r.DataDir = filepath.Join(dir, "data")
		}
		return promkit.StartRuler(context.Background(), l, r)
	})
	return &Ruler{Prometheus: p, GRPC: r.GRPC, DataDir: r.DataDir}
}
