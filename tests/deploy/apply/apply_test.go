//go:build kube

// Package apply applies the Kubernetes bundle that `make generate` renders
// (deploy/kubernetes) to a real API server (cluster_test.go): fresh, and over
// the installs it replaces (testdata/README.md), with client-side apply
// (`kubectl apply`) and server-side apply (`kubectl apply --server-side`, as
// Flux and Argo CD apply), and the documented patch of a prometheus-operator
// Alertmanager. Run by `make test-deploy` (`-tags kube`: it needs the pinned
// kube-apiserver, etcd and kubectl of `make tools-kube`).
package apply

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hotpath/hotpath/tests/harness"
)

type obj = map[string]any

// The folders applied: the bundle as rendered, and the earlier installs'.
var (
	bundle   = filepath.Join(harness.RepoRoot(), "deploy", "kubernetes")
	emptyDir = filepath.Join("testdata", "earlier-emptydir")
	recreate = filepath.Join("testdata", "earlier-recreate")
)

// How a step applies: kubectl's client-side apply, server-side apply by
// kubectl's own field manager, or server-side apply taking over every field
// another manager set (--force-conflicts), as Flux (kustomize-controller)
// and Argo CD do.
const (
	clientSide = "client-side"
	serverSide = "server-side"
	takeOver   = "server-side, taking over (Flux)"
)

type step struct{ folder, how string }

func (s step) String() string { return filepath.Base(s.folder) + " " + s.how }

func TestInstallPaths(t *testing.T) {
	c := startCluster(t)
	c.installCRDs(t)
	t.Run("the bundle applies", func(t *testing.T) { bundleApplies(t, c) })
	t.Run("the Alertmanager patch applies as its comment says", func(t *testing.T) { alertmanagerPatchAsDocumented(t, c) })
}

func bundleApplies(t *testing.T, c *cluster) {
	scenarios := []struct {
		name  string
		steps []step
	}{
		{"fresh, client-side, applied twice", []step{{bundle, clientSide}, {bundle, clientSide}}},
		{"fresh, server-side, applied twice", []step{{bundle, serverSide}, {bundle, serverSide}}},
		{"over the emptyDir install, client-side", []step{{emptyDir, clientSide}, {bundle, clientSide}}},
		{"over the emptyDir install, server-side", []step{{emptyDir, serverSide}, {bundle, serverSide}}},
		{"over the emptyDir install applied client-side, taken over server-side", []step{{emptyDir, clientSide}, {bundle, takeOver}}},
		{"over the Recreate install, client-side", []step{{recreate, clientSide}, {bundle, clientSide}}},
		{"over the Recreate install, server-side", []step{{recreate, serverSide}, {bundle, serverSide}}},
		{"over the Recreate install applied client-side, taken over server-side", []step{{recreate, clientSide}, {bundle, takeOver}}},
	}
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ns := namespaces(fmt.Sprintf("s%d", i))
			c.createNamespaces(t, ns)
			for _, s := range sc.steps {
				if out, err := c.apply(t, s, ns); err != nil {
					t.Fatalf("%s: %v", s, err)
				} else {
					t.Logf("%s:\n%s", s, strings.TrimSpace(out))
				}
			}
			c.checkReceiver(t, ns["hotpath"])
		})
	}

	// The reason the Deployment is not Recreate: over an install whose
	// rollingUpdate the API server filled in, server-side apply keeps it
	// (no field manager of the applier set it), and the API server refuses
	// Recreate beside it. The Recreate bundle, applied as above, fails.
	t.Run("negative: Recreate over the emptyDir install, server-side, is refused", func(t *testing.T) {
		ns := namespaces("neg")
		c.createNamespaces(t, ns)
		if _, err := c.apply(t, step{emptyDir, serverSide}, ns); err != nil {
			t.Fatal(err)
		}
		_, err := c.apply(t, step{recreate, takeOver}, ns)
		if err == nil || !strings.Contains(err.Error(), "spec.strategy.rollingUpdate: Forbidden") {
			t.Fatalf("applying the Recreate Deployment over it: %v, want the API server's spec.strategy.rollingUpdate: Forbidden", err)
		}
	})
}

// namespaces maps the bundle's namespaces to a scenario's own.
func namespaces(prefix string) map[string]string {
	return map[string]string{"hotpath": prefix + "-hotpath", "monitoring": prefix + "-monitoring"}
}

