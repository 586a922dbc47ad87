// Package deploy tests the Kubernetes bundle that `make generate` renders into
// deploy/kubernetes: what it carries round-trips to the files it is made from
// (dashboards/*.json, rules/*.yaml), the AlertmanagerConfig routes exactly the
// pack's alerts to hotpath-notify as the receiver accepts them, and every
// kubernetes knob reaches the manifests. Schema validation is test-deploy's
// kubeconform step (tests/deploy/validate.sh).
package deploy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hotpath/hotpath/tests/harness"
)

type obj = map[string]any

func read(t *testing.T, path string) obj {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `make generate`)", err)
	}
	var o obj
	if err := yaml.Unmarshal(b, &o); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return o
}

// get walks a path of map keys and list indexes ("spec", "routes", 0, ...).
func get(t *testing.T, o any, path ...any) any {
	t.Helper()
	cur := o
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(obj)
			if !ok {
				t.Fatalf("at %v: not a map (%T)", path, cur)
			}
			cur = m[k]
		case int:
			l, ok := cur.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at %v: no item %d", path, k)
			}
			cur = l[k]
		}
	}
	return cur
}

func str(t *testing.T, o any, path ...any) string {
	t.Helper()
	s, ok := get(t, o, path...).(string)
	if !ok {
		t.Fatalf("%v: not a string: %v", path, get(t, o, path...))
	}
	return s
}

// alertNames are the alerts of a rendered hotpath-alerts.yaml, in file order.
func alertNames(t *testing.T, file string) []string {
	t.Helper()
	var names []string
	for _, g := range get(t, read(t, file), "groups").([]any) {
		for _, r := range get(t, g, "rules").([]any) {
			if a, ok := r.(obj)["alert"].(string); ok {
				names = append(names, a)
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s: no alerts", file)
	}
	return names
}

// dashboards are the file names of the generated dashboards (dashboards/*.json).
func dashboards(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "dashboards", "*.json"))
	if len(files) == 0 {
		t.Fatalf("no dashboards under %s", dir)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	return names
}

func TestDashboardsRoundTrip(t *testing.T) {
	root := harness.RepoRoot()
	k8s := filepath.Join(root, "deploy", "kubernetes")
	names := dashboards(t, root)
	for _, flavour := range []string{"grafana-sidecar", "grafana-operator"} {
		got, _ := filepath.Glob(filepath.Join(k8s, flavour, "hotpath-*.yaml"))
		if len(got) != len(names) {
			t.Errorf("%s: %d manifests for %d dashboards", flavour, len(got), len(names))
		}
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(root, "dashboards", name))
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(name, ".json")
		cm := read(t, filepath.Join(k8s, "grafana-sidecar", base+".yaml"))
		if str(t, cm, "kind") != "ConfigMap" || str(t, cm, "metadata", "labels", "grafana_dashboard") != "1" {
			t.Errorf("%s: want a ConfigMap labelled grafana_dashboard=1 for the sidecar, got %v %v", base, cm["kind"], get(t, cm, "metadata", "labels"))
		}
		data := get(t, cm, "data").(obj)
		if len(data) != 1 || data[name] == nil {
			t.Fatalf("%s: the ConfigMap's data has keys %v, want %s alone", base, reflect.ValueOf(data).MapKeys(), name)
		}
		sameDashboard(t, "the ConfigMap's data["+name+"]", str(t, data, name), want)
		gd := read(t, filepath.Join(k8s, "grafana-operator", base+".yaml"))
		if str(t, gd, "kind") != "GrafanaDashboard" {
			t.Errorf("%s: kind %v", base, gd["kind"])
		}
		sameDashboard(t, base+"'s GrafanaDashboard spec.json", str(t, gd, "spec", "json"), want)
		if got := get(t, gd, "spec", "instanceSelector", "matchLabels"); !reflect.DeepEqual(got, obj{"dashboards": "grafana"}) {
			t.Errorf("%s: instanceSelector %v", base, got)
		}
	}
}

// sameDashboard checks that a dashboard carried in a manifest is the file's
// JSON: equal once parsed, and the same text (the file ends in one more
// newline: jsonnet -m ends every file it writes with one).
func sameDashboard(t *testing.T, what, got string, file []byte) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatalf("%s: not JSON: %v", what, err)
	}
	if err := json.Unmarshal(file, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: not the JSON of the dashboard file", what)
	}
	if got+"\n" != string(file) {
		t.Errorf("%s: not the dashboard file's text", what)
	}
}

