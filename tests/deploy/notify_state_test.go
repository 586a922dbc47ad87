package deploy

// hotpath-notify's state in the cluster: the journal, the Slack retries, the
// memory of what was announced and the pictures live on the claim, and no two
// receivers can run at once; the Ingress's TLS certificate, from cert-manager
// when an issuer is set.

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// renderNotify renders the bundle with notify+: overrides (a jsonnet object
// body) and returns the render's directory, or the render's error text.
func renderNotify(t *testing.T, overrides string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	entry := filepath.Join(dir, "overlay.jsonnet")
	src := fmt.Sprintf(`local mixin = (import 'mixin.libsonnet') + (import 'deploy/deploy.libsonnet') + { _config+:: { kubernetes+: { notify+: { %s } } } };
(import 'deploy/render.libsonnet')(mixin)
`, overrides)
	if err := os.WriteFile(entry, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := harness.TryRender(t, entry)
	if err != nil {
		return "", err.Error()
	}
	return filepath.Join(out, "deploy", "kubernetes", "notify"), ""
}

// flag is the value of --name=value in args, "" when absent.
func flag(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// checkStateOnClaim asserts that the receiver in dir (deploy/kubernetes/notify)
// keeps every directory it writes on the claim rendered next to it, and that
// no second receiver can run beside the first.
func checkStateOnClaim(t *testing.T, dir string) {
	t.Helper()
	dep := read(t, filepath.Join(dir, "deployment.yaml"))
	pvc := read(t, filepath.Join(dir, "persistentvolumeclaim.yaml"))
	if str(t, dep, "kind") != "Deployment" || str(t, pvc, "kind") != "PersistentVolumeClaim" {
		t.Fatalf("kinds %v and %v", dep["kind"], pvc["kind"])
	}
	claim := str(t, pvc, "metadata", "name")
	if got, want := str(t, pvc, "metadata", "namespace"), str(t, dep, "metadata", "namespace"); got != want {
		t.Errorf("the claim is in namespace %s, the Deployment in %s", got, want)
	}

	pod := get(t, dep, "spec", "template", "spec")
	onClaim := map[string]bool{} // volume name -> is the claim
	for _, v := range get(t, pod, "volumes").([]any) {
		pv, _ := v.(obj)["persistentVolumeClaim"].(obj)
		onClaim[str(t, v, "name")] = pv != nil && pv["claimName"] == claim
	}
	c := get(t, pod, "containers", 0)
	// where each directory lands: the mount with the longest path that holds it
	// (a deeper mount would hide the claim)
	volumeOf := func(path string) string {
		best, vol := "", ""
		for _, m := range get(t, c, "volumeMounts").([]any) {
			mp := str(t, m, "mountPath")
			if under(path, mp) && len(mp) > len(best) {
				best, vol = mp, str(t, m, "name")
			}
		}
		return vol
	}
	args := toStrings(get(t, c, "args").([]any))
	// hotpath-notify's defaults (notify/hotpath-notify.mjs): --images-dir is
	// the out-dir, --state-dir is <images-dir>/.state
	out := flag(args, "out-dir")
	images := flag(args, "images-dir")
	if images == "" {
		images = out
	}
	state := flag(args, "state-dir")
	if state == "" {
		state = images + "/.state"
	}
	for what, path := range map[string]string{"the state dir (journal, Slack retries, what was announced)": state, "the picture dir": images, "the out-dir": out} {
		if !strings.HasPrefix(path, "/") {
			t.Errorf("%s: %q is not an absolute path", what, path)
			continue
		}
		if v := volumeOf(path); !onClaim[v] {
			t.Errorf("%s %s is on volume %q, not on claim %s", what, path, v, claim)
		}
	}

	// no two receivers at once: one replica, a rollout that stops the old pod
	// before it starts the new one, and a claim only one pod may mount (which
	// holds through an eviction or a drain too, where the strategy does not act)
	if r, ok := get(t, dep, "spec", "replicas").(int); !ok || r > 1 {
		t.Errorf("replicas %v, want 1", get(t, dep, "spec", "replicas"))
	}
	// (a rolling update that adds no pod; tests/deploy/apply proves why not
	// Recreate: server-side apply over an earlier install is refused)
	if got := get(t, dep, "spec", "strategy"); !reflect.DeepEqual(got, obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": 0, "maxUnavailable": 1}}) {
		t.Errorf("strategy %v: a rollout that surges runs the new receiver beside the old one", got)
	}
	if got := get(t, pvc, "spec", "accessModes"); !reflect.DeepEqual(got, []any{"ReadWriteOncePod"}) {
		t.Errorf("the claim's accessModes %v, want [ReadWriteOncePod]: one pod, cluster-wide", got)
	}
	if got := get(t, pvc, "spec", "resources", "requests", "storage"); got != "2Gi" {
		t.Errorf("the claim requests %v, want 2Gi", got)
	}
}

func TestNotifyStateOnClaim(t *testing.T) {
	dir := filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "notify")
	checkStateOnClaim(t, dir)
	if _, ok := read(t, filepath.Join(dir, "persistentvolumeclaim.yaml"))["spec"].(obj)["storageClassName"]; ok {
		t.Error("storageClassName is set: the shipped claim takes the cluster's default StorageClass")
	}
}

// TestNotifyStateKnobs: the size and class reach the claim, and a
// configuration that would run two receivers, or the old emptyDir knob, is
// refused at render time with the knob's name.
func TestNotifyStateKnobs(t *testing.T) {
	dir, errText := renderNotify(t, `stateVolumeSize: '10Gi', stateStorageClassName: 'gp3'`)
	if errText != "" {
		t.Fatal(errText)
	}
	pvc := read(t, filepath.Join(dir, "persistentvolumeclaim.yaml"))
	if get(t, pvc, "spec", "resources", "requests", "storage") != "10Gi" || get(t, pvc, "spec", "storageClassName") != "gp3" {
		t.Errorf("claim spec %v, want 10Gi of gp3", get(t, pvc, "spec"))
	}
	dir, _ = renderNotify(t, `stateStorageClassName: ''`)
	if got, ok := read(t, filepath.Join(dir, "persistentvolumeclaim.yaml"))["spec"].(obj)["storageClassName"]; !ok || got != "" {
		t.Errorf("stateStorageClassName '' renders %v, want storageClassName \"\" (a volume with no class)", got)
	}
	for overrides, want := range map[string]string{
		`replicas: 2`:                    "kubernetes.notify.replicas: 2",
		`outDirVolume: { emptyDir: {} }`: "kubernetes.notify.outDirVolume is gone",
		`certManagerIssuer: { kind: 'Foo', name: 'letsencrypt' }`: "kubernetes.notify.certManagerIssuer.kind",
	} {
		if _, errText := renderNotify(t, overrides); !strings.Contains(errText, want) {
			t.Errorf("%s: render error %q, want one that says %q", overrides, errText, want)
		}
	}
}

func TestNotifyIngressTLS(t *testing.T) {
	ingress := func(t *testing.T, overrides string) obj {
		t.Helper()
		dir, errText := renderNotify(t, overrides)
		if errText != "" {
			t.Fatal(errText)
		}
		return read(t, filepath.Join(dir, "ingress.yaml"))
	}
	// shipped: https, the Secret named, no issuer (bring the Secret yourself)
	shipped := read(t, filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "notify", "ingress.yaml"))
	if got := get(t, shipped, "spec", "tls"); !reflect.DeepEqual(got, []any{obj{"hosts": []any{"hotpath-notify.example.com"}, "secretName": "hotpath-notify-tls"}}) {
		t.Errorf("tls %v, want hotpath-notify-tls for hotpath-notify.example.com", got)
	}
	if got := get(t, shipped, "metadata", "annotations"); got != nil {
		t.Errorf("annotations %v without an issuer", got)
	}
	for kind, annotation := range map[string]string{"ClusterIssuer": "cert-manager.io/cluster-issuer", "Issuer": "cert-manager.io/issuer"} {
		ing := ingress(t, fmt.Sprintf(`certManagerIssuer: { kind: '%s', name: 'letsencrypt-prod' }`, kind))
		if got := get(t, ing, "metadata", "annotations"); !reflect.DeepEqual(got, obj{annotation: "letsencrypt-prod"}) {
			t.Errorf("%s: annotations %v, want %s: letsencrypt-prod", kind, got, annotation)
		}
		if got := str(t, ing, "spec", "tls", 0, "secretName"); got != "hotpath-notify-tls" {
			t.Errorf("%s: the certificate goes to %s", kind, got)
		}
	}
	// http: no TLS, so no certificate to ask for
	ing := ingress(t, `publicURL: 'http://hotpath-notify.example.com', certManagerIssuer: { kind: 'ClusterIssuer', name: 'letsencrypt-prod' }`)
	if get(t, ing, "spec", "tls") != nil || get(t, ing, "metadata", "annotations") != nil {
		t.Errorf("an http publicURL renders tls %v and annotations %v", get(t, ing, "spec", "tls"), get(t, ing, "metadata", "annotations"))
	}
}