func (c *cluster) createNamespaces(t *testing.T, ns map[string]string) {
	t.Helper()
	for _, n := range ns {
		c.must(t, "create", "namespace", n)
	}
}

// apply applies every manifest under folder, in the scenario's namespaces,
// as the step says.
func (c *cluster) apply(t *testing.T, s step, ns map[string]string) (string, error) {
	t.Helper()
	dir := relocate(t, c.dir, s.folder, ns)
	switch s.how {
	case clientSide:
		return c.kubectl("apply", "-R", "-f", dir)
	case serverSide:
		return c.kubectl("apply", "--server-side", "-R", "-f", dir)
	default:
		return c.kubectl("apply", "--server-side", "--field-manager", "kustomize-controller", "--force-conflicts", "-R", "-f", dir)
	}
}

// relocate copies folder's manifests into a fresh directory under base with
// every metadata.namespace renamed by ns (what the bundle renders for another
// `kubernetes.namespace`); nothing else changes. (Not the subtest's
// TempDir: its name holds the subtest's commas, which kubectl -f splits on.)
func relocate(t *testing.T, base, folder string, ns map[string]string) string {
	t.Helper()
	out, err := os.MkdirTemp(base, "manifests-")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(folder, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var m obj
		if err := yaml.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		md := m["metadata"].(obj)
		if n, ok := ns[fmt.Sprint(md["namespace"])]; ok {
			md["namespace"] = n
		}
		b, err = yaml.Marshal(m)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(folder, path)
		return os.WriteFile(filepath.Join(out, strings.ReplaceAll(rel, string(filepath.Separator), "-")), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkReceiver: the receiver's Deployment, as the API server stores it
// after the last apply, runs one receiver at a time (a rollout adds no pod)
// and keeps its state on the claim, which exists.
func (c *cluster) checkReceiver(t *testing.T, ns string) {
	t.Helper()
	var dep obj
	if err := json.Unmarshal([]byte(c.must(t, "-n", ns, "get", "deployment", "hotpath-notify", "-o", "json")), &dep); err != nil {
		t.Fatal(err)
	}
	spec := dep["spec"].(obj)
	if got, want := spec["strategy"], (obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": float64(0), "maxUnavailable": float64(1)}}); !reflect.DeepEqual(got, want) {
		t.Errorf("strategy %v, want %v", got, want)
	}
	pod := spec["template"].(obj)["spec"].(obj)
	volumes := map[string]obj{}
	for _, v := range pod["volumes"].([]any) {
		volumes[v.(obj)["name"].(string)] = v.(obj)
	}
	var mounted []string
	for _, m := range pod["containers"].([]any)[0].(obj)["volumeMounts"].([]any) {
		mm := m.(obj)
		mounted = append(mounted, mm["name"].(string))
		if mm["mountPath"] == "/var/lib/hotpath-notify" {
			claim, _ := volumes[mm["name"].(string)]["persistentVolumeClaim"].(obj)
			if claim == nil || claim["claimName"] != "hotpath-notify" {
				t.Errorf("the state directory is on volume %v, not on the claim hotpath-notify", volumes[mm["name"].(string)])
			}
		}
	}
	// a volume of the earlier install no manifest mounts any more: harmless,
	// but said (kubectl's three-way merge and a field manager's own apply
	// remove it; one manager taking over another's fields does not)
	var unused []string
	for name := range volumes {
		if !contains(mounted, name) {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Logf("volumes no container mounts: %v", unused)
	}
	c.must(t, "-n", ns, "get", "persistentvolumeclaim", "hotpath-notify")
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// installCRDs registers the custom kinds the bundle uses (prometheus-operator's
// and grafana-operator's), each accepting any content: their schemas are
// kubeconform's to check (tests/deploy/validate.sh, against the vendored
// ones); here only how the objects apply matters.
func (c *cluster) installCRDs(t *testing.T) {
	t.Helper()
	kinds := map[string]bool{"monitoring.coreos.com/v1/Alertmanager": true} // the patch below needs one
	_ = filepath.WalkDir(bundle, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var m obj
		b, _ := os.ReadFile(path)
		if yaml.Unmarshal(b, &m) == nil && strings.Contains(fmt.Sprint(m["apiVersion"]), ".") && !strings.Contains(fmt.Sprint(m["apiVersion"]), "k8s.io/") {
			kinds[fmt.Sprintf("%s/%s", m["apiVersion"], m["kind"])] = true
		}
		return nil
	})
	dir := t.TempDir()
	var names []string
	for k := range kinds {
		parts := strings.Split(k, "/")
		group, version, kind := parts[0], parts[1], parts[2]
		plural := strings.ToLower(kind) + "s"
		names = append(names, "crd/"+plural+"."+group)
		write(t, filepath.Join(dir, plural+".yaml"), []byte(fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %[1]s.%[2]s}
spec:
  group: %[2]s
  names: {kind: %[3]s, plural: %[1]s, singular: %[4]s, listKind: %[3]sList}
  scope: Namespaced
  versions:
    - name: %[5]s
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`, plural, group, kind, strings.ToLower(kind), version)))
	}
	c.must(t, "apply", "-f", dir)
	c.must(t, append([]string{"wait", "--for", "condition=established", "--timeout", "60s"}, names...)...)
}

// The Alertmanager patch of deploy/alertmanager, as its own comment says to
// apply it: with the file, to the Alertmanager it names; and, to one of
// another name, the inline patch the comment gives (the file is refused
// there: its metadata names its own).
func alertmanagerPatchAsDocumented(t *testing.T, c *cluster) {
	file := filepath.Join(harness.RepoRoot(), "deploy", "alertmanager", "prometheus-operator-alertmanager.yaml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var patch obj
	if err := yaml.Unmarshal(b, &patch); err != nil {
		t.Fatal(err)
	}
	md := patch["metadata"].(obj)
	name, ns := md["name"].(string), md["namespace"].(string)
	// the commands the comment gives
	var fileCmd, inlineCmd []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "#   kubectl ") {
			continue
		}
		args := shellWords(t, strings.TrimPrefix(line, "#   kubectl "))
		if contains(args, "--patch-file") {
			fileCmd = args
		} else {
			inlineCmd = args
		}
	}
	if fileCmd == nil || inlineCmd == nil {
		t.Fatalf("%s: its comment gives no `kubectl ... --patch-file` and inline `kubectl ... -p` commands:\n%s", file, b)
	}

	// kube-prometheus' Alertmanager, and kube-prometheus-stack's of release kps
	other, otherNs := "kps-alertmanager", "kps"
	c.must(t, "create", "namespace", ns)
	c.must(t, "create", "namespace", otherNs)
	for _, a := range [][2]string{{ns, name}, {otherNs, other}} {
		f := filepath.Join(t.TempDir(), "alertmanager.yaml")
		write(t, f, []byte(fmt.Sprintf("apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: %s, namespace: %s}\nspec: {replicas: 1}\n", a[1], a[0])))
		c.must(t, "apply", "-f", f)
	}
	spec := func(ns, name string) obj {
		var a obj
		if err := json.Unmarshal([]byte(c.must(t, "-n", ns, "get", "alertmanager", name, "-o", "json")), &a); err != nil {
			t.Fatal(err)
		}
		return a["spec"].(obj)
	}
	want := patch["spec"].(obj)
	patched := func(got obj) bool {
		for k, v := range want {
			if !reflect.DeepEqual(got[k], v) {
				return false
			}
		}
		return got["replicas"] == float64(1) // a merge patch keeps the rest
	}

	// as documented, with the file: relative to deploy/alertmanager
	c.must(t, replaceArg(fileCmd, "prometheus-operator-alertmanager.yaml", file)...)
	if got := spec(ns, name); !patched(got) {
		t.Errorf("after the documented patch of %s/%s: spec %v, want %v and replicas kept", ns, name, got, want)
	}
	// the file to another name: refused, as the comment warns
	out, err := c.kubectl("-n", otherNs, "patch", "alertmanager", other, "--type", "merge", "--patch-file", file)
	if err == nil || !regexp.MustCompile(`does not match the (name|namespace)`).MatchString(out) {
		t.Errorf("the file patched %s/%s (%v): the comment says kubectl refuses it there", otherNs, other, err)
	}
	// the inline patch the comment gives, with its placeholders filled
	args := replaceArg(replaceArg(inlineCmd, "<namespace>", otherNs), "<name>", other)
	c.must(t, args...)
	if got := spec(otherNs, other); !patched(got) {
		t.Errorf("after the documented inline patch of %s/%s: spec %v, want %v and replicas kept", otherNs, other, got, want)
	}
}

func replaceArg(args []string, from, to string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, from, to)
	}
	return out
}

// shellWords splits a command line the way sh would for the comment's
// commands: words, and single-quoted strings.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	quoted, in := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
