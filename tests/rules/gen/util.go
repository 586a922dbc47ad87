package main

import (
	"fmt"
	"sort"
)

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// formatG4 is Go's %.4g, what Prometheus's humanize prints for values in [1, 1000).
func formatG4(v float64) string { return fmt.Sprintf("%.4g", v) }
