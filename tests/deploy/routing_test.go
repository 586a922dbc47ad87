package deploy

// Routing on every install path: for each way the README installs the alert
// routing, the Alertmanager configuration that path ends up with is built and
// the pinned amtool (`amtool config routes test`) resolves each of the pack's
// alerts, labelled as in a real cluster (namespace="shop", not hotpath's own),
// to its receivers.
//
// With prometheus-operator, Alertmanager's configuration is what the operator
// generates, so the tests build it the way prometheus-operator v0.93.0 (the
// version of the vendored CRDs, tests/deploy/schemas; git f8fafd475f3d) does in
// pkg/alertmanager/amcfg.go: operatorConfig below follows
// ConfigBuilder.AddAlertmanagerConfigs, convertRoute, getEnforcer and the
// namespaceEnforcer, step by step.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hotpath/hotpath/tests/harness"
)

// The receiver name the operator gives the AlertmanagerConfig's receiver:
// "<namespace>/<name>/<receiver>" (makeNamespacedString).
const operatorReceiver = "hotpath/hotpath-notify/hotpath-notify"

// A label value for each identity label of the catalogue, as a service in
// another team's namespace carries them.
var clusterLabels = map[string]string{
	"cluster":   "prod-eu-1",
	"namespace": "shop",
	"job":       "checkout",
	"instance":  "10.42.3.17:8080",
	"upstream":  "cart",
	"pod":       "checkout-7d9f8b6c4-x2x9q",
	"container": "checkout",
	"function":  "compress/flate.NewWriter",
	"endpoint":  "/search/{query}",
}

// alertLabels are the label sets the pack's alerts arrive with: each
// catalogue alert with its identity labels and severity, namespace set to ns.
func alertLabels(t *testing.T, ns string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, a := range harness.CatalogueAlerts(t) {
		ls := []string{`alertname="` + a.Name + `"`, `severity="` + a.Severity + `"`}
		for _, l := range a.Labels {
			v, ok := clusterLabels[l]
			if !ok {
				t.Fatalf("alert %s has identity label %s: give it a value in clusterLabels", a.Name, l)
			}
			if l == "namespace" {
				v = ns
			}
			ls = append(ls, l+`="`+v+`"`)
		}
		out[a.Name] = ls
	}
	// the catalogue's alerts are the rule pack's, every one of them
	for _, name := range alertNames(t, filepath.Join(harness.RepoRoot(), "rules", "hotpath-alerts.yaml")) {
		if out[name] == nil {
			t.Fatalf("alert %s of rules/hotpath-alerts.yaml is not in the catalogue", name)
		}
	}
	return out
}

// routes runs the pinned amtool on an Alertmanager configuration and returns
// the receivers an alert with these labels goes to, in routing-tree order.
func routes(t *testing.T, config obj, labels []string) []string {
	t.Helper()
	b, err := yaml.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "alertmanager.yaml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(harness.Tool(t, "amtool"), append([]string{"config", "routes", "test", "--config.file=" + file}, labels...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("amtool config routes test %v: %v\n%s\nconfig:\n%s", labels, err, out, b)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Split(lines[len(lines)-1], ",")
}

// baseConfig is the Alertmanager configuration a cluster starts with
// (kube-prometheus-stack's default): a root receiver and the Watchdog route.
func baseConfig(t *testing.T) obj {
	t.Helper()
	return read(t, filepath.Join(harness.RepoRoot(), "tests", "deploy", "testdata", "alertmanager-base.yaml"))
}

