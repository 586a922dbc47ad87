//go:build tools

// Package tools pins the Go command-line tools hotpath builds into .tools/bin.
// `go install pkg@version` refuses github.com/prometheus/prometheus (its go.mod
// has replace directives), so, as kubernetes-mixin does, we require the tools
// from this module and `go build` them from here with the pinned versions.
package tools

import (
	_ "github.com/google/go-jsonnet/cmd/jsonnet"
	_ "github.com/google/go-jsonnet/cmd/jsonnet-lint"
	_ "github.com/google/go-jsonnet/cmd/jsonnetfmt"
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
