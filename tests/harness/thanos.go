package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// The pinned Thanos (.tools/bin/thanos, built by `make tools` from
// tools/thanos) in front of the harness's Prometheus servers: a sidecar per
// Prometheus, Query over the sidecars (and rulers), and Ruler evaluating rule
// files through Query. Query and Ruler speak Prometheus's HTTP API (Query:
// query, labels, series, ...; Ruler: rules and alerts), so they come back as
// a *Prometheus whose API the tests use as they use Prometheus's.

// ReplicaLabel is the external label that tells the copies of the same data
// apart (a Prometheus behind a sidecar, a ruler): Query drops it and
// deduplicates on it, so recorded series read back through Query carry the
// labels they were recorded with and nothing else.
const ReplicaLabel = "replica"

// Sidecar is a running `thanos sidecar`: the StoreAPI of one Prometheus.
type Sidecar struct {
	GRPC string // host:port of its StoreAPI, for Query's --endpoint
}

// StartSidecar starts a sidecar next to p (started with its data dir in
// dataDir). The sidecar refuses a Prometheus without external labels: give
// it at least ReplicaLabel.
func StartSidecar(t testing.TB, p *Prometheus, dataDir string) *Sidecar {
	t.Helper()
	grpc, addr := FreeAddr(t), FreeAddr(t)
	dir := t.TempDir()
	startServer(t, "thanos-sidecar", dir, addr, Tool(t, "thanos"), "sidecar",
		"--prometheus.url="+p.URL,
		"--tsdb.path="+dataDir,
		"--grpc-address="+grpc,
		"--http-address="+addr,
		"--log.level=warn",
	)
	return &Sidecar{GRPC: grpc}
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

// StartQuery starts Query over the endpoints, deduplicating on ReplicaLabel,
// and waits (at most 60s) until every endpoint is connected: a query before
// that would see part of the data.
func StartQuery(t testing.TB, c QueryConfig) *Query {
	t.Helper()
	if c.Engine == "" {
		c.Engine = "prometheus"
	}
	grpc, addr := FreeAddr(t), c.Addr
	if addr == "" {
		addr = FreeAddr(t)
	}
	args := []string{"query",
		"--grpc-address=" + grpc,
		"--http-address=" + addr,
		"--query.replica-label=" + ReplicaLabel,
		"--query.promql-engine=" + c.Engine,
		"--log.level=warn",
	}
	for _, e := range c.Endpoints {
		args = append(args, "--endpoint="+e)
	}
	q := &Query{Prometheus: startServer(t, "thanos-query", t.TempDir(), addr, Tool(t, "thanos"), append(args, c.Args...)...), GRPC: grpc}
	WaitFor(t, 60*time.Second, "thanos query connected to its endpoints", func() (bool, string) {
		up, err := q.endpointsUp()
		if err != nil {
			return false, err.Error()
		}
		return up == len(c.Endpoints), fmt.Sprintf("%d of %d endpoints up", up, len(c.Endpoints))
	})
	return q
}

// endpointsUp counts the StoreAPI endpoints Query is connected to (its
// /api/v1/stores, Thanos's own API: healthy ones have no lastError).
func (q *Query) endpointsUp() (int, error) {
	var stores map[string][]struct {
		Name      string  `json:"name"`
		LastError *string `json:"lastError"`
	}
	if err := getJSON(q.URL+"/api/v1/stores", &stores); err != nil {
		return 0, err
	}
	up := 0
	for _, list := range stores {
		for _, s := range list {
			if s.LastError == nil || *s.LastError == "" {
				up++
			}
		}
	}
	return up, nil
}

// RulerConfig describes one `thanos rule`.
type RulerConfig struct {
	RuleFiles    []string
	QueryURL     string        // the Query it evaluates through (http://host:port)
	Replica      string        // its ReplicaLabel value; default "ruler"
	DataDir      string        // default: fresh; pass one holding backfilled blocks to carry history over
	EvalInterval time.Duration // groups without their own interval; default 1m
	Args         []string
}

// Ruler is a running `thanos rule`: its HTTP API serves /api/v1/rules and
// /api/v1/alerts; GRPC is its StoreAPI (what it recorded) for Query.
type Ruler struct {
	*Prometheus
	GRPC    string
	DataDir string
}

// StartRuler starts a ruler. It reads chained rules (one rule reading
// another's series) back through Query, so that Query must list the ruler's
// StoreAPI: start the ruler first, on a Query address reserved with FreeAddr,
// then the Query with the ruler's GRPC among its endpoints. Until that Query
// is up, the ruler's evaluations fail (and say so in /api/v1/rules).
func StartRuler(t testing.TB, c RulerConfig) *Ruler {
	t.Helper()
	if c.Replica == "" {
		c.Replica = "ruler"
	}
	if c.EvalInterval == 0 {
		c.EvalInterval = time.Minute
	}
	dir := t.TempDir()
	if c.DataDir == "" {
		c.DataDir = filepath.Join(dir, "data")
	}
	grpc, addr := FreeAddr(t), FreeAddr(t)
	args := []string{"rule",
		"--data-dir=" + c.DataDir,
		"--grpc-address=" + grpc,
		"--http-address=" + addr,
		"--query=" + c.QueryURL,
		fmt.Sprintf("--label=%s=%q", ReplicaLabel, c.Replica),
		"--eval-interval=" + c.EvalInterval.String(),
		"--log.level=warn",
	}
	for _, f := range c.RuleFiles {
		args = append(args, "--rule-file="+f)
	}
	r := startServer(t, "thanos-rule", dir, addr, Tool(t, "thanos"), append(args, c.Args...)...)
	return &Ruler{Prometheus: r, GRPC: grpc, DataDir: c.DataDir}
}

// getJSON GETs url and decodes the "data" of a Prometheus-style API answer.
func getJSON(url string, data any) error {
	resp, err := (&http.Client{Timeout: APITimeout}).Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var body struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
		Error  string          `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if body.Status != "success" {
		return fmt.Errorf("GET %s: %s %s", url, body.Status, body.Error)
	}
	return json.Unmarshal(body.Data, data)
}
