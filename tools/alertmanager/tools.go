//go:build tools

// Package tools pins Alertmanager, which the playground (make demo) and the
// hotpath-notify integration test run, and its amtool, which the deploy tests
// route the pack's alerts with, in a module of its own: its
// dependencies would otherwise move Prometheus's (tools/go.mod) and the
// other way round. tools/build-module.sh builds it into .tools/bin.
package tools

import (
	_ "github.com/prometheus/alertmanager/cmd/alertmanager"
	_ "github.com/prometheus/alertmanager/cmd/amtool"

	// Keeps a recent google.golang.org/genproto in go.mod (go mod tidy would drop it): build.sh
	// builds Alertmanager in a workspace, whose module graph otherwise reaches the 2022
	// monolithic genproto that still holds googleapis/rpc and googleapis/api, and the build
	// fails with "ambiguous import". Not linked into the binary (this file is tag "tools").
	_ "google.golang.org/genproto/googleapis/type/date"
)
