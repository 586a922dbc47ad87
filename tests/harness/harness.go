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
// tests/generated/render.sh) into a fresh directory and returns it; the rule
// files are then under <dir>/rules/.
func Render(t testing.TB, entry string) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(RepoRoot(), "tests", "generated", "render.sh"), entry, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render %s: %v\n%s", entry, err, b)
	}
	return out
}

// RuleFiles are the rendered recording and alerting rule files under dir.
func RuleFiles(dir string) []string {
	return []string{filepath.Join(dir, "rules", "hotpath-rules.yaml"), filepath.Join(dir, "rules", "hotpath-alerts.yaml")}
}
