package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/demo/cgroup"
)

// run re-executes this binary for its exec-in step; in the test, that binary
// is the test binary, which this variable turns into the helper.
const helperEnv = "HOTPATH_CGROUP_HELPER_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(realMain(os.Args[1:]))
	}
	os.Setenv(helperEnv, "1")
	os.Exit(m.Run())
}

// The command runs inside the group from its first instruction, its exit
// status is passed on, and the group is gone afterwards.
func TestRunStartsTheCommandInsideTheGroup(t *testing.T) {
	parent := fmt.Sprintf("hotpath-test-helper-%d", os.Getpid())
	m := cgroup.Default(parent)
	if err := m.Check(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	defer func() { _, _ = m.CleanStale() }()
	out := filepath.Join(t.TempDir(), "cgroup")
	code := realMain([]string{"run", "-parent", parent, "-name", "pod-r/app", "-cpus", "0.5", "--",
		"sh", "-c", "grep -E '^[0-9]+:cpu:' /proc/self/cgroup > " + out + "; cat /sys/fs/cgroup/cpu/" + parent + "/pod-r/app/cpu.cfs_quota_us >> " + out + "; exit 5"})
	if code != 5 {
		t.Errorf("exit status %d, want the command's 5", code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, ":cpu:/"+parent+"/pod-r/app\n") || !strings.Contains(got, "50000") {
		t.Errorf("the command saw:\n%s\nwant its cpu cgroup /%s/pod-r/app with a 50000us quota", got, parent)
	}
	if _, err := os.Stat(filepath.Join(m.CPU, parent)); !os.IsNotExist(err) {
		t.Errorf("the group is still there after the command exited: %v", err)
	}
}

// Without a cpu controller every subcommand that needs one says why, exit 3.
func TestUnavailableCgroupsExitThree(t *testing.T) {
	root := filepath.Join(t.TempDir(), "none")
	for _, args := range [][]string{
		{"check", "-cpu-root", root},
		{"run", "-cpu-root", root, "-name", "a/b", "--", "true"},
		{"create", "-cpu-root", root, "-name", "a/b"},
	} {
		if code := realMain(args); code != 3 && os.Geteuid() == 0 {
			t.Errorf("%v: exit %d, want 3", args, code)
		}
	}
	if code := realMain([]string{"frobnicate"}); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}
