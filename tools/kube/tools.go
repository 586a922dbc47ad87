//go:build tools

// Package tools pins a real Kubernetes API server for the Kubernetes bundle's
// apply tests (tests/deploy/apply): kube-apiserver and kubectl of
// k8s.io/kubernetes, and the etcd the API server stores in (./etcd, etcd's
// own main).
//
// Why a module of its own: Kubernetes pins its own Prometheus client, gRPC and
// OpenTelemetry; sharing tools/go.mod would move the project's Prometheus
// with them. Why the replace directives (go.mod): k8s.io/kubernetes requires
// its staging modules (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0 and
// replaces them with its own ./staging folders, which the go command refuses
// outside that repository; a requiring module replaces each with the release
// of the same Kubernetes version (v0.35.4 for v1.35.4). etcd is the version
// Kubernetes v1.35.4 itself requires.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
