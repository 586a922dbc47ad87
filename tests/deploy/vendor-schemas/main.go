// Command vendor-schemas writes the JSON schemas that test-deploy validates
// deploy/ against (kubeconform, offline: CI has no network) into
// tests/deploy/schemas: kubernetes-<version>/ for each Kubernetes release,
// crds/ for the operators' kinds; one file per kind and version, named as
// kubeconform's `{{ .ResourceKind }}{{ .KindSuffix }}.json` template expects.
//
//	cd tests && go run ./deploy/vendor-schemas ../tests/deploy/schemas
//
// Every source is a Go module fetched by `go mod download` at a pinned version, so
// the go.sum checksum database vouches for what was converted:
//   - Kubernetes' OpenAPI v2 document (api/openapi-spec/swagger.json of
//     k8s.io/kubernetes), converted as yannh/kubernetes-json-schema does with
//     instrumenta's openapi2jsonschema in standalone strict mode: $refs inlined,
//     additionalProperties false on every object with properties, int-or-string
//     as oneOf string/integer, apiVersion and kind as enums;
//   - prometheus-operator's and grafana-operator's CRDs, converted as kubeconform's
//     scripts/openapi2jsonschema.py does (DENY_ROOT_ADDITIONAL_PROPERTIES set): each
//     version's openAPIV3Schema with additionalProperties false on every object
//     with properties, int-or-string as oneOf string/integer.
//
// Only the kinds deploy/ uses are written. Bump a version here, run it,
// and update tests/deploy/schemas/README.md and the README's install section.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Kubernetes releases (the oldest and the newest supported when vendored) and
// the OpenAPI definitions of the kinds deploy/ uses.
var kubernetes = struct {
	module   string
	versions []string
	defs     []string
}{
	"k8s.io/kubernetes",
	[]string{"v1.35.4", "v1.37.2"},
	[]string{
		"io.k8s.api.core.v1.ConfigMap",
		"io.k8s.api.core.v1.Service",
		"io.k8s.api.core.v1.PersistentVolumeClaim",
		"io.k8s.api.apps.v1.Deployment",
		"io.k8s.api.networking.v1.NetworkPolicy",
		"io.k8s.api.networking.v1.Ingress",
	},
}

// CRDs: a module, a file in it, and the versions of that CRD to write.
var crds = []struct {
	module, version, file string
	versions              []string
}{
	{"github.com/prometheus-operator/prometheus-operator", "v0.93.0", "example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml", []string{"v1"}},
	{"github.com/prometheus-operator/prometheus-operator", "v0.93.0", "example/prometheus-operator-crd/monitoring.coreos.com_alertmanagerconfigs.yaml", []string{"v1alpha1"}},
	{"github.com/prometheus-operator/prometheus-operator", "v0.93.0", "example/prometheus-operator-crd/monitoring.coreos.com_alertmanagers.yaml", []string{"v1"}},
	{"github.com/grafana/grafana-operator/v5", "v5.24.0", "config/crd/bases/grafana.integreatly.org_grafanadashboards.yaml", []string{"v1beta1"}},
	{"github.com/grafana/grafana-operator/v5", "v5.24.0", "config/crd/bases/grafana.integreatly.org_grafanadatasources.yaml", []string{"v1beta1"}},
	{"github.com/grafana/grafana-operator/v5", "v5.24.0", "config/crd/bases/grafana.integreatly.org_grafanas.yaml", []string{"v1beta1"}},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./deploy/vendor-schemas OUTDIR")
		os.Exit(2)
	}
	out := os.Args[1]
	if err := run(out); err != nil {
		fmt.Fprintln(os.Stderr, "vendor-schemas:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, v := range kubernetes.versions {
		if err := kubernetesSchemas(v, filepath.Join(out, "kubernetes-"+v)); err != nil {
			return err
		}
	}
	out = filepath.Join(out, "crds")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, c := range crds {
		dir, err := download(c.module, c.version)
		if err != nil {
			return err
		}
		raw, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			return err
		}
		var crd struct {
			Spec struct {
				Group string `yaml:"group"`
				Names struct {
					Kind string `yaml:"kind"`
				} `yaml:"names"`
				Versions []struct {
					Name   string `yaml:"name"`
					Schema struct {
						OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
					} `yaml:"schema"`
				} `yaml:"versions"`
			} `yaml:"spec"`
		}
		if err := yaml.Unmarshal(raw, &crd); err != nil {
			return fmt.Errorf("%s: %w", c.file, err)
		}
		for _, want := range c.versions {
			found := false
			for _, v := range crd.Spec.Versions {
				if v.Name != want {
					continue
				}
				found = true
				s := v.Schema.OpenAPIV3Schema
				strict(s, false)
				if err := write(out, crd.Spec.Names.Kind, crd.Spec.Group+"/"+v.Name, intOrString(s)); err != nil {
					return err
				}
			}
			if !found {
				return fmt.Errorf("%s@%s %s: no version %s", c.module, c.version, c.file, want)
			}
		}
	}
	return nil
}

