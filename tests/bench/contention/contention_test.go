//go:build bench

// Package contention measures, on the playground's real services and the
// real profiles-to-metrics bridge, what a busy node, a CPU quota and a code
// change each do to the rows FunctionCostPerRequestRegression judges: which
// functions get dearer per request, whether the runtime's own rows (labelled
// origin="runtime" by the bridge) move with them, and what the node's CPU
// pressure (/proc/pressure/cpu, the kernel's PSI: node_exporter's
// node_pressure_cpu_waiting_seconds_total) and the container's throttled
// time (cpu.stat, cAdvisor's container_cpu_cfs_throttled_seconds_total)
// say meanwhile. The function alert's contention rule is chosen on these
// numbers (docs/runbook.md). Not a test: `make bench-contention` runs it and
// writes tests/bench/RESULTS-contention.md.
package contention

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

// The phases, in order; each measured from settle after it begins (the
// bridge's windows end 30s before its 15s rounds) to its end.
const (
	warmUp = 2 * time.Minute
	phase  = 4 * time.Minute
	settle = 90 * time.Second
)

// busyLoops is how many shell busy loops the busy node runs: one per core,
// as a neighbour that wants the whole node.
var busyLoops = runtime.NumCPU()

// The services: control (the playground's healthy service, constant
// traffic), api and its upstream cache (the println story's code change).
var services = []struct {
	job, kind, route, rate string
	args                   []string
}{
	{"control", "catalog", "/items", "16", nil},
	{"cache", "cache", "", "", nil},
	{"api", "api", "/emoji", "16", []string{"-cache-url", "{cache}"}},
}

