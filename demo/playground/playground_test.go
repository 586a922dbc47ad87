package playground

import (
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"gopkg.in/yaml.v3"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// The demo overlay (demo/overlay-short-for.jsonnet) renders the same rule
// pack as rules/ with only `for:` changed, on every alert.
func TestDemoOverlayChangesOnlyFor(t *testing.T) {
	root := repoRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".tools", "bin", "jsonnet")); err != nil {
		t.Skip("jsonnet not built: make tools")
	}
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "tools", "render-mixin.sh"), filepath.Join(root, "demo", "overlay-short-for.jsonnet"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, b)
	}
	for _, name := range []string{"hotpath-rules.yaml", "hotpath-alerts.yaml"} {
		shipped, err := promkit.ReadRules(filepath.Join(root, "rules", name))
		if err != nil {
			t.Fatal(err)
		}
		overlay, err := promkit.ReadRules(filepath.Join(out, "rules", name))
		if err != nil {
			t.Fatal(err)
		}
		diffs, forChanges := promkit.DiffExceptFor(shipped, overlay)
		if len(diffs) > 0 {
			t.Errorf("%s: the overlay changes more than for: (run make generate if rules/ drifted from jsonnet/):\n%s", name, strings.Join(diffs, "\n"))
		}
		if alerts := promkit.AlertNames(shipped); len(forChanges) != len(alerts) {
			t.Errorf("%s: for: changed on %d of %d alerts: %v", name, len(forChanges), len(alerts), forChanges)
		}
	}
}

func testWorld() *World {
	return DefaultWorld(func(p int) int { return p + 20000 }, "hotpath-unit")
}

func testCalibration(w *World) *Calibration {
	cal := &Calibration{Instances: map[string]*InstanceCost{}, Periods: map[string]Cost{}, UpstreamShare: 1}
	for _, s := range w.Services {
		for _, in := range s.Instances {
			samples := []promkit.Metric{
				{Name: "http_requests_total", Labels: map[string]string{"code": "200", "handler": s.Route, "method": "get"}, Value: 100},
				{Name: "http_requests_total", Labels: map[string]string{"code": "500", "handler": s.Route, "method": "get"}, Value: 1},
				{Name: "process_cpu_seconds_total", Labels: map[string]string{}, Value: 3},
				{Name: "go_memstats_alloc_bytes_total", Labels: map[string]string{}, Value: 1e6},
				{Name: "go_goroutines", Labels: map[string]string{}, Value: 9},
			}
			if s.Job == "api" {
				samples = append(samples, promkit.Metric{Name: "traces_service_graph_request_total", Labels: map[string]string{"client": "api", "server": "cache"}, Value: 100})
			}
			cal.Instances[in.Addr()] = &InstanceCost{Job: s.Job, Instance: in.Addr(), CPU: Cost{0.01, 0.001}, Alloc: Cost{1e5, 4096}, Edges: 1, Samples: samples}
		}
	}
	cal.Periods["worker-0"] = Cost{1, 2}
	cal.Periods["worker-0/worker"] = Cost{1, 2}
	for _, c := range []string{"", "worker"} {
		l := map[string]string{"id": "/hotpath-unit/worker-0", "namespace": demoNamespace, "pod": "worker-0", "container": c, "name": c}
		for _, n := range []string{"container_cpu_usage_seconds_total", "container_cpu_cfs_periods_total", "container_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_seconds_total"} {
			cal.Exporter = append(cal.Exporter, promkit.Metric{Name: n, Labels: l, Value: 5})
		}
		cal.Exporter = append(cal.Exporter, promkit.Metric{Name: "container_spec_cpu_quota", Labels: l, Value: 20000})
	}
	// The root cgroup is not a pod: no history.
	cal.Exporter = append(cal.Exporter, promkit.Metric{Name: "container_cpu_usage_seconds_total", Labels: map[string]string{"id": "/"}, Value: 1e4})
	return cal
}

