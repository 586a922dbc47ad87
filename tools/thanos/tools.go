//go:build tools

// Package tools pins Thanos (sidecar, query, rule, tools rules-check) for the
// Thanos parity tests and the playground's -thanos flag.
//
// Why a module of its own: Thanos pins its own Prometheus (and Go >= 1.26.10);
// sharing tools/go.mod would move the project's Prometheus with it. Why not
// `go install ...@v0.42.5`: Thanos's go.mod has replace directives, which the
// go command refuses for `go install pkg@version`; a requiring module that
// repeats them (below, in go.mod) builds it. Build with Thanos's release tags
// (its .promu.yml): `-tags netgo,slicelabels`. Without slicelabels, `thanos
// query` panics at its first store connection (Thanos casts its protobuf labels
// to labels.Labels, valid only in the slicelabels layout). See the Makefile's
// tools target, which calls tools/build-module.sh with those tags.
package tools

import (
	_ "github.com/thanos-io/thanos/cmd/thanos"
)