func TestBenchContention(t *testing.T) {
	root := harness.RepoRoot()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/demo-service", "./cmd/loadgen", "./cmd/profile-store")
	build.Dir = filepath.Join(root, "demo")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	logs := t.TempDir()
	start := func(name string, argv ...string) *exec.Cmd {
		f, err := os.Create(filepath.Join(logs, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); f.Close() })
		return cmd
	}
	addr := map[string]string{}
	pid := map[string]int{}
	for _, s := range services {
		addr[s.job] = harness.FreeAddr(t)
	}
	var targets, loads, jobs []string
	for _, s := range services {
		args := []string{filepath.Join(bin, "demo-service"), s.kind, "-listen", addr[s.job]}
		for _, a := range s.args {
			args = append(args, strings.ReplaceAll(a, "{cache}", "http://"+addr["cache"]))
		}
		pid[s.job] = start(s.job, args...).Process.Pid
		targets = append(targets, "-target", fmt.Sprintf("%s=http://%s", s.job, addr[s.job]))
		if s.route != "" {
			loads = append(loads, "-target", fmt.Sprintf("%s=http://%s%s@%s", s.job, addr[s.job], s.route, s.rate))
		}
		jobs = append(jobs, s.job)
	}
	store := harness.FreeAddr(t)
	start("profile-store", append([]string{filepath.Join(bin, "profile-store"), "-listen", store}, targets...)...)
	bridge := harness.FreeAddr(t)
	start("bridge", "node", filepath.Join(root, "notify", "profile-metrics.mjs"), "--profiles", "http://"+store, "--listen", bridge, "--services", strings.Join(jobs, ","), "--interval", "15s")
	total := warmUp + 5*phase + time.Minute
	start("loadgen", append([]string{filepath.Join(bin, "loadgen"), "-duration", total.String(), "-report", "0"}, loads...)...)

	m := meter{t: t, bridge: "http://" + bridge + "/metrics", addr: addr}
	time.Sleep(warmUp)
	var results []result
	run := func(name, what string, during func() func()) {
		began := time.Now()
		stop := during()
		time.Sleep(settle)
		from := m.snapshot()
		time.Sleep(phase - settle)
		to := m.snapshot()
		stop()
		results = append(results, result{name: name, what: what, from: from, to: to})
		t.Logf("%s: done in %s", name, time.Since(began).Round(time.Second))
	}
	nothing := func() func() { return func() {} }
	run("quiet", "the services alone", nothing)
	run("busy node", fmt.Sprintf("%d shell busy loops (`while :; do :; done`) beside them", busyLoops), func() func() {
		var loops []*exec.Cmd
		for i := range busyLoops {
			loops = append(loops, start(fmt.Sprintf("busy-%d", i), "sh", "-c", "while :; do :; done"))
		}
		return func() {
			for _, c := range loops {
				_ = c.Process.Kill()
			}
		}
	})
	run("quiet again", "the services alone: the noise between two quiet phases", nothing)
	quota := results[0].coresOf("control") * 0.6
	run("CPU quota", fmt.Sprintf("control in a cgroup with a CFS quota of %.2f cores (60%% of its quiet use)", quota), func() func() {
		return m.throttle(pid["control"], quota)
	})
	run("code change", "api's println incident switched on (a debug print of each response)", func() func() {
		incident(t, addr["api"], true)
		return func() { incident(t, addr["api"], false) }
	})

	report := render(results, jobs)
	t.Log("\n" + report)
	if path := os.Getenv("BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// incident switches the service's incident on or off.
func incident(t *testing.T, addr string, on bool) {
	resp, err := http.Post(fmt.Sprintf("http://%s/admin/incident?on=%t", addr, on), "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("incident on=%t: %s", on, resp.Status)
	}
}

// snapshot is every counter the report reads, at one moment.
type snapshot struct {
	at        time.Time
	rows      map[string]float64 // "job\x00function\x00origin": the bridge's CPU seconds
	requests  map[string]float64 // job: requests served
	cpu       map[string]float64 // job: process CPU seconds
	pressure  float64            // seconds some task waited for a CPU (PSI "some")
	throttled float64            // seconds the quota's cgroup was throttled
}

type meter struct {
	t      *testing.T
	bridge string
	addr   map[string]string
	cgroup string // the quota's cgroup while it exists
}

func (m *meter) snapshot() snapshot {
	ctx := context.Background()
	s := snapshot{at: time.Now(), rows: map[string]float64{}, requests: map[string]float64{}, cpu: map[string]float64{}}
	rows, err := promkit.Scrape(ctx, m.bridge)
	if err != nil {
		m.t.Fatal(err)
	}
	for _, r := range rows {
		if r.Name == "hotpath_profile_cpu_seconds_total" {
			s.rows[r.Labels["job"]+"\x00"+r.Labels["function"]+"\x00"+r.Labels["origin"]] += r.Value
		}
	}
	for job, addr := range m.addr {
		ms, err := promkit.Scrape(ctx, "http://"+addr+"/metrics")
		if err != nil {
			m.t.Fatal(err)
		}
		for _, x := range ms {
			switch x.Name {
			case "http_requests_total":
				s.requests[job] += x.Value
			case "process_cpu_seconds_total":
				s.cpu[job] += x.Value
			}
		}
	}
	s.pressure = pressure(m.t)
	if m.cgroup != "" {
		s.throttled = throttledSeconds(m.t, m.cgroup)
	}
	return s
}

// pressure is /proc/pressure/cpu's "some" total, in seconds.
func pressure(t *testing.T) float64 {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return math.NaN()
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "some ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				us, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				return us / 1e6
			}
		}
	}
	return math.NaN()
}

// throttle moves pid into a cgroup (v1 cpu controller) with a CFS quota of
// cores, and returns what moves it back and removes the group.
func (m *meter) throttle(pid int, cores float64) func() {
	dir := "/sys/fs/cgroup/cpu/hotpath-contention"
	write := func(file, v string) {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(v), 0o644); err != nil {
			m.t.Fatalf("cgroup %s: %v (the CPU quota phase needs root and the cgroup v1 cpu controller)", file, err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		m.t.Fatalf("cgroup: %v (the CPU quota phase needs root and the cgroup v1 cpu controller)", err)
	}
	// The kernel wants a quota of at least 1ms: a service using a hundredth
	// of a core gets a period of a second, the longest there is, rather than
	// Kubernetes' 100ms.
	period := 100000
	if cores*float64(period) < 1000 {
		period = 1000000
	}
	write("cpu.cfs_quota_us", "-1")
	write("cpu.cfs_period_us", strconv.Itoa(period))
	write("cpu.cfs_quota_us", strconv.Itoa(max(1000, int(cores*float64(period)))))
	write("cgroup.procs", strconv.Itoa(pid))
	m.cgroup = dir
	return func() {
		_ = os.WriteFile("/sys/fs/cgroup/cpu/cgroup.procs", []byte(strconv.Itoa(pid)), 0o644)
		m.cgroup = ""
		_ = os.Remove(dir)
	}
}

func throttledSeconds(t *testing.T, dir string) float64 {
	b, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "throttled_time "); ok {
			ns, _ := strconv.ParseFloat(v, 64)
			return ns / 1e9
		}
	}
	return 0
}

