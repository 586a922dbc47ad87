package demotest

import (
	"sort"
	"strings"
)

// throttlingAnswer is the part of a message's throttling answer (hotpath-notify's
// `throttling` field) the check reads: figures absent from it had no series.
type throttlingAnswer struct {
	Why        string   `json:"why"`
	Usage      *float64 `json:"usage"`
	Limit      *float64 `json:"limit"`
	Throttled  *float64 `json:"throttled"`
	Suggestion struct {
		Action     string  `json:"action"`
		Millicores float64 `json:"millicores"`
	} `json:"suggestion"`
}

// throttlingProblem says what the firing message of an incident caused by a
// CPU quota (cfs: no code path) lacks of its answer: the container's usage,
// its limit, its throttled time and a suggested limit ("" when it has them).
func throttlingProblem(t *throttlingAnswer) string {
	if t == nil {
		return "has no throttling answer"
	}
	if t.Why != "" {
		return "has no throttling figures: " + t.Why
	}
	var missing []string
	for name, v := range map[string]*float64{"usage": t.Usage, "limit": t.Limit, "throttled time": t.Throttled} {
		if v == nil {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if t.Suggestion.Action != "raise" && t.Suggestion.Action != "remove" {
		missing = append(missing, "a suggested limit")
	}
	if len(missing) > 0 {
		return "lacks its " + strings.Join(missing, ", ")
	}
	return ""
}
