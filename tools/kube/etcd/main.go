// Command etcd is etcd's server (go.etcd.io/etcd/server/v3, whose own main is
// these lines), built under this name: `go build` names a binary after its
// package's folder, and etcd's is server/.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