func TestPrometheusRuleRoundTrip(t *testing.T) {
	root := harness.RepoRoot()
	pr := read(t, filepath.Join(root, "deploy", "kubernetes", "prometheus-operator", "prometheusrule.yaml"))
	var want []any
	for _, f := range harness.RuleFiles(root) {
		want = append(want, get(t, read(t, f), "groups").([]any)...)
	}
	if !reflect.DeepEqual(get(t, pr, "spec", "groups"), want) {
		t.Error("the PrometheusRule's groups are not rules/hotpath-rules.yaml's and hotpath-alerts.yaml's groups")
	}
	if got := str(t, pr, "metadata", "labels", "release"); got != "kube-prometheus-stack" {
		t.Errorf("ruleSelector label release=%q, want kube-prometheus-stack", got)
	}
	// and the same groups as the plain rules/hotpath-prometheusrule.yaml
	plain := read(t, filepath.Join(root, "rules", "hotpath-prometheusrule.yaml"))
	if !reflect.DeepEqual(get(t, plain, "spec"), get(t, pr, "spec")) {
		t.Error("deploy/kubernetes' PrometheusRule and rules/hotpath-prometheusrule.yaml differ in spec")
	}
}

// receiverMaxAlerts is the most alerts hotpath-notify queues, read from its
// source: one webhook of maxAlerts must fit in an empty queue.
func receiverMaxAlerts(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "notify", "lib", "notifier.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`queueMax:\s*(\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("notify/lib/notifier.mjs: no queueMax default; keep maxAlerts of the AlertmanagerConfig within the receiver's queue")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// routed reports whether Alertmanager would send an alert of this name down
// the route: every matcher on alertname must hold (regexes are anchored, as in
// Alertmanager).
func routed(t *testing.T, matchers []any, name string) bool {
	t.Helper()
	for _, m := range matchers {
		if str(t, m, "name") != "alertname" {
			t.Fatalf("a matcher on %q: the route must select by alert name only", str(t, m, "name"))
		}
		v := str(t, m, "value")
		var ok bool
		switch op := str(t, m, "matchType"); op {
		case "=":
			ok = name == v
		case "=~":
			ok = regexp.MustCompile("^(?:" + v + ")$").MatchString(name)
		default:
			t.Fatalf("matchType %q", op)
		}
		if !ok {
			return false
		}
	}
	return len(matchers) > 0
}

func checkAlertmanagerConfig(t *testing.T, dir, namespace, secret string, port, maxAlerts int) {
	t.Helper()
	names := alertNames(t, filepath.Join(dir, "rules", "hotpath-alerts.yaml"))
	amc := read(t, filepath.Join(dir, "deploy", "kubernetes", "prometheus-operator", "alertmanagerconfig.yaml"))
	route := get(t, amc, "spec", "route")
	receiver := str(t, route, "receiver")
	matchers := get(t, route, "matchers").([]any)
	for _, n := range names {
		if !routed(t, matchers, n) {
			t.Errorf("alert %s is not routed to %s", n, receiver)
		}
	}
	// exactly the pack's: not another alert, not a name that only starts like one
	for _, n := range []string{"KubePodCrashLooping", "Watchdog", "CPUThrottlingHigh", names[0] + "X", "X" + names[0], ""} {
		if routed(t, matchers, n) {
			t.Errorf("alert %q is routed to %s, which is not one of the pack's %v", n, receiver, names)
		}
	}
	if got := get(t, route, "routes"); got != nil {
		t.Errorf("child routes %v: the route must end at the receiver", got)
	}
	receivers := get(t, amc, "spec", "receivers").([]any)
	if len(receivers) != 1 || str(t, receivers[0], "name") != receiver {
		t.Fatalf("receivers %v, want one named %s", receivers, receiver)
	}
	hooks := get(t, receivers[0], "webhookConfigs").([]any)
	if len(hooks) != 1 {
		t.Fatalf("%d webhook configs, want 1", len(hooks))
	}
	h := hooks[0]
	if want := "http://hotpath-notify." + namespace + ".svc:" + strconv.Itoa(port) + "/webhook"; str(t, h, "url") != want {
		t.Errorf("webhook url %s, want the Service's %s", str(t, h, "url"), want)
	}
	if get(t, h, "sendResolved") != true {
		t.Error("sendResolved must be true: the receiver updates a message when its alert resolves")
	}
	if got := get(t, h, "maxAlerts"); got != maxAlerts {
		t.Errorf("maxAlerts %v, want %d", got, maxAlerts)
	}
	if got := receiverMaxAlerts(t); maxAlerts > got {
		t.Errorf("maxAlerts %d is more than hotpath-notify's queue holds (%d)", maxAlerts, got)
	}
	if got := get(t, h, "httpConfig", "authorization"); !reflect.DeepEqual(got, obj{"type": "Bearer", "credentials": obj{"name": secret, "key": "token"}}) {
		t.Errorf("authorization %v, want the bearer token from Secret %s key token", got, secret)
	}
	// the receiver reads the token from the same Secret key
	dep := read(t, filepath.Join(dir, "deploy", "kubernetes", "notify", "deployment.yaml"))
	var tokenFromSecret bool
	for _, v := range get(t, dep, "spec", "template", "spec", "volumes").([]any) {
		if s, ok := v.(obj)["secret"].(obj); ok && s["secretName"] == secret && reflect.DeepEqual(s["items"], []any{obj{"key": "token", "path": "token"}}) {
			tokenFromSecret = true
		}
	}
	if !tokenFromSecret {
		t.Errorf("the Deployment does not mount key token of Secret %s", secret)
	}
}

func TestAlertmanagerConfigRoutesThePacksAlerts(t *testing.T) {
	checkAlertmanagerConfig(t, harness.RepoRoot(), "hotpath", "hotpath-notify", 9095, 200)
}

func TestNotifyManifests(t *testing.T) {
	dir := filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "notify")
	dep := read(t, filepath.Join(dir, "deployment.yaml"))
	c := get(t, dep, "spec", "template", "spec", "containers", 0)
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		if got := str(t, c, probe, "httpGet", "path"); got != "/-/healthy" {
			t.Errorf("%s path %s", probe, got)
		}
	}
	if get(t, c, "resources", "requests", "cpu") == nil || get(t, c, "resources", "requests", "memory") == nil {
		t.Error("no cpu and memory requests")
	}
	args := strings.Join(toStrings(get(t, c, "args").([]any)), " ")
	for _, want := range []string{"--out-dir=/var/lib/hotpath-notify", "--token-file=/etc/hotpath-notify/token", "--pending=15m", "--listen=0.0.0.0:9095"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %s", args, want)
		}
	}
	if strings.Contains(args, "hooks.slack.com") || strings.Contains(args, "--slack-webhook") {
		t.Errorf("the Slack webhook URL must come from the Secret, not the arguments: %s", args)
	}
	env := get(t, c, "env", 0)
	if str(t, env, "name") != "HOTPATH_SLACK_WEBHOOK_URL" || str(t, env, "valueFrom", "secretKeyRef", "key") != "slack-webhook-url" {
		t.Errorf("env[0] %v: want HOTPATH_SLACK_WEBHOOK_URL from the Secret", env)
	}
	mounts := map[string]string{}
	for _, m := range get(t, c, "volumeMounts").([]any) {
		mounts[str(t, m, "name")] = str(t, m, "mountPath")
	}
	if mounts["state"] != "/var/lib/hotpath-notify" {
		t.Errorf("the out-dir is not on the state volume: %v", mounts)
	}

	np := read(t, filepath.Join(dir, "networkpolicy.yaml"))
	ingress := get(t, np, "spec", "ingress").([]any)
	if len(ingress) != 2 {
		t.Fatalf("%d ingress rules, want Alertmanager's and the ingress controller's", len(ingress))
	}
	am := get(t, ingress[0], "from", 0)
	if got := get(t, am, "podSelector", "matchLabels"); !reflect.DeepEqual(got, obj{"app.kubernetes.io/name": "alertmanager"}) {
		t.Errorf("the first rule admits %v, want Alertmanager's pods", got)
	}
	if got := str(t, am, "namespaceSelector", "matchLabels", "kubernetes.io/metadata.name"); got != "monitoring" {
		t.Errorf("Alertmanager's namespace %s", got)
	}

	ing := read(t, filepath.Join(dir, "ingress.yaml"))
	paths := get(t, ing, "spec", "rules", 0, "http", "paths").([]any)
	if len(paths) != 1 || str(t, paths[0], "path") != "/images/" || str(t, paths[0], "pathType") != "Prefix" {
		t.Errorf("the Ingress routes %v, want /images/ (Prefix) only", paths)
	}
}