// operatorConfig is the alertmanager.yaml prometheus-operator v0.93.0 generates
// from base and one selected AlertmanagerConfig, for an Alertmanager in
// amNamespace whose spec.alertmanagerConfigMatcherStrategy.type is strategy:
//   - convertRoute: the receiver becomes makeNamespacedString(receiver);
//     matchers with a matchType become Matcher.String(): name, matchType and
//     the value in double quotes, escaped by openMetricsEscape; groupBy and the
//     intervals are copied;
//   - getEnforcer: "None" is the noopEnforcer; "OnNamespaceExceptForAlertmanagerNamespace"
//     leaves a route of the Alertmanager's own namespace alone and treats any
//     other as OnNamespace; anything else ("OnNamespace", the CRD's default, or
//     unset) is the namespaceEnforcer, which appends namespace="<the
//     AlertmanagerConfig's namespace>" to the route's matchers (Alertmanager
//     >= 0.22; the pinned one is 0.34);
//   - continueToNextRoute sets continue: true on that route;
//   - AddAlertmanagerConfigs puts it before the base configuration's routes and
//     adds its receivers after the base's.
//
// Only what the bundle's AlertmanagerConfig uses is followed (one route
// without children, matchers with a matchType, webhook receivers); anything
// else fails the test. The webhook's bearer token, which the operator reads
// from the Secret, is a stand-in: routing does not read it.
func operatorConfig(t *testing.T, base, amc obj, strategy, amNamespace string) obj {
	t.Helper()
	ns, name := str(t, amc, "metadata", "namespace"), str(t, amc, "metadata", "name")
	namespaced := func(s string) string { return ns + "/" + name + "/" + s }
	in := get(t, amc, "spec", "route").(obj)
	for k := range in {
		switch k {
		case "receiver", "matchers", "groupBy", "groupWait", "groupInterval", "repeatInterval":
		default:
			t.Fatalf("the AlertmanagerConfig's route has %s, which operatorConfig does not follow", k)
		}
	}
	escape := strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
	var matchers []any
	for _, m := range get(t, in, "matchers").([]any) {
		mt, _ := m.(obj)["matchType"].(string)
		if mt == "" {
			t.Fatalf("matcher %v without matchType: operatorConfig follows only matchers with one", m)
		}
		matchers = append(matchers, fmt.Sprintf(`%s%s"%s"`, str(t, m, "name"), mt, escape.Replace(str(t, m, "value"))))
	}
	route := obj{"receiver": namespaced(str(t, in, "receiver")), "continue": true}
	for from, to := range map[string]string{"groupBy": "group_by", "groupWait": "group_wait", "groupInterval": "group_interval", "repeatInterval": "repeat_interval"} {
		if v, ok := in[from]; ok {
			route[to] = v
		}
	}
	switch {
	case strategy == "None":
	case strategy == "OnNamespaceExceptForAlertmanagerNamespace" && ns == amNamespace:
	default:
		matchers = append(matchers, fmt.Sprintf(`namespace="%s"`, ns))
	}
	route["matchers"] = matchers

	var receivers []any
	for _, r := range get(t, amc, "spec", "receivers").([]any) {
		var hooks []any
		for k := range r.(obj) {
			if k != "name" && k != "webhookConfigs" {
				t.Fatalf("receiver with %s: operatorConfig follows webhook receivers only", k)
			}
		}
		for _, h := range get(t, r, "webhookConfigs").([]any) {
			hooks = append(hooks, obj{
				"url":           str(t, h, "url"),
				"send_resolved": get(t, h, "sendResolved"),
				"max_alerts":    get(t, h, "maxAlerts"),
				"http_config":   obj{"authorization": obj{"type": str(t, h, "httpConfig", "authorization", "type"), "credentials": "token-from-the-secret"}},
			})
		}
		receivers = append(receivers, obj{"name": namespaced(str(t, r, "name")), "webhook_configs": hooks})
	}
	return merged(t, base, []any{route}, receivers)
}

// merged is base with routes before its root route's own and receivers after its own.
func merged(t *testing.T, base obj, routes, receivers []any) obj {
	t.Helper()
	b, _ := yaml.Marshal(base)
	var out obj
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	root := out["route"].(obj)
	old, _ := root["routes"].([]any)
	root["routes"] = append(append([]any{}, routes...), old...)
	oldReceivers, _ := out["receivers"].([]any)
	out["receivers"] = append(oldReceivers, receivers...)
	return out
}

// mergePatch applies a JSON merge patch (RFC 7386, kubectl patch --type merge)
// to doc: objects merge key by key, null removes, anything else replaces.
func mergePatch(doc, patch any) any {
	p, ok := patch.(obj)
	if !ok {
		return patch
	}
	d, ok := doc.(obj)
	if !ok {
		d = obj{}
	}
	out := obj{}
	for k, v := range d {
		out[k] = v
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = mergePatch(out[k], v)
		}
	}
	return out
}