// testHistory is the test world's day of history (24h at 15s up to 15:00, the
// bridge's rows from fns) and its series.
func testHistory(t *testing.T, fns *FunctionCosts) (*World, *History, []histSeries) {
	t.Helper()
	w := testWorld()
	end := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	h := &History{World: w, Cal: testCalibration(w), End: end, LoadStart: end.Add(time.Minute), Length: 24 * time.Hour, Step: 15 * time.Second, Seed: 1,
		Functions: fns}
	series, err := h.series()
	if err != nil {
		t.Fatal(err)
	}
	return w, h, series
}

// The history: live labels, monotonic counters that follow the cost lines,
// a 10x nightly low, the cache serving the api's calls, no throttling.
func TestHistory(t *testing.T) {
	w, h, series := testHistory(t, nil)
	n := int(h.Length / h.Step)
	byKey := map[string][]float64{}
	for _, s := range series {
		if len(s.values) != n {
			t.Fatalf("%s: %d points, want %d", s.key, len(s.values), n)
		}
		for k := 1; k < n; k++ {
			if s.values[k] < s.values[k-1] {
				t.Fatalf("%s decreases at %d", s.key, k)
			}
		}
		byKey[s.key] = s.values
	}
	api := w.Service("api").Instances[0].Addr()
	req := byKey[`http_requests_total{code="200",handler="/emoji",instance="`+api+`",job="api",method="get"}`]
	if req == nil {
		t.Fatalf("no api requests series with the live labels; have %v", slices.Sorted(maps.Keys(byKey)))
	}
	if _, ok := byKey[`http_requests_total{code="500",handler="/emoji",instance="`+api+`",job="api",method="get"}`]; ok {
		t.Error("only the busiest request series gets history")
	}
	// Rates over an hour around the night's low (12h before the end) and the end.
	perHour := func(xs []float64, hoursBefore float64) float64 {
		k := n - 1 - int(hoursBefore*3600/15)
		k0 := max(k-120, 0)
		return (xs[k] - xs[k0]) / (float64(k-k0) * 15)
	}
	day, night := perHour(req, 0.5), perHour(req, 12)
	if r := day / night; r < 6 || r > 14 {
		t.Errorf("day %.1f req/s, night %.1f: ratio %.1f, want about 10", day, night, r)
	}
	cpu := byKey[`process_cpu_seconds_total{instance="`+api+`",job="api"}`]
	if got, want := perHour(cpu, 0.5), 0.01+0.001*day; math.Abs(got-want)/want > 0.05 {
		t.Errorf("api CPU %.4f cores at %.1f req/s, want %.4f from its cost line", got, day, want)
	}
	cache := w.Service("cache").Instances[0].Addr()
	edge := byKey[`traces_service_graph_request_total{client="api",instance="`+api+`",job="api",server="cache"}`]
	cacheReq := byKey[`http_requests_total{code="200",handler="",instance="`+cache+`",job="cache",method="get"}`]
	if edge == nil || cacheReq == nil || math.Abs(edge[n-1]-req[n-1]) > 1e-6*req[n-1] || math.Abs(cacheReq[n-1]-req[n-1]) > 1e-6*req[n-1] {
		t.Errorf("edge %v, cache requests %v: both want the api's requests", edge != nil, cacheReq != nil)
	}
	worker := w.Service("worker").Instances[0].Addr()
	if byKey[`process_cpu_seconds_total{instance="`+worker+`",job="worker",namespace="hotpath-demo",pod="worker-0"}`] == nil {
		t.Error("the worker's target labels (namespace, pod) are missing")
	}
	exp := "127.0.0.1:" + strconv.Itoa(w.Ports.Exporter)
	ctr := `container="worker",id="/hotpath-unit/worker-0",instance="` + exp + `",job="cadvisor",name="worker",namespace="hotpath-demo",pod="worker-0"`
	if th := byKey["container_cpu_cfs_throttled_periods_total{"+ctr+"}"]; th == nil || th[n-1] != 0 {
		t.Error("the worker's throttled periods must exist and stay flat")
	}
	if p := byKey["container_cpu_cfs_periods_total{"+ctr+"}"]; p == nil || p[n-1] == 0 {
		t.Error("the worker's CFS periods must advance")
	}
	if q := byKey["container_spec_cpu_quota{"+ctr+"}"]; q == nil || q[0] != 20000 {
		t.Error("the quota gauge keeps its live value")
	}
	for k := range byKey {
		if strings.Contains(k, `id="/"`) || strings.HasPrefix(k, "go_goroutines") {
			t.Errorf("unmodelled series got history: %s", k)
		}
	}
}