func toStrings(l []any) []string {
	out := make([]string, len(l))
	for i, x := range l {
		out[i], _ = x.(string)
	}
	return out
}

// TestKnobsReachEveryManifest renders the bundle with every kubernetes knob
// changed and checks that no shipped default is left.
func TestKnobsReachEveryManifest(t *testing.T) {
	dir := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "deploy", "testdata", "overlay.jsonnet"))
	k8s := filepath.Join(dir, "deploy", "kubernetes")
	var files []string
	filepath.WalkDir(k8s, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if _, err := os.Stat(filepath.Join(k8s, "notify", "ingress.yaml")); err == nil {
		t.Error("an Ingress without a publicURL")
	}
	for _, f := range files {
		o := read(t, f)
		rel, _ := filepath.Rel(k8s, f)
		ns := str(t, o, "metadata", "namespace")
		if want := map[bool]string{true: "grafana", false: "obs"}[strings.HasPrefix(rel, "grafana-")]; ns != want {
			t.Errorf("%s: namespace %s, want %s", rel, ns, want)
		}
		if str(t, o, "metadata", "labels", "team") != "platform" {
			t.Errorf("%s: no commonLabels", rel)
		}
		b, _ := os.ReadFile(f)
		for _, old := range []string{"kube-prometheus-stack", "ghcr.io/hotpath", "pyroscope.pyroscope.svc", "prometheus-operated.monitoring.svc", "9095", "hotpath-notify-tls", `"hotpath-notify"` + "\n                  optional", "ReadWriteOncePod", `storage: "2Gi"`} {
			if strings.Contains(string(b), old) {
				t.Errorf("%s: still has the default %q", rel, old)
			}
		}
	}
	cm := read(t, filepath.Join(k8s, "grafana-sidecar", "hotpath-service.yaml"))
	if get(t, cm, "metadata", "labels", "grafana_dashboard") != "hotpath" || get(t, cm, "metadata", "annotations", "k8s-sidecar-target-directory") != "SRE" {
		t.Errorf("sidecar label and folder annotation: %v %v", get(t, cm, "metadata", "labels"), get(t, cm, "metadata", "annotations"))
	}
	gd := read(t, filepath.Join(k8s, "grafana-operator", "hotpath-service.yaml"))
	if get(t, gd, "spec", "folder") != "SRE" || !reflect.DeepEqual(get(t, gd, "spec", "instanceSelector"), obj{"matchLabels": obj{"team": "platform"}}) {
		t.Errorf("GrafanaDashboard folder and instanceSelector: %v", get(t, gd, "spec"))
	}
	pr := read(t, filepath.Join(k8s, "prometheus-operator", "prometheusrule.yaml"))
	if get(t, pr, "metadata", "labels", "prometheus") != "main" {
		t.Errorf("PrometheusRule labels %v", get(t, pr, "metadata", "labels"))
	}
	amc := read(t, filepath.Join(k8s, "prometheus-operator", "alertmanagerconfig.yaml"))
	if get(t, amc, "metadata", "labels", "alertmanager") != "main" {
		t.Errorf("AlertmanagerConfig labels %v", get(t, amc, "metadata", "labels"))
	}
	checkAlertmanagerConfig(t, dir, "obs", "notify-secrets", 8080, 50)

	dep := read(t, filepath.Join(k8s, "notify", "deployment.yaml"))
	c := get(t, dep, "spec", "template", "spec", "containers", 0)
	args := strings.Join(toStrings(get(t, c, "args").([]any)), " ")
	for _, want := range []string{"--pending=90m", "--concurrency=4", "--listen=0.0.0.0:8080", "--profiles=http://pyroscope-querier.profiles.svc:4040", "--prometheus=http://thanos-query.observability.svc:10902"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %s", args, want)
		}
	}
	if strings.Contains(args, "--public-url") {
		t.Errorf("args %q: a --public-url without publicURL", args)
	}
	_, version := pluginIdentity(t)
	helm := read(t, filepath.Join(dir, "deploy", "grafana", "helm-values.yaml"))
	checkGrafanaOverlay := func(what string, g obj, ds []any) {
		if got := toStrings(get(t, g, "plugins").([]any)); len(got) != 1 || got[0] != "https://artifacts.example.com/hotpath-overlay-panel-"+version+".zip;hotpath-overlay-panel" {
			t.Errorf("%s: plugins %v", what, got)
		}
		if len(ds) != 1 || str(t, ds[0], "url") != "http://pyroscope-querier.profiles.svc:4040" || str(t, ds[0], "uid") != "profiles" || str(t, ds[0], "name") != "Profiles" {
			t.Errorf("%s: datasources %v", what, ds)
		}
		if get(t, g, "sidecar", "dashboards", "labelValue") != "hotpath" || get(t, g, "sidecar", "dashboards", "folderAnnotation") != "k8s-sidecar-target-directory" {
			t.Errorf("%s: sidecar %v", what, get(t, g, "sidecar"))
		}
	}
	checkGrafanaOverlay("helm-values.yaml", helm, get(t, helm, "datasources", "datasources.yaml", "datasources").([]any))
	kps := get(t, read(t, filepath.Join(dir, "deploy", "grafana", "kube-prometheus-stack-values.yaml")), "grafana").(obj)
	checkGrafanaOverlay("kube-prometheus-stack-values.yaml", kps, get(t, kps, "additionalDataSources").([]any))
	op := read(t, filepath.Join(dir, "deploy", "grafana", "grafana-operator-grafana.yaml"))
	if get(t, op, "metadata", "namespace") != "grafana" || !reflect.DeepEqual(get(t, op, "metadata", "labels"), obj{"team": "platform"}) {
		t.Errorf("Grafana resource metadata %v", get(t, op, "metadata"))
	}

	pvc := read(t, filepath.Join(k8s, "notify", "persistentvolumeclaim.yaml"))
	if get(t, pvc, "spec", "storageClassName") != "fast-ssd" || get(t, pvc, "spec", "resources", "requests", "storage") != "20Gi" || !reflect.DeepEqual(get(t, pvc, "spec", "accessModes"), []any{"ReadWriteOnce"}) {
		t.Errorf("the claim's spec %v, want 20Gi of fast-ssd, ReadWriteOnce", get(t, pvc, "spec"))
	}
	amPatch := read(t, filepath.Join(dir, "deploy", "alertmanager", "prometheus-operator-alertmanager.yaml"))
	if !reflect.DeepEqual(get(t, amPatch, "metadata"), obj{"name": "alertmanager", "namespace": "alerting"}) || !reflect.DeepEqual(get(t, amPatch, "spec", "alertmanagerConfigSelector"), obj{"matchLabels": obj{"alertmanager": "main"}}) {
		t.Errorf("the Alertmanager patch: %v %v, want alertmanager in alerting, selecting alertmanager=main", get(t, amPatch, "metadata"), get(t, amPatch, "spec"))
	}
	plainAM := read(t, filepath.Join(dir, "deploy", "alertmanager", "alertmanager.yml"))
	hook := get(t, plainAM, "receivers", 0, "webhook_configs", 0)
	if str(t, hook, "url") != "http://hotpath-notify.obs.svc:8080/webhook" || get(t, hook, "max_alerts") != 50 || str(t, hook, "http_config", "authorization", "credentials_file") != "/etc/alertmanager/secrets/notify-secrets/token" {
		t.Errorf("alertmanager.yml's webhook %v", hook)
	}

	np := read(t, filepath.Join(k8s, "notify", "networkpolicy.yaml"))
	if n := len(get(t, np, "spec", "ingress").([]any)); n != 1 {
		t.Errorf("%d ingress rules without an Ingress, want Alertmanager's alone", n)
	}
	am := get(t, np, "spec", "ingress", 0, "from", 0)
	if get(t, am, "namespaceSelector", "matchLabels", "kubernetes.io/metadata.name") != "alerting" || !reflect.DeepEqual(get(t, am, "podSelector", "matchLabels"), obj{"alertmanager": "main"}) {
		t.Errorf("NetworkPolicy admits %v", am)
	}
}

