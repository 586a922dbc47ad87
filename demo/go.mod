module github.com/hotpath/hotpath/demo

go 1.24.9

require (
	github.com/google/pprof v0.0.0-20251213031049-b05bdaca462f
	golang.org/x/sys v0.39.0
	google.golang.org/protobuf v1.36.11
)
