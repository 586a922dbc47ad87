//go:build bench

package detection

import (
	"fmt"
	"strings"
	"time"
)

// Alternative is the shipped pack's noise path judged another way on the
// same recorded conditions: without its hold branch (the alerts as they
// were before hysteresis) and with a longer keep_firing_for instead, the
// other way to ride out the noise's dips.
type Alternative struct {
	Name    string
	Verdict Verdict
}

// judgeAlternatives judges the shipped detector's conditions without the
// hold branch, at its own keep_firing_for and at longer ones.
func judgeAlternatives(fleet []Service, seen map[string]map[string]Seen) []Alternative {
	noHold := map[string]map[string]Seen{}
	for job, kinds := range seen {
		noHold[job] = map[string]Seen{}
		for kind, s := range kinds {
			noHold[job][kind] = Seen{Cond: s.Cond}
		}
	}
	var out []Alternative
	for _, keep := range []time.Duration{keepFor[DetectorNoise], 45 * time.Minute, time.Hour} {
		out = append(out, Alternative{
			Name:    fmt.Sprintf("no hold level, keep_firing_for %s", shortDuration(keep)),
			Verdict: judge(fleet, noHold, keep),
		})
	}
	return out
}

// alternativesTable writes the alternatives beside each other: per
// regression the holding summary, then false alarms.
func alternativesTable(alts []Alternative) string {
	if len(alts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("### (d)'s noise path judged without its hold level, on the same recorded conditions\n\n")
	b.WriteString("The alternative to the hold level: no hysteresis, a longer `keep_firing_for` (a fix then resolves that much later). Cells as above.\n\n| regression |")
	for _, a := range alts {
		fmt.Fprintf(&b, " %s |", a.Name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(alts)) + "\n")
	for _, kind := range []string{KindCPU, KindAlloc} {
		for _, size := range Sizes {
			fmt.Fprintf(&b, "| +%.0f%% %s |", (size-1)*100, kindName(kind))
			for _, a := range alts {
				fmt.Fprintf(&b, " %s |", holdSummary(a.Verdict.Cells[kind][size].Held))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("| false alarms |")
	for _, a := range alts {
		fmt.Fprintf(&b, " %d |", a.Verdict.FalseAlarms)
	}
	b.WriteString("\n\n")
	return b.String()
}

// shortDuration writes 30m, 1h, 1h30m (not 30m0s, 1h0m0s).
func shortDuration(d time.Duration) string {
	s := strings.TrimSuffix(d.String(), "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