// kubernetesSchemas converts the kinds of one Kubernetes release into out.
func kubernetesSchemas(version, out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	dir, err := download(kubernetes.module, version)
	if err != nil {
		return err
	}
	var swagger struct {
		Definitions map[string]any `json:"definitions"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "api/openapi-spec/swagger.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &swagger); err != nil {
		return err
	}
	for _, name := range kubernetes.defs {
		def, ok := swagger.Definitions[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s@%s: no definition %s", kubernetes.module, version, name)
		}
		schema, err := inline(def, swagger.Definitions, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		s := schema.(map[string]any)
		group, version, kind, err := gvk(def)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		apiVersion := version
		if group != "" {
			apiVersion = group + "/" + version
		}
		props := s["properties"].(map[string]any)
		props["apiVersion"].(map[string]any)["enum"] = []any{apiVersion}
		props["kind"].(map[string]any)["enum"] = []any{kind}
		s["$schema"] = "http://json-schema.org/schema#"
		strict(s, false)
		if err := write(out, kind, apiVersion, intOrString(s)); err != nil {
			return err
		}
	}
	return nil
}

// download fetches a module at a version through the Go module proxy and returns its directory.
func download(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", module, version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(b, &m); err != nil {
		return "", err
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, m.Error)
	}
	return m.Dir, nil
}

func gvk(def map[string]any) (group, version, kind string, err error) {
	list, _ := def["x-kubernetes-group-version-kind"].([]any)
	if len(list) != 1 {
		return "", "", "", fmt.Errorf("want one x-kubernetes-group-version-kind, got %d", len(list))
	}
	m := list[0].(map[string]any)
	return m["group"].(string), m["version"].(string), m["kind"].(string), nil
}

// inline replaces every {"$ref": "#/definitions/X"} by a copy of X (a standalone schema).
func inline(v any, defs map[string]any, depth int) (any, error) {
	if depth > 64 {
		return nil, fmt.Errorf("$ref nesting deeper than 64: a recursive definition")
	}
	if m, ok := v.(map[string]any); ok {
		if ref, ok := m["$ref"].(string); ok {
			def, ok := defs[strings.TrimPrefix(ref, "#/definitions/")]
			if !ok {
				return nil, fmt.Errorf("unresolved $ref %s", ref)
			}
			return inline(def, defs, depth+1)
		}
	}
	return rebuild(v, func(x any) (any, error) { return inline(x, defs, depth) })
}

// rebuild copies a map or a list with f applied to each of its values; any other value is
// returned as it is.
func rebuild(v any, f func(any) (any, error)) (any, error) {
	var err error
	apply := func(x any) any {
		y, e := f(x)
		if e != nil && err == nil {
			err = e
		}
		return y
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = apply(x)
		}
		return out, err
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = apply(x)
		}
		return out, err
	}
	return v, nil
}

// strict sets additionalProperties false on every object that lists its properties
// and has no additionalProperties of its own (kubectl's validation, as
// openapi2jsonschema's additional_properties), the root included unless skipRoot.
func strict(v any, skipRoot bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["properties"]; ok && !skipRoot {
			if _, has := t["additionalProperties"]; !has {
				t["additionalProperties"] = false
			}
		}
		for _, x := range t {
			strict(x, false)
		}
	case []any:
		for _, x := range t {
			strict(x, false)
		}
	}
}

// intOrString replaces every {"format": "int-or-string"} by oneOf string or integer.
func intOrString(v any) any {
	if m, ok := v.(map[string]any); ok && m["format"] == "int-or-string" {
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
	}
	out, _ := rebuild(v, func(x any) (any, error) { return intOrString(x), nil })
	return out
}

// write names the file as kubeconform looks it up: lower-case kind, then "-" and the first
// label of the group (none for the core group), then "-" and the version.
func write(out, kind, apiVersion string, schema any) error {
	parts := strings.Split(apiVersion, "/")
	suffix := "-" + strings.ToLower(parts[0])
	if len(parts) > 1 {
		suffix = "-" + strings.ToLower(strings.Split(parts[0], ".")[0]) + "-" + strings.ToLower(parts[1])
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(schema); err != nil {
		return err
	}
	name := filepath.Join(out, strings.ToLower(kind)+suffix+".json")
	fmt.Printf("%s (%s %s, %d bytes)\n", name, kind, apiVersion, buf.Len())
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
