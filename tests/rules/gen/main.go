// Command gen writes the promtool rule-test suites in tests/rules/ from the
// scenarios in this package: a day of diurnal traffic is hundreds of counter
// segments, too many to write and check by hand, while each scenario here
// reads as what it models ("the marginal cost doubles at 10:00").
//
//	cd tests && go run ./rules/gen            # rewrite tests/rules/*.yaml
//	cd tests && go run ./rules/gen -out DIR   # write elsewhere (the drift check)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "rules", "directory to write the suites into (relative to tests/)")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	for _, s := range suites() {
		if err := os.WriteFile(filepath.Join(*out, s.file), []byte(s.render()), 0o644); err != nil {
			fail(err)
		}
	}
}

// suites lists every suite; each lives in its own suite_*.go file.
func suites() []*suite {
	return []*suite{
		requestsCPUSuite(),
		throttlingSuite(),
		cadvisorSuite(),
		cpuAutoSuite(),
		costModelSuite(),
		noiseSuite(),
		notTrackingLoadSuite(),
		outlierSuite(),
		upstreamSuite(),
		onsetSuite(),
		steadySuite(),
		kubePrometheusStackSuite(),
		requestSourcesSuite(),
		holdSuite(),
		versionsSuite(),
		versionsKubeSuite(),
		moneySuite(),
		moneyOffSuite(),
		functionsSuite(),
		endpointsSuite(),
		fitOrderSuite(),
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
