// Package harness is promkit for tests: it starts the real, pinned
// Prometheus (.tools/bin/prometheus) and Thanos on 127.0.0.1, next to
// exporters the tests script, failing the test when a step fails. Everything
// it starts is stopped by t.Cleanup, and every wait is bounded.
package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hotpath/hotpath/promkit"
	"github.com/prometheus/prometheus/model/rulefmt"
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
	a, err := promkit.FreeAddr()
	must(t, err, "free address")
	return a
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
	out, err := TryRender(t, entry)
	if err != nil {
		t.Fatalf("render %s: %v", entry, err)
	}
	return out
}

// TryRender is Render for an entry point that may be refused (a knob's
// assert): the error carries jsonnet's message.
func TryRender(t testing.TB, entry string) (string, error) {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(RepoRoot(), "tools", "render-mixin.sh"), entry, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, b)
	}
	return out, nil
}

// RuleFiles are the rendered recording and alerting rule files under dir.
func RuleFiles(dir string) []string {
	return []string{filepath.Join(dir, "rules", "hotpath-rules.yaml"), filepath.Join(dir, "rules", "hotpath-alerts.yaml")}
}

// FastRuleFiles renders the shipped pack with only its groups' evaluation
// intervals shortened, so a test sees every group evaluate within seconds:
// overlay is one of tests/realrules/testdata (fast-intervals.jsonnet, or
// fast-intervals-cadvisor.jsonnet for Kubernetes mode).
func FastRuleFiles(t testing.TB, overlay string) []string {
	t.Helper()
	return RuleFiles(Render(t, filepath.Join(RepoRoot(), "tests", "realrules", "testdata", overlay)))
}

// ParseRules reads rule files with Prometheus's own parser (promkit.ReadRules),
// failing the test on any error; ShippedRules are the committed rules/ of
// this repository.
func ParseRules(t testing.TB, files []string) []rulefmt.RuleGroup {
	t.Helper()
	groups, err := promkit.ReadRules(files...)
	must(t, err, "read rules")
	return groups
}

// WriteRules writes groups (as ParseRules read them, changed or filtered)
// into a rule file named name in a fresh temporary directory.
func WriteRules(t testing.TB, groups []rulefmt.RuleGroup, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	must(t, promkit.WriteRules(path, groups), "write %s", name)
	return path
}

// ShippedRules parses the committed rules/ files.
func ShippedRules(t testing.TB) []rulefmt.RuleGroup {
	t.Helper()
	return ParseRules(t, RuleFiles(RepoRoot()))
}

// RecordCount is the number of recording rules in groups.
func RecordCount(groups []rulefmt.RuleGroup) int { return len(promkit.RecordedNames(groups)) }
