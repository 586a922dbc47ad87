package mixin

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// jsonnetfile is the part of jsonnet-bundler's jsonnetfile.json (spec v1)
// that says what is vendored from where.
type jsonnetfile struct {
	Version      int `json:"version"`
	Dependencies []struct {
		Source struct {
			Git *struct{ Remote, Subdir string } `json:"git"`
		} `json:"source"`
		Version string `json:"version"`
		Name    string `json:"name"`
	} `json:"dependencies"`
	LegacyImports bool `json:"legacyImports"`
}

func readJsonnetfile(t *testing.T, what string, b []byte) jsonnetfile {
	t.Helper()
	var f jsonnetfile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: not a jsonnetfile.json: %v\n%s", what, err, b)
	}
	if f.Version != 1 {
		t.Fatalf("%s: version %d, jb reads version 1", what, f.Version)
	}
	return f
}

// The README's code block of the given language whose text contains marker.
func readmeBlock(t *testing.T, lang, marker string) string {
	t.Helper()
	readme := readFile(t, filepath.Join(harness.RepoRoot(), "README.md"))
	for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(readme, -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("README.md: no ```%s block with %q", lang, marker)
	return ""
}

// jsonnet/ is a jsonnet-bundler package: its jsonnetfile.json parses and
// needs nothing vendored; the README's consumer jsonnetfile names this
// repository's jsonnet/ subdir under the name its examples import; and the
// README's overlay, rendered from a vendor tree laid out as `jb install`
// lays it (only jsonnet/ copied, at its remote path and its legacy name,
// nothing else of the checkout reachable), gives the plain mixin's files.
func TestJsonnetBundlerPackage(t *testing.T) {
	root := harness.RepoRoot()
	own := readJsonnetfile(t, "jsonnet/jsonnetfile.json", []byte(readFile(t, filepath.Join(root, "jsonnet", "jsonnetfile.json"))))
	if len(own.Dependencies) != 0 {
		t.Errorf("jsonnet/jsonnetfile.json: %d dependencies, want none (jsonnet/ imports only itself)", len(own.Dependencies))
	}

	consumer := readJsonnetfile(t, "README.md's jsonnetfile.json", []byte(readmeBlock(t, "json", `"subdir"`)))
	if len(consumer.Dependencies) != 1 || consumer.Dependencies[0].Source.Git == nil {
		t.Fatalf("README.md's jsonnetfile.json: want one git dependency, got %+v", consumer)
	}
	dep := consumer.Dependencies[0]
	if dep.Source.Git.Remote != "https://github.com/hotpath/hotpath.git" || dep.Source.Git.Subdir != "jsonnet" || dep.Name != "hotpath" || !consumer.LegacyImports {
		t.Errorf("README.md's jsonnetfile.json: %+v %+v, want remote https://github.com/hotpath/hotpath.git, subdir jsonnet, name hotpath, legacyImports", dep, *dep.Source.Git)
	}
	for _, f := range []string{"jsonnetfile.json", "mixin.libsonnet", "lib/render.libsonnet"} {
		if _, err := os.Stat(filepath.Join(root, dep.Source.Git.Subdir, f)); err != nil {
			t.Errorf("subdir %s: %v", dep.Source.Git.Subdir, err)
		}
	}

	work := t.TempDir()
	vendored := filepath.Join(work, "vendor", "github.com", "hotpath", "hotpath", dep.Source.Git.Subdir)
	must(t, os.MkdirAll(filepath.Dir(vendored), 0o755), "vendor")
	must(t, os.CopyFS(vendored, os.DirFS(filepath.Join(root, dep.Source.Git.Subdir))), "copy jsonnet/")
	must(t, os.Symlink(filepath.Join("github.com", "hotpath", "hotpath", dep.Source.Git.Subdir), filepath.Join(work, "vendor", dep.Name)), "legacy name")
	overlay := readmeBlock(t, "jsonnet", "'hotpath/mixin.libsonnet'")
	must(t, os.WriteFile(filepath.Join(work, "hotpath.jsonnet"), []byte(overlay), 0o644), "overlay")
	out := filepath.Join(work, "out")
	must(t, os.MkdirAll(out, 0o755), "out")
	cmd := exec.Command(harness.Tool(t, "jsonnet"), "-J", "vendor", "-c", "-m", "out", "-S", "hotpath.jsonnet")
	cmd.Dir = work
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's overlay on a vendored copy: %v\n%s", err, b)
	}

	plain := harness.Render(t, filepath.Join(root, "tests", "mixin", "testdata", "plain.jsonnet"))
	files := renderedFiles(t, plain)
	if got := renderedFiles(t, out); strings.Join(got, " ") != strings.Join(files, " ") {
		t.Fatalf("vendored render: %v, want %v", got, files)
	}
	for _, f := range files {
		if readFile(t, filepath.Join(out, f)) != readFile(t, filepath.Join(plain, f)) {
			t.Errorf("%s: the vendored render differs from the checkout's", f)
		}
	}
}