// pluginIdentity is the panel plugin's id and version as its build packages it.
func pluginIdentity(t *testing.T) (id, version string) {
	t.Helper()
	var manifest struct{ ID string }
	var pkg struct{ Version string }
	for file, dst := range map[string]any{"src/plugin.json": &manifest, "package.json": &pkg} {
		b, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "plugin", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, dst); err != nil {
			t.Fatalf("plugin/%s: %v", file, err)
		}
	}
	return manifest.ID, pkg.Version
}

// checkGrafana checks one Grafana configuration: the plugin's zip installed
// and allowed unsigned, the Pyroscope datasource, the sidecar as the
// ConfigMaps need it.
func checkGrafana(t *testing.T, what string, g obj, datasources []any, zipPrefix, pyroscopeURL string) {
	t.Helper()
	id, version := pluginIdentity(t)
	plugins := toStrings(get(t, g, "plugins").([]any))
	want := zipPrefix + id + "-" + version + ".zip;" + id
	if len(plugins) != 1 || plugins[0] != want {
		t.Errorf("%s: plugins %v, want [%s] (the chart's <zip url>;<plugin id>)", what, plugins, want)
	}
	if got := get(t, g, "grafana.ini", "plugins", "allow_loading_unsigned_plugins"); got != id {
		t.Errorf("%s: allow_loading_unsigned_plugins %v, want %s", what, got, id)
	}
	if len(datasources) != 1 || str(t, datasources[0], "type") != "grafana-pyroscope-datasource" || str(t, datasources[0], "url") != pyroscopeURL {
		t.Errorf("%s: datasources %v, want Pyroscope at %s", what, datasources, pyroscopeURL)
	}
	cm := read(t, filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "grafana-sidecar", "hotpath-service.yaml"))
	label := str(t, g, "sidecar", "dashboards", "label")
	if get(t, cm, "metadata", "labels", label) != get(t, g, "sidecar", "dashboards", "labelValue") {
		t.Errorf("%s: the sidecar looks for %s=%v, the ConfigMaps carry %v", what, label, get(t, g, "sidecar", "dashboards", "labelValue"), get(t, cm, "metadata", "labels"))
	}
	if _, ok := get(t, cm, "metadata", "annotations").(obj)[str(t, g, "sidecar", "dashboards", "folderAnnotation")]; !ok {
		t.Errorf("%s: the sidecar's folderAnnotation is not on the ConfigMaps", what)
	}
}

