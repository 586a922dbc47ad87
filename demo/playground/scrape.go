package playground

import (
	"sort"

	"github.com/hotpath/hotpath/promkit"
)

// Sum adds the values of the samples named name (all label sets).
func Sum(samples []promkit.Metric, name string) float64 {
	t := 0.0
	for _, s := range samples {
		if s.Name == name {
			t += s.Value
		}
	}
	return t
}

// Named returns the samples named name, sorted by key.
func Named(samples []promkit.Metric, name string) []promkit.Metric {
	var out []promkit.Metric
	for _, s := range samples {
		if s.Name == name {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}
