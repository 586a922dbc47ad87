//go:build tools

// Package tools pins kubeconform, which validates the rendered Kubernetes
// manifests (deploy/kubernetes) against the schemas vendored in
// tests/deploy/schemas, in a module of its own so that its dependencies never
// move Prometheus's (tools/go.mod). tools/build-module.sh builds it into
// .tools/bin.
package tools

import (
	_ "github.com/yannh/kubeconform/cmd/kubeconform"
)
