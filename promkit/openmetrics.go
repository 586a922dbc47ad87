package promkit

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// OpenMetricsGauges renders recorded history for Backfill.Raw: series
// maps a name to its sample lines ("name{labels} value unix-seconds"), which
// come out as one gauge family per name, names sorted, each series' samples
// together and in the order given (without "# EOF").
func OpenMetricsGauges(series map[string][]string) string {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(series)) {
		fmt.Fprintf(&b, "# TYPE %s gauge\n", n)
		lines := slices.Clone(series[n])
		// the series of a line: all but its value and timestamp
		key := func(line string) string { return line[:strings.LastIndex(line[:strings.LastIndex(line, " ")], " ")] }
		slices.SortStableFunc(lines, func(a, c string) int { return strings.Compare(key(a), key(c)) })
		for _, line := range lines {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