// The history as OpenMetrics: every series at every step, ending one step
// before the live start.
func TestHistoryOpenMetrics(t *testing.T) {
	_, h, series := testHistory(t, nil)
	end := h.End
	n := int(h.Length / h.Step)
	path := filepath.Join(t.TempDir(), "h.om")
	ns, samples, err := h.WriteOpenMetrics(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if ns != len(series) || samples != ns*n || lines[len(lines)-1] != "# EOF" {
		t.Fatalf("%d series, %d samples, last line %q", ns, samples, lines[len(lines)-1])
	}
	f := strings.Fields(lines[n-1])
	ts, _ := strconv.ParseFloat(f[len(f)-1], 64)
	if want := float64(end.Add(-h.Step).Unix()); ts != want {
		t.Errorf("the history ends at %v, want one step before the live start (%v)", ts, want)
	}
}

func TestDiurnal(t *testing.T) {
	if d := Diurnal(0); math.Abs(d-1) > 1e-9 {
		t.Errorf("at the end %v, want 1 (the live level)", d)
	}
	if d := Diurnal(12 * time.Hour); math.Abs(d-0.1) > 1e-9 {
		t.Errorf("at the night's low %v, want 0.1", d)
	}
	for _, spec := range []string{"square:5:50:20m", "sine:5:50:20m", "3"} {
		for _, e := range []time.Duration{-25 * time.Minute, -5 * time.Minute, 0, 15 * time.Minute} {
			r, err := shapeAt(spec, e)
			if err != nil || r < 3 || r > 50 {
				t.Errorf("%s at %s: %v %v", spec, e, r, err)
			}
		}
	}
	if a, _ := shapeAt("square:5:50:20m", -15*time.Minute); a != 50 {
		t.Errorf("a square wave before the start keeps its phase: %v, want 50", a)
	}
}

func TestFit(t *testing.T) {
	if c := fit(10, 0.02, 30, 0.04); math.Abs(c.Fixed-0.01) > 1e-12 || math.Abs(c.PerRequest-0.001) > 1e-12 {
		t.Errorf("%+v", c)
	}
	if c := fit(10, 0.03, 30, 0.02); c.PerRequest != 0 || c.Fixed != 0.025 {
		t.Errorf("falling cost: %+v, want a flat fixed cost", c)
	}
	if c := fit(10, 0.01, 30, 0.05); c.Fixed != 0 || math.Abs(c.PerRequest-0.0015) > 1e-12 {
		t.Errorf("negative intercept: %+v, want per-request only", c)
	}
}

func TestPromConfig(t *testing.T) {
	w := testWorld()
	var cfg struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			JobName       string `yaml:"job_name"`
			StaticConfigs []struct {
				Targets []string          `yaml:"targets"`
				Labels  map[string]string `yaml:"labels"`
			} `yaml:"static_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal([]byte(w.PromConfig([]string{"/r/a.yaml"}, true).YAML()), &cfg); err != nil {
		t.Fatal(err)
	}
	jobs := map[string][]string{}
	for _, sc := range cfg.ScrapeConfigs {
		jobs[sc.JobName] = sc.StaticConfigs[0].Targets
		if sc.JobName == "worker" && sc.StaticConfigs[0].Labels["pod"] != "worker-0" {
			t.Errorf("worker labels %v: the (namespace, pod) join needs pod=worker-0", sc.StaticConfigs[0].Labels)
		}
	}
	if len(jobs["catalog"]) != 3 || len(jobs["cadvisor"]) != 1 || len(jobs["api"]) != 1 || cfg.RuleFiles[0] != "/r/a.yaml" {
		t.Errorf("jobs %v, rules %v", jobs, cfg.RuleFiles)
	}
	if strings.Contains(w.PromConfig(nil, false).YAML(), "cadvisor") {
		t.Error("without cgroups there is no exporter to scrape")
	}
}

// On Thanos, Prometheus gets the replica label the sidecar needs and Query
// deduplicates on, and the Thanos ports are checked; otherwise neither.
func TestPromConfigOnThanos(t *testing.T) {
	w := DefaultWorld(func(p int) int { return p }, "x")
	var cfg struct {
		Global struct {
			ExternalLabels map[string]string `yaml:"external_labels"`
		} `yaml:"global"`
	}
	if err := yaml.Unmarshal([]byte(w.PromConfig(nil, false).YAML()), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Global.ExternalLabels) != 0 {
		t.Errorf("without Thanos: external labels %v", cfg.Global.ExternalLabels)
	}
	if _, ok := w.PortUse()[w.Ports.Thanos.Query]; ok {
		t.Error("without Thanos its ports are not checked")
	}
	w.Thanos = true
	if err := yaml.Unmarshal([]byte(w.PromConfig(nil, false).YAML()), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Global.ExternalLabels[promkit.ReplicaLabel] != "prometheus" {
		t.Errorf("on Thanos: external labels %v, want %s=prometheus", cfg.Global.ExternalLabels, promkit.ReplicaLabel)
	}
	use := w.PortUse()
	for _, p := range []int{w.Ports.Thanos.Sidecar, w.Ports.Thanos.SidecarGRPC, w.Ports.Thanos.Query, w.Ports.Thanos.QueryGRPC, w.Ports.Thanos.Ruler, w.Ports.Thanos.RulerGRPC} {
		if !strings.HasPrefix(use[p], "thanos ") {
			t.Errorf("port %d: %q, want a thanos process", p, use[p])
		}
	}
	if len(use) != len(DefaultWorld(func(p int) int { return p }, "x").PortUse())+6 {
		t.Error("the six Thanos ports collide with the world's")
	}
}

// A port in use is named with what should have run there.
func TestCheckPortsNamesThePortAndItsUse(t *testing.T) {
	ports, err := FreePorts()
	if err != nil {
		t.Fatal(err)
	}
	w := DefaultWorld(ports, "x")
	if err := w.CheckPorts(); err != nil {
		t.Fatal(err)
	}
	api := w.Service("api").Instances[0]
	ln, err := net.Listen("tcp", api.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = w.CheckPorts()
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(api.Port)) || !strings.Contains(err.Error(), "demo-service api") {
		t.Errorf("error %v: want the port and 'demo-service api'", err)
	}
}

// A killed run's processes are stopped by the next run; a pid that now runs
// another program is left alone.
func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	sup := &Supervisor{LogDir: dir, PidFile: filepath.Join(dir, "pids.json")}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	p, err := sup.Start("sleeper", false, nil, sleep, "60")
	if err != nil {
		t.Fatal(err)
	}
	killed, err := CleanStale(sup.PidFile)
	if err != nil || len(killed) != 1 {
		t.Fatalf("killed %v, %v", killed, err)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the stale process still runs")
	}
	if _, err := os.Stat(sup.PidFile); !errors.Is(err, os.ErrNotExist) {
		t.Error("the pid file is removed after cleaning")
	}
	// Our own pid, recorded as another program: not ours to kill.
	if err := os.WriteFile(sup.PidFile, []byte(`[{"pid": `+strconv.Itoa(os.Getpid())+`, "name": "x", "exe": "/nonexistent/prog"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if killed, err := CleanStale(sup.PidFile); err != nil || len(killed) != 0 {
		t.Errorf("killed %v (%v): a reused pid must be left alone", killed, err)
	}
}

func TestSupervisorStopsInReverseOrder(t *testing.T) {
	dir := t.TempDir()
	sup := &Supervisor{LogDir: dir, PidFile: filepath.Join(dir, "pids.json")}
	var procs []*Proc
	for _, n := range []string{"a", "b"} {
		// Each says when its trap is set: a TERM before that would end it
		// without a word, on a machine slow to start a shell.
		p, err := sup.Start(n, false, nil, "sh", "-c", "trap 'echo stopped "+n+" >> "+filepath.Join(dir, "order")+"; exit 0' TERM; touch "+filepath.Join(dir, "ready-"+n)+"; while :; do sleep 0.05; done")
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
	}
	for _, n := range []string{"a", "b"} {
		if err := promkit.Poll(t.Context(), 30*time.Second, 20*time.Millisecond, func() (bool, error) {
			_, err := os.Stat(filepath.Join(dir, "ready-"+n))
			return err == nil, err
		}); err != nil {
			t.Fatalf("process %s never set its TERM trap: %v", n, err)
		}
	}
	sup.StopAll(5 * time.Second)
	b, _ := os.ReadFile(filepath.Join(dir, "order"))
	if got := strings.Fields(string(b)); strings.Join(got, " ") != "stopped b stopped a" {
		t.Errorf("stop order %q, want b then a", b)
	}
	for _, p := range procs {
		if done, _ := p.Exited(); !done {
			t.Errorf("%s still runs", p.Name)
		}
	}
}

func TestDemoSchedule(t *testing.T) {
	s := DemoSchedule(Stories, 10*time.Minute, 25*time.Minute, 5*time.Minute)
	if len(s) != 2*len(Stories) || s[0] != (Step{At: 10 * time.Minute, Story: "println", On: true}) || s[1] != (Step{At: 35 * time.Minute, Story: "println", On: false}) || s[2].At != 40*time.Minute {
		t.Errorf("%+v", s)
	}
	w := testWorld()
	for _, story := range Stories {
		if w.StoryService(story) == nil {
			t.Errorf("no service runs %s", story)
		}
	}
}

func TestSum(t *testing.T) {
	ss := []promkit.Metric{{Name: "http_requests_total", Value: 12}, {Name: "http_requests_total", Labels: map[string]string{"code": "500"}, Value: 3}, {Name: "x", Value: 1}}
	if got := Sum(ss, "http_requests_total"); got != 15 {
		t.Errorf("sum %g, want 15", got)
	}
}

// A node process (the sandbox) recorded in the pid file is killed only while
// that pid still runs node: a system directory is no "same bin directory".
func TestSameExeOnlyTrustsTheDemoBinDir(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	cmd := exec.Command(sleep, "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if !sameExe(cmd.Process.Pid, sleep) {
		t.Errorf("sleep (pid %d) is %s", cmd.Process.Pid, sleep)
	}
	if sameExe(cmd.Process.Pid, filepath.Join(filepath.Dir(sleep), "node-that-is-not-sleep")) {
		t.Error("another program in the same system directory must not count as ours")
	}
	bin := t.TempDir()
	for _, f := range []string{"hotpath-demo", "cgroup-helper"} {
		if err := os.WriteFile(filepath.Join(bin, f), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if sameExe(cmd.Process.Pid, filepath.Join(bin, "cgroup-helper")) {
		t.Error("a demo bin directory vouches only for its own programs")
	}
}

// The README's pictures come only from a passing check, reduced to a palette.
func TestCopyScreenshots(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 6), uint8(y * 8), uint8(x * y), 255}) // 1200 colours
		}
	}
	var results []map[string]any
	for _, story := range []string{"println", "epoll", "gzip", "cfs"} {
		p := filepath.Join(dir, story+"-svc-3-diff.png")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		r := map[string]any{"name": story + "/svc", "ok": true, "verdict": "the biggest increase is x", "screenshots": []string{filepath.Join(dir, "a-1-strip.png"), p}}
		if story == "cfs" {
			r = map[string]any{"name": "cfs/worker", "ok": true, "skipped": "not a code path"}
		}
		results = append(results, r)
	}
	write := func() {
		b, _ := json.Marshal(results)
		if err := os.WriteFile(filepath.Join(dir, "result.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write()
	to := filepath.Join(dir, "img")
	shots, err := CopyScreenshots(dir, to, ReadmeShots)
	if err != nil || len(shots) != 3 {
		t.Fatalf("%v %v", shots, err)
	}
	f, err := os.Open(filepath.Join(to, "playground-gzip-diff.png"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(f)
	f.Close()
	if p, ok := got.(*image.Paletted); err != nil || !ok || len(p.Palette) > 256 || p.Bounds() != img.Bounds() {
		t.Errorf("want a paletted 40x30 PNG: %T %v", got, err)
	}
	if _, err := CopyScreenshots(dir, to, []string{"cfs"}); err == nil || !strings.Contains(err.Error(), "skipped") {
		t.Errorf("a skipped story has no picture: %v", err)
	}
	results[1]["ok"] = false
	write()
	_ = os.RemoveAll(to)
	if _, err := CopyScreenshots(dir, to, ReadmeShots); err == nil || !strings.Contains(err.Error(), "failed epoll") {
		t.Errorf("a failed check: %v", err)
	}
	if _, err := os.Stat(to); !errors.Is(err, os.ErrNotExist) {
		t.Error("nothing is copied when one story failed")
	}
}

// demo-test hands out every port of its world before any server listens:
// no two default ports may get the same one (the kernel readily gives the
// port it just freed to the next caller; 2% of worlds had a shared port).
func TestFreePortsNeverShareAPort(t *testing.T) {
	ports, err := FreePorts()
	if err != nil {
		t.Fatal(err)
	}
	owner := map[int]int{}
	for def := 1; def <= 500; def++ {
		p := ports(def)
		if other, ok := owner[p]; ok {
			t.Fatalf("default ports %d and %d both got port %d", other, def, p)
		}
		owner[p] = def
		if again := ports(def); again != p {
			t.Fatalf("default port %d got %d, then %d", def, p, again)
		}
	}
}

// The bridge's rows get a history with the live scrape's labels (their
// service's job, the function, its origin if any, the bridge's instance):
// each row's share of its service's cost on the calibrated lines, scaled to
// the live cost per request at the live rates, in whole profile samples.
func TestHistoryFunctionRows(t *testing.T) {
	api := testWorld().Service("api").Instances[0].Addr()
	// the api's lines: CPU 0.01 + 0.001 * req/s, allocations 1e5 + 4096 * req/s;
	// at 20 req/s live, 1.5 ms and 9096.8 bytes per request on the lines
	w, _, series := testHistory(t, &FunctionCosts{
		Rows: []FunctionShare{
			{Job: "api", Function: "fmt.Fprintln", ProfileType: "cpu", Share: 0.25},
			{Job: "api", Function: "runtime.gcBgMarkWorker", ProfileType: "cpu", Origin: "runtime", Share: 0.1},
			{Job: "api", Function: "other", ProfileType: "alloc_space", Share: 0.5},
			{Job: "cache", Function: "main.get", ProfileType: "cpu", Share: 1},
			{Job: "gone", Function: "main.f", ProfileType: "cpu", Share: 1},
		},
		PerRequest: map[string]float64{"api cpu": 0.0018, "api alloc_space": 9096.8},
		Rates:      map[string]float64{api: 20},
	})
	byKey := map[string][]float64{}
	for _, s := range series {
		byKey[s.key] = s.values
	}
	bridge := "127.0.0.1:" + strconv.Itoa(w.Ports.ProfileMetrics)
	cpu := byKey[`hotpath_profile_cpu_seconds_total{function="fmt.Fprintln",instance="`+bridge+`",job="api"}`]
	alloc := byKey[`hotpath_profile_alloc_bytes_total{function="other",instance="`+bridge+`",job="api"}`]
	procCPU := byKey[`process_cpu_seconds_total{instance="`+api+`",job="api"}`]
	procAlloc := byKey[`go_memstats_alloc_bytes_total{instance="`+api+`",job="api"}`]
	req := byKey[`http_requests_total{code="200",handler="/emoji",instance="`+api+`",job="api",method="get"}`]
	gc := byKey[`hotpath_profile_cpu_seconds_total{function="runtime.gcBgMarkWorker",instance="`+bridge+`",job="api",origin="runtime"}`]
	if cpu == nil || gc == nil || alloc == nil || procCPU == nil || procAlloc == nil || req == nil {
		t.Fatalf("cpu row %v, runtime row with its origin %v, alloc row %v; have %v", cpu != nil, gc != nil, alloc != nil, slices.Sorted(maps.Keys(byKey)))
	}
	n := len(cpu)
	for _, c := range []struct {
		name       string
		row, whole []float64
		want       float64
	}{{"cpu", cpu, procCPU, 0.25 * 1.2}, {"alloc", alloc, procAlloc, 0.5}} {
		// within the sampling noise of a day of samples
		if got := c.row[n-1] / c.whole[n-1]; math.Abs(got-c.want)/c.want > 0.03 {
			t.Errorf("%s row: %.4f of the service's cost over the day, want %.4f (its share, scaled to the live cost per request)", c.name, got, c.want)
		}
		for k := 1; k < n; k++ {
			if c.row[k] < c.row[k-1] {
				t.Fatalf("%s row decreases at %d", c.name, k)
			}
		}
	}
	// the cpu row grows by whole 10ms samples, as a 100 Hz profile counts
	for k := 1; k < n; k++ {
		if d := (cpu[k] - cpu[k-1]) / 0.01; math.Abs(d-math.Round(d)) > 1e-6 {
			t.Fatalf("cpu row step %d: %g samples", k, d)
		}
	}
	// a fixed cost weighs more per request at night, as on the service's line
	perReq := func(xs []float64, hoursBefore float64) float64 {
		k := n - 1 - int(hoursBefore*3600/15)
		return (xs[k] - xs[k-240]) / (req[k] - req[k-240])
	}
	if day, night := perReq(cpu, 0.5), perReq(cpu, 12); night < 1.5*day {
		t.Errorf("cpu row per request: day %g, night %g; want the night's higher, as the fixed cost weighs more", day, night)
	}
	// only the rows the bridge exported live get history, and only where
	// their service runs and has a live cost: a function that cost nothing
	// then (the println incident's text marshalling) has no row before the
	// bridge admits it live
	var rows []string
	for k := range byKey {
		if strings.HasPrefix(k, "hotpath_profile_") {
			rows = append(rows, k)
		}
	}
	if len(rows) != 3 {
		t.Errorf("history rows %q, want only api's fmt.Fprintln and runtime.gcBgMarkWorker (cpu) and other (alloc_space)", slices.Sorted(slices.Values(rows)))
	}
}

// Prometheus scrapes the bridge with honor_labels: its rows keep their
// service's job.
func TestPromConfigScrapesTheBridgeWithItsJobs(t *testing.T) {
	w := testWorld()
	y := w.PromConfig(nil, false).YAML()
	want := "  - job_name: \"" + ProfileMetricsJob + "\"\n    honor_labels: true\n    static_configs:\n      - targets: [\"127.0.0.1:" + strconv.Itoa(w.Ports.ProfileMetrics) + "\"]\n"
	if !strings.Contains(y, want) {
		t.Errorf("config lacks the bridge's job with honor_labels:\n%s", y)
	}
	// the services' own targets keep Prometheus' job and instance; only the
	// exporters that name other targets' series honour theirs
	for _, job := range strings.Split(y, "  - job_name: ")[1:] {
		name, _, _ := strings.Cut(job, "\n")
		if strings.Contains(job, "honor_labels") && name != strconv.Quote(ProfileMetricsJob) && name != strconv.Quote(KubeStateJob) {
			t.Errorf("job %s honours its targets' labels", name)
		}
	}
}
