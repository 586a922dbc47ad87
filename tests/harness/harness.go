// Package harness starts the real, pinned Prometheus (.tools/bin/prometheus)
// on 127.0.0.1 for tests, next to exporters the tests script, and queries it
// through its HTTP API. Everything it starts is stopped by t.Cleanup, and every
// wait is bounded.
package harness

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"gopkg.in/yaml.v3"
)

// RepoRoot is the repository's top folder, found from this file's location so
// tests work from any package directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Tool returns the path of a pinned tool built by `make tools`, failing the
// test with the command to run when it is missing.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(RepoRoot(), ".tools", "bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s not built: run `make tools` (%v)", name, err)
	}
	return p
}

// FreeAddr returns a 127.0.0.1 address with a port nobody listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

func must(t testing.TB, err error, what string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(what, args...), err)
	}
}

// Render renders a jsonnet entry point (an overlay of the mixin, see
// tools/render-mixin.sh) into a fresh directory and returns it; the rule
// files are then under <dir>/rules/.
func Render(t testing.TB, entry string) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(RepoRoot(), "tools", "render-mixin.sh"), entry, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render %s: %v\n%s", entry, err, b)
	}
	return out
}

// RuleFiles are the rendered recording and alerting rule files under dir.
func RuleFiles(dir string) []string {
	return []string{filepath.Join(dir, "rules", "hotpath-rules.yaml"), filepath.Join(dir, "rules", "hotpath-alerts.yaml")}
}

// ParseRules reads rule files with Prometheus's own parser (what the server
// and promtool load), failing the test on any error; ShippedRules are the
// committed rules/ of this repository.
func ParseRules(t testing.TB, files []string) []rulefmt.RuleGroup {
	t.Helper()
	var out []rulefmt.RuleGroup
	for _, f := range files {
		groups, errs := rulefmt.ParseFile(f, false, model.UTF8Validation)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", f, errs)
		}
		out = append(out, groups.Groups...)
	}
	return out
}

// WriteRules writes groups (as ParseRules read them, changed or filtered)
// into a rule file named name in a fresh temporary directory.
func WriteRules(t testing.TB, groups []rulefmt.RuleGroup, name string) string {
	t.Helper()
	b, err := yaml.Marshal(rulefmt.RuleGroups{Groups: groups})
	if err != nil {
		t.Fatalf("marshal rules: %v", err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	return path
}

// ShippedRules parses the committed rules/ files.
func ShippedRules(t testing.TB) []rulefmt.RuleGroup {
	t.Helper()
	return ParseRules(t, RuleFiles(RepoRoot()))
}

// RecordCount is the number of recording rules in groups.
func RecordCount(groups []rulefmt.RuleGroup) int {
	n := 0
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				n++
			}
		}
	}
	return n
}

// RecordedNames are the recording rules' names in groups, in file order.
func RecordedNames(groups []rulefmt.RuleGroup) []string {
	var out []string
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				out = append(out, r.Record)
			}
		}
	}
	return out
}