func TestGrafanaSnippets(t *testing.T) {
	dir := filepath.Join(harness.RepoRoot(), "deploy", "grafana")
	zip := "https://github.com/hotpath/hotpath/releases/download/v"
	_, version := pluginIdentity(t)
	zip += version + "/"
	pyroscope := "http://pyroscope.pyroscope.svc:4040"

	helm := read(t, filepath.Join(dir, "helm-values.yaml"))
	checkGrafana(t, "helm-values.yaml", helm, get(t, helm, "datasources", "datasources.yaml", "datasources").([]any), zip, pyroscope)

	kps := read(t, filepath.Join(dir, "kube-prometheus-stack-values.yaml"))
	g := get(t, kps, "grafana").(obj)
	checkGrafana(t, "kube-prometheus-stack-values.yaml", g, get(t, g, "additionalDataSources").([]any), zip, pyroscope)
	if got := get(t, kps, "alertmanager", "alertmanagerSpec", "alertmanagerConfigMatcherStrategy", "type"); got != "None" {
		t.Errorf("alertmanagerConfigMatcherStrategy %v: the operator would route only alerts of hotpath's own namespace", got)
	}

	op := read(t, filepath.Join(dir, "grafana-operator-grafana.yaml"))
	id, _ := pluginIdentity(t)
	if got := get(t, op, "spec", "config", "plugins", "allow_loading_unsigned_plugins"); got != id {
		t.Errorf("Grafana resource: allow_loading_unsigned_plugins %v", got)
	}
	init := get(t, op, "spec", "deployment", "spec", "template", "spec", "initContainers", 0)
	if got := str(t, init, "env", 0, "value"); got != zip+id+"-"+version+".zip" {
		t.Errorf("Grafana resource: the init container fetches %s", got)
	}
	if got := get(t, op, "metadata", "labels"); !reflect.DeepEqual(got, obj{"dashboards": "grafana"}) {
		t.Errorf("Grafana resource labels %v: the GrafanaDashboards' instanceSelector would not pick it", got)
	}
	ds := read(t, filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "grafana-operator", "pyroscope-datasource.yaml"))
	if str(t, ds, "spec", "datasource", "type") != "grafana-pyroscope-datasource" || str(t, ds, "spec", "datasource", "url") != pyroscope {
		t.Errorf("GrafanaDatasource %v", get(t, ds, "spec", "datasource"))
	}
}
