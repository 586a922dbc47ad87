package playground

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The playground on Thanos (`make demo THANOS=1`, World.Thanos): the same
// world, with the rule pack moved off Prometheus onto Thanos Ruler, as users
// who outgrow one Prometheus run it. Prometheus only scrapes (and holds the
// backfilled day); a sidecar serves its data to Thanos Query; Thanos Ruler
// evaluates rules/ unchanged through Query and sends the alerts to the same
// Alertmanager. Query answers Prometheus's HTTP API (queries, alerts), so the
// status table, the sandbox and demo-test's checks read everything through
// it: o.Prom is Query.

// ThanosPorts are the Thanos processes' ports (HTTP and gRPC each).
type ThanosPorts struct {
	Sidecar, SidecarGRPC, Query, QueryGRPC, Ruler, RulerGRPC int
}

func defaultThanosPorts(port func(int) int) ThanosPorts {
	return ThanosPorts{
		Sidecar: port(9490), SidecarGRPC: port(9491), Query: port(9492), QueryGRPC: port(9493), Ruler: port(9494), RulerGRPC: port(9495),
	}
}

func (w *World) thanosPorts(m map[int]string) {
	if !w.Thanos {
		return
	}
	t := w.Ports.Thanos
	for p, what := range map[int]string{
		t.Sidecar: "thanos sidecar (HTTP)", t.SidecarGRPC: "thanos sidecar (gRPC StoreAPI)",
		t.Query: "thanos query (HTTP)", t.QueryGRPC: "thanos query (gRPC)",
		t.Ruler: "thanos rule (HTTP)", t.RulerGRPC: "thanos rule (gRPC StoreAPI)",
	} {
		m[p] = what
	}
}

// externalLabels is Prometheus's global.external_labels on Thanos: the
// sidecar refuses a Prometheus without any.
func (w *World) externalLabels() map[string]string {
	if !w.Thanos {
		return nil
	}
	return map[string]string{promkit.ReplicaLabel: "prometheus"}
}

// startThanos starts the sidecar next to the running Prometheus, the ruler
// with the rule files and Query over both, and points o.Prom at Query. The
// ruler starts first, on Query's address: it reads chained rules back
// through Query, whose endpoints must list the ruler. (promkit.ReplicaLabel
// tells Prometheus's copy of a series from the ruler's: a recorded series
// reads the same whether the backfilled day or the ruler recorded it.)
func (p *Processes) startThanos(ctx context.Context, promDataDir string) error {
	bin := p.tool("thanos")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%s is missing: run `make tools-thanos` (a 15-minute build the first time)", bin)
	}
	t := p.World.Ports.Thanos
	addr := func(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }
	_, err := promkit.StartSidecar(ctx, p.Sup, promkit.Sidecar{Bin: bin, PrometheusURL: p.Prom.URL, TSDBPath: promDataDir,
		GRPC: addr(t.SidecarGRPC), Addr: addr(t.Sidecar)})
	if err != nil {
		return err
	}
	dir := p.StatePath("thanos-rule")
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	ruler := promkit.Ruler{Bin: bin, RuleFiles: p.Opt.RuleFiles, QueryURL: "http://" + addr(t.Query),
		DataDir: filepath.Join(dir, "data"), GRPC: addr(t.RulerGRPC), Addr: addr(t.Ruler)}
	if p.World.Alertmanager != "" {
		ruler.Alertmanagers = []string{p.World.Alertmanager}
	}
	if _, err := promkit.StartRuler(ctx, p.Sup, ruler); err != nil {
		return err
	}
	q, err := promkit.StartQuery(ctx, p.Sup, promkit.Query{Bin: bin, GRPC: addr(t.QueryGRPC), Addr: addr(t.Query),
		Endpoints: []string{addr(t.SidecarGRPC), addr(t.RulerGRPC)}})
	if err != nil {
		return err
	}
	// connected to both, Query must also answer for the rule groups (through
	// the ruler) and Prometheus's series (through the sidecar) before the
	// playground reads through it
	err = promkit.Poll(ctx, 60*time.Second, time.Second, func() (bool, error) {
		rules, err := q.RuleGroups(ctx)
		if err != nil || rules == 0 {
			return false, err
		}
		up, err := q.Query(ctx, "count(up)")
		return err == nil && len(up) == 1, err
	})
	if err != nil {
		return fmt.Errorf("thanos query did not reach the sidecar and the ruler within 60s: %w", err)
	}
	p.PromDirect, p.Prom = p.Prom, q.Client
	p.RulerAt = "http://" + ruler.Addr
	p.Logf("    thanos     Query %s over the sidecar (Prometheus %s) and Thanos Ruler %s (rules/ evaluated through Query)", q.URL, p.PromDirect.URL, p.RulerAt)
	return nil
}
