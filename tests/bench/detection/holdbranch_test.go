//go:build bench

package detection

import "testing"

// The hold branch takes the alert's own ALERTS terms out wherever they sit:
// inside label_replace (the function alert labels each profile type's
// branch) and under `or`, leaving the rest of the condition as it was.
func TestHoldBranch(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{
			`a >= 1 or (b >= 2 and on (job) ALERTS{alertname="X", alertstate="firing"})`,
			`a >= 1 or (b >= 2)`,
		},
		{
			`label_replace((a >= 1 and on (job) r > 0 or (b >= 2 and on (job) ALERTS{alertname="X"})), "t", "cpu", "job", ".*") or label_replace((c or (d and on (job) ALERTS{alertname="X"})), "t", "alloc", "job", ".*")`,
			`label_replace((a >= 1 and on (job) r > 0 or (b >= 2)), "t", "cpu", "job", ".*") or label_replace((c or (d)), "t", "alloc", "job", ".*")`,
		},
		{`a >= 1`, ``},
	} {
		got, err := holdBranch("X", c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("holdBranch(%s):\n got %s\nwant %s", c.expr, got, c.want)
		}
	}
	if _, err := holdBranch("X", `a >= 1 unless on (job) ALERTS{alertname="X"}`); err == nil {
		t.Error("an ALERTS term the judge cannot take out: no error")
	}
}