// selects reports whether a Kubernetes label selector picks these labels; a
// nil selector picks nothing, an empty one everything (matchLabels only: the
// shipped selectors use nothing else).
func selects(t *testing.T, selector any, labels obj) bool {
	t.Helper()
	if selector == nil {
		return false
	}
	s := selector.(obj)
	for k := range s {
		if k != "matchLabels" {
			t.Fatalf("selector with %s: selects follows matchLabels only", k)
		}
	}
	ml, _ := s["matchLabels"].(obj)
	for k, v := range ml {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// operatorSelects reports whether an Alertmanager with this spec, in
// amNamespace, picks the AlertmanagerConfig, as prometheus-operator's
// selectAlertmanagerConfigs does: its alertmanagerConfigSelector must match the
// AlertmanagerConfig's labels (unset: none is picked), and its
// alertmanagerConfigNamespaceSelector the namespace's (unset: the
// Alertmanager's own namespace only).
func operatorSelects(t *testing.T, spec, amc obj, amNamespace string) bool {
	t.Helper()
	ns := str(t, amc, "metadata", "namespace")
	labels, _ := get(t, amc, "metadata", "labels").(obj)
	if !selects(t, spec["alertmanagerConfigSelector"], labels) {
		return false
	}
	nsSel := spec["alertmanagerConfigNamespaceSelector"]
	if nsSel == nil {
		return ns == amNamespace
	}
	return selects(t, nsSel, obj{"kubernetes.io/metadata.name": ns})
}

// strategyOf is an Alertmanager spec's matcher strategy ("" when unset: the
// operator then uses OnNamespace).
func strategyOf(spec obj) string {
	s, _ := spec["alertmanagerConfigMatcherStrategy"].(obj)
	v, _ := s["type"].(string)
	return v
}

// installPath is one way the README routes the pack's alerts: the
// Alertmanager configuration it ends with, and the receiver name the route
// ends at.
type installPath struct {
	name     string
	config   func(t *testing.T) obj
	receiver string
}

func amcFile(t *testing.T) obj {
	return read(t, filepath.Join(harness.RepoRoot(), "deploy", "kubernetes", "prometheus-operator", "alertmanagerconfig.yaml"))
}

// withOperator is the configuration of an Alertmanager whose spec is spec,
// in namespace amNamespace: the AlertmanagerConfig added when the spec
// selects it, base unchanged when not.
func withOperator(t *testing.T, spec obj, amNamespace string) obj {
	t.Helper()
	amc := amcFile(t)
	if !operatorSelects(t, spec, amc, amNamespace) {
		return baseConfig(t)
	}
	return operatorConfig(t, baseConfig(t), amc, strategyOf(spec), amNamespace)
}

func installPaths() []installPath {
	root := harness.RepoRoot()
	return []installPath{
		{
			// kube-prometheus-stack's Alertmanager picks every AlertmanagerConfig
			// (its chart sets both selectors empty); the values set the strategy.
			name: "kube-prometheus-stack values",
			config: func(t *testing.T) obj {
				values := read(t, filepath.Join(root, "deploy", "grafana", "kube-prometheus-stack-values.yaml"))
				spec := mergePatch(obj{"alertmanagerConfigSelector": obj{}, "alertmanagerConfigNamespaceSelector": obj{}}, get(t, values, "alertmanager", "alertmanagerSpec")).(obj)
				return withOperator(t, spec, "monitoring")
			},
			receiver: operatorReceiver,
		},
		{
			// A plain prometheus-operator Alertmanager (kube-prometheus' main,
			// no selectors), patched as the README says; grafana-operator's path
			// routes through the same Alertmanager.
			name: "prometheus-operator Alertmanager patched (grafana-operator's path too)",
			config: func(t *testing.T) obj {
				patch := read(t, filepath.Join(root, "deploy", "alertmanager", "prometheus-operator-alertmanager.yaml"))
				am := mergePatch(obj{"apiVersion": "monitoring.coreos.com/v1", "kind": "Alertmanager", "metadata": obj{"name": "main", "namespace": "monitoring"}, "spec": obj{"replicas": 3}}, patch).(obj)
				return withOperator(t, get(t, am, "spec").(obj), str(t, am, "metadata", "namespace"))
			},
			receiver: operatorReceiver,
		},
		{
			// No operator: deploy/alertmanager/alertmanager.yml merged into the
			// configuration, its route first.
			name: "alertmanager.yml without the operator",
			config: func(t *testing.T) obj {
				snippet := read(t, filepath.Join(root, "deploy", "alertmanager", "alertmanager.yml"))
				return merged(t, baseConfig(t), get(t, snippet, "route", "routes").([]any), get(t, snippet, "receivers").([]any))
			},
			receiver: "hotpath-notify",
		},
	}
}

func TestEveryInstallPathRoutesThePacksAlerts(t *testing.T) {
	for _, p := range installPaths() {
		t.Run(p.name, func(t *testing.T) {
			config := p.config(t)
			for name, labels := range alertLabels(t, "shop") {
				if got := routes(t, config, labels); !reflect.DeepEqual(got, []string{p.receiver}) {
					t.Errorf("%s {%s} goes to %v, want %s", name, strings.Join(labels, ", "), got, p.receiver)
				}
			}
			// and nothing else goes there: another alert of the same namespace
			// stays with the cluster's receivers
			if got := routes(t, config, []string{"alertname=KubePodCrashLooping", "namespace=shop", "severity=warning"}); reflect.DeepEqual(got, []string{p.receiver}) {
				t.Errorf("KubePodCrashLooping goes to %v", got)
			}
		})
	}
}

// TestOperatorDefaultsDropThePacksAlerts: what the fix is for. Without the
// strategy set, the operator narrows the route to alerts of the
// AlertmanagerConfig's own namespace and none of the pack's alerts arrive; the
// same alert from hotpath's namespace would.
func TestOperatorDefaultsDropThePacksAlerts(t *testing.T) {
	amc := amcFile(t)
	selectAll := obj{"alertmanagerConfigSelector": obj{}, "alertmanagerConfigNamespaceSelector": obj{}}
	for _, strategy := range []string{"", "OnNamespace", "OnNamespaceExceptForAlertmanagerNamespace"} {
		t.Run("strategy="+strategy, func(t *testing.T) {
			spec := mergePatch(selectAll, obj{"alertmanagerConfigMatcherStrategy": obj{"type": strategy}}).(obj)
			config := withOperator(t, spec, "monitoring")
			routed, alerts := 0, alertLabels(t, "shop")
			for _, labels := range alerts {
				if got := routes(t, config, labels); reflect.DeepEqual(got, []string{operatorReceiver}) {
					routed++
				}
			}
			if routed != 0 {
				t.Errorf("%d of %d alerts from namespace shop reach %s with strategy %q: the operator's namespace matcher is missing", routed, len(alerts), operatorReceiver, strategy)
			}
			for name, labels := range alertLabels(t, str(t, amc, "metadata", "namespace")) {
				if got := routes(t, config, labels); !reflect.DeepEqual(got, []string{operatorReceiver}) {
					t.Errorf("%s from the AlertmanagerConfig's own namespace goes to %v, want %s", name, got, operatorReceiver)
				}
			}
		})
	}
	// OnNamespaceExceptForAlertmanagerNamespace does route them when the
	// AlertmanagerConfig lives in the Alertmanager's namespace.
	spec := mergePatch(selectAll, obj{"alertmanagerConfigMatcherStrategy": obj{"type": "OnNamespaceExceptForAlertmanagerNamespace"}}).(obj)
	config := withOperator(t, spec, str(t, amc, "metadata", "namespace"))
	for name, labels := range alertLabels(t, "shop") {
		if got := routes(t, config, labels); !reflect.DeepEqual(got, []string{operatorReceiver}) {
			t.Errorf("OnNamespaceExceptForAlertmanagerNamespace, same namespace: %s goes to %v", name, got)
		}
	}
	// An Alertmanager without selectors picks no AlertmanagerConfig at all.
	config = withOperator(t, obj{"alertmanagerConfigMatcherStrategy": obj{"type": "None"}}, "monitoring")
	for name, labels := range alertLabels(t, "shop") {
		if got := routes(t, config, labels); reflect.DeepEqual(got, []string{operatorReceiver}) {
			t.Errorf("an Alertmanager without alertmanagerConfigSelector routed %s to %v", name, got)
		}
	}
}
