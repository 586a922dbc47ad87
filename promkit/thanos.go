package promkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The pinned Thanos in front of Prometheus servers: a sidecar per
// Prometheus, Query over the sidecars (and rulers), and Ruler evaluating rule
// files through Query. Query and Ruler speak Prometheus's HTTP API, so they
// come back as a *Server like Prometheus.

// ReplicaLabel is the external label that tells the copies of the same data
// apart (a Prometheus behind a sidecar, a ruler): Query drops it and
// deduplicates on it, so recorded series read back through Query carry the
// labels they were recorded with and nothing else.
const ReplicaLabel = "replica"

// Sidecar describes one `thanos sidecar`: the StoreAPI of one Prometheus,
// which must have external labels (at least ReplicaLabel).
type Sidecar struct {
	Bin           string // the pinned thanos
	PrometheusURL string
	TSDBPath      string // that Prometheus's data directory
	GRPC, Addr    string // host:port of its StoreAPI and of its HTTP
}

// StartSidecar starts a sidecar and waits until it is ready.
func StartSidecar(ctx context.Context, l Launcher, c Sidecar) (*Server, error) {
	return StartServer(ctx, l, "thanos-sidecar", c.Addr, c.Bin, "sidecar",
		"--prometheus.url="+c.PrometheusURL,
		"--tsdb.path="+c.TSDBPath,
		"--grpc-address="+c.GRPC,
		"--http-address="+c.Addr,
		"--log.level=warn",
	)
}

// Query describes one `thanos query`.
type Query struct {
	Bin        string
	Endpoints  []string // StoreAPI host:port of sidecars and rulers
	Engine     string   // --query.promql-engine: "prometheus" (default) or "thanos"
	GRPC, Addr string
	Args       []string
}

// StartQuery starts Query over the endpoints, deduplicating on ReplicaLabel,
// and waits (at most 60s) until it is connected to every endpoint: a query
// before that would see part of the data.
func StartQuery(ctx context.Context, l Launcher, c Query) (*Server, error) {
	if c.Engine == "" {
		c.Engine = "prometheus"
	}
	argv := []string{c.Bin, "query",
		"--grpc-address=" + c.GRPC,
		"--http-address=" + c.Addr,
		"--query.replica-label=" + ReplicaLabel,
		"--query.promql-engine=" + c.Engine,
		"--log.level=warn",
	}
	for _, e := range c.Endpoints {
		argv = append(argv, "--endpoint="+e)
	}
	q, err := StartServer(ctx, l, "thanos-query", c.Addr, append(argv, c.Args...)...)
	if err != nil {
		return nil, err
	}
	up := 0
	err = Poll(ctx, 60*time.Second, 500*time.Millisecond, func() (bool, error) {
		n, err := endpointsUp(q.URL)
		up = n
		return err == nil && n == len(c.Endpoints), err
	})
	if err != nil {
		q.Stop()
		if errors.Is(err, ErrTimeout) {
			return nil, fmt.Errorf("thanos query: %d of %d endpoints connected after 60s (%v):\n%s", up, len(c.Endpoints), err, q.Process.Tail(1500))
		}
		return nil, err
	}
	return q, nil
}

// endpointsUp counts the StoreAPI endpoints Query is connected to (its
// /api/v1/stores, Thanos's own API: healthy ones have no lastError).
func endpointsUp(queryURL string) (int, error) {
	var stores map[string][]struct {
		Name      string  `json:"name"`
		LastError *string `json:"lastError"`
	}
	if err := getJSON(queryURL+"/api/v1/stores", &stores); err != nil {
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

// Ruler describes one `thanos rule`. It reads chained rules (one rule
// reading another's series) back through Query, so that Query must list the
// ruler's StoreAPI: start the ruler first, on Query's address, then the
// Query with the ruler's GRPC among its endpoints. Until that Query is up,
// the ruler's evaluations fail (and say so in /api/v1/rules).
type Ruler struct {
	Bin           string
	RuleFiles     []string
	QueryURL      string // the Query it evaluates through (http://host:port)
	Replica       string // its ReplicaLabel value; default "ruler"
	DataDir       string // pass one holding backfilled blocks to carry history over
	GRPC, Addr    string
	EvalInterval  time.Duration // groups without their own interval; default 1m
	QueryOffset   time.Duration // --rule-query-offset, as Prometheus's rule_query_offset; 0 leaves it out
	Alertmanagers []string      // host:port; alerts leave without the replica label
	Args          []string
}

// StartRuler starts a ruler and waits until it is ready.
func StartRuler(ctx context.Context, l Launcher, c Ruler) (*Server, error) {
	if c.Replica == "" {
		c.Replica = "ruler"
	}
	if c.EvalInterval == 0 {
		c.EvalInterval = time.Minute
	}
	argv := []string{c.Bin, "rule",
		"--data-dir=" + c.DataDir,
		"--grpc-address=" + c.GRPC,
		"--http-address=" + c.Addr,
		"--query=" + c.QueryURL,
		fmt.Sprintf("--label=%s=%q", ReplicaLabel, c.Replica),
		"--eval-interval=" + c.EvalInterval.String(),
		"--log.level=warn",
	}
	if c.QueryOffset > 0 {
		argv = append(argv, "--rule-query-offset="+c.QueryOffset.String())
	}
	for _, f := range c.RuleFiles {
		argv = append(argv, "--rule-file="+f)
	}
	for _, am := range c.Alertmanagers {
		argv = append(argv, "--alertmanagers.url=http://"+am)
	}
	if len(c.Alertmanagers) > 0 {
		argv = append(argv, "--alert.label-drop="+ReplicaLabel)
	}
	return StartServer(ctx, l, "thanos-rule", c.Addr, append(argv, c.Args...)...)
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