// result is one phase's two snapshots.
type result struct {
	name, what string
	from, to   snapshot
}

func (r result) seconds() float64 { return r.to.at.Sub(r.from.at).Seconds() }

func (r result) requests(job string) float64 { return r.to.requests[job] - r.from.requests[job] }

func (r result) coresOf(job string) float64 { return (r.to.cpu[job] - r.from.cpu[job]) / r.seconds() }

// perRequest is each of the job's rows' CPU seconds per request, and the
// service's own.
func (r result) perRequest(job string) (rows map[string]float64, service float64) {
	n := r.requests(job)
	rows = map[string]float64{}
	for k, v := range r.to.rows {
		if strings.HasPrefix(k, job+"\x00") && n > 0 {
			rows[k] = (v - r.from.rows[k]) / n
		}
	}
	if n > 0 {
		service = (r.to.cpu[job] - r.from.cpu[job]) / n
	}
	return rows, service
}

// change is one row's change in CPU per request from the quiet phase, as a
// share of the service's quiet CPU per request (the function alert's
// excess), and its own ratio.
type change struct {
	function, origin string
	share, ratio     float64
}

// changes are the job's rows' changes from base to r, largest first.
func changes(base, r result, job string) (out []change, runtime float64) {
	before, service := base.perRequest(job)
	now, _ := r.perRequest(job)
	for k, v := range now {
		parts := strings.Split(k, "\x00")
		c := change{function: parts[1], origin: parts[2], share: (v - before[k]) / service}
		if before[k] > 0 {
			c.ratio = v / before[k]
		}
		if c.origin == "runtime" {
			runtime += c.share
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].share > out[j].share })
	return out, runtime
}

func render(results []result, jobs []string) string {
	var b strings.Builder
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&b, "# Contention and code changes, as the function rows see them\n\nWritten by `make bench-contention` (tests/bench/contention) on %s: %s, %d cores (load average at the end %s). The playground's real services (control: the healthy one at 16 req/s; api at 16 req/s and its upstream cache), its profile store pulling their pprof profiles, and the real profiles-to-metrics bridge (notify/profile-metrics.mjs, 15s rounds); each phase %s, measured from %s after it begins to its end.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), harness.CPUModel(), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "), phase, settle)
	b.WriteString("## Each phase\n\n| phase | what | node CPU pressure (share of the time some task waited) | control: cores, CPU per request vs quiet | control: throttled (s/s) | api: CPU per request vs quiet |\n|---|---|---:|---|---:|---|\n")
	base := results[0]
	for _, r := range results {
		_, svc := r.perRequest("control")
		_, svc0 := base.perRequest("control")
		_, api := r.perRequest("api")
		_, api0 := base.perRequest("api")
		fmt.Fprintf(&b, "| %s | %s | %.0f%% | %.3f, %+.1f%% | %.2f | %+.1f%% |\n", r.name, r.what, 100*(r.to.pressure-r.from.pressure)/r.seconds(),
			r.coresOf("control"), 100*(svc/svc0-1), (r.to.throttled-r.from.throttled)/r.seconds(), 100*(api/api0-1))
	}
	b.WriteString("\n## The rows that moved, against the quiet phase\n\nPer service and phase: the sum of the runtime's own rows' change (`origin=\"runtime\"`), and the five rows that rose most, each as its change in CPU per request over the service's quiet CPU per request (the function alert's excess: it pages from +3%) and as its own ratio.\n\n| phase | service | runtime rows | rose most |\n|---|---|---:|---|\n")
	for _, r := range results[1:] {
		for _, job := range []string{"control", "api"} {
			cs, rt := changes(base, r, job)
			var top []string
			for _, c := range cs[:min(5, len(cs))] {
				name := c.function
				if c.origin != "" {
					name += " (" + c.origin + ")"
				}
				top = append(top, fmt.Sprintf("`%s` %+.1f%% (x%.2f)", name, 100*c.share, c.ratio))
			}
			fmt.Fprintf(&b, "| %s | %s | %+.1f%% | %s |\n", r.name, job, 100*rt, strings.Join(top, ", "))
		}
	}
	return b.String()
}
