package demotest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/catalogue"
	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// demo-test's check of the alert path (demo/playground/alerting.go): hotpath-notify's
// messages, as it wrote them to NotifyDir()/messages.jsonl and as the Slack
// sink received them.

// perRequestLine is a message's first change line with its size per request
// ("1. `fn` +349 µs/req (...)"); sibling comparisons are shares.
var perRequestLine = regexp.MustCompile(`(?m)^1\. .* [+−][\d.]+ (ns|µs|ms|s|B|KiB|MiB|GiB)/req `)

// notifyRecord is the part of a messages.jsonl line the check reads.
type notifyRecord struct {
	Status    string            `json:"status"`
	Labels    map[string]string `json:"labels"`
	Reason    string            `json:"reason"`
	LatencyMs float64           `json:"latencyMs"`
	Changes   []struct {
		Function        string   `json:"function"`
		Via             string   `json:"via"`
		DeltaPercent    float64  `json:"deltaPercent"`
		PerRequestDelta *float64 `json:"perRequestDelta"`
		Unit            string   `json:"unit"`
	} `json:"changes"`
	Payload struct {
		Text string `json:"text"`
	} `json:"payload"`
	Throttling *throttlingAnswer `json:"throttling"`
}

func readJSONLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// NotifyReport is the alert path's outcome in demo-test.
type NotifyReport struct {
	Verdict string   // "passed: ...", "FAILED: ..." or "not run: ..."
	Lines   []string // one per message
	// Latencies are webhook-to-delivered times of the incidents' messages.
	Latencies []time.Duration
}

// notifyCheck waits (at most `wait`) for a message of every incident whose
// alert carries a profile, and checks each names its story's culprit in its
// first change line, per request (shares for the outlier, compared with its
// siblings), and the rollout it followed where one precedes the story; no
// message may concern a healthy service; every message reached the sink.
func notifyCheck(ctx context.Context, run playground.Running, wait time.Duration) NotifyReport {
	if run.AlertmanagerAt == "" {
		return NotifyReport{Verdict: "FAILED: the alert path did not run: " + run.AlertingOff}
	}
	exps := Expectations(run.World, run.Cgroups)
	want := culpritExpectations(exps)
	if len(want) == 0 {
		return NotifyReport{Verdict: "not run: no incident with a profile"}
	}
	var recs []notifyRecord
	var err error
	deadline := time.Now().Add(wait)
	for {
		recs, err = readJSONLines[notifyRecord](filepath.Join(run.NotifyDir, "messages.jsonl"))
		if err != nil {
			return NotifyReport{Verdict: "FAILED: " + err.Error()}
		}
		if len(missingMessages(want, recs)) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(2 * time.Second)
	}
	rep := NotifyReport{}
	var fails []string
	for _, r := range recs {
		a := promkit.Alert{Labels: r.Labels}
		what := answerLines(r.Payload.Text)
		if r.Reason != "" {
			what = "no diff: " + r.Reason
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s %s after %.1fs: %s", alertID(a), r.Status, r.LatencyMs/1000, what))
		if why := healthyReason(run.World, a); why != "" {
			fails = append(fails, fmt.Sprintf("a message for a %s: %s", why, alertID(a)))
		}
		if r.Status != "firing" {
			continue
		}
		if why := functionLeadProblem(r); why != "" {
			fails = append(fails, fmt.Sprintf("the %s message %s", alertID(a), why))
		}
		for _, e := range exps {
			if e.matches(a) {
				rep.Latencies = append(rep.Latencies, time.Duration(r.LatencyMs*float64(time.Millisecond)))
				// a story without a profile is caused by a CPU quota (cfs); the
				// endpoint story has a profile but no culprit: its route is its answer
				if why := throttlingProblem(r.Throttling); playground.Incident(e.Story).Profile == "" && why != "" {
					fails = append(fails, fmt.Sprintf("the %s incident's %s message %s", e.Story, e.Alert, why))
				}
				if why := deployProblem(run.World, e.Story, r); why != "" {
					fails = append(fails, fmt.Sprintf("the %s incident's %s message %s", e.Story, e.Alert, why))
				}
			}
		}
		for _, c := range want {
			if r.Labels["job"] == c.Job && (r.Labels["alertname"] == c.Alert || slices.Contains(c.Also, r.Labels["alertname"])) {
				if why := culpritProblem(r, c); why != "" {
					fails = append(fails, fmt.Sprintf("the %s incident's %s message %s", c.Story, r.Labels["alertname"], why))
				}
			}
		}
	}
	for _, c := range missingMessages(want, recs) {
		fails = append(fails, fmt.Sprintf("no message for the %s incident (%s job=%s) within %s of the browser check's end", c.Story, c.Alert, c.Job, wait))
	}
	sink, err := readJSONLines[json.RawMessage](run.SlackFile)
	if err != nil {
		fails = append(fails, err.Error())
	} else if len(sink) < len(recs) {
		fails = append(fails, fmt.Sprintf("the Slack sink received %d of the %d messages", len(sink), len(recs)))
	}
	if len(fails) > 0 {
		rep.Verdict = "FAILED: " + strings.Join(fails, "; ")
	} else {
		var stories, deployed []string
		for _, c := range want {
			stories = append(stories, c.Story)
			if deployLine(run.World, c.Story) != nil {
				deployed = append(deployed, c.Story)
			}
		}
		stories, deployed = slices.Compact(stories), slices.Compact(deployed) // an incident's service alert and function alert
		rollouts := ""
		if len(deployed) > 0 {
			rollouts = fmt.Sprintf("; %s's names the rollout it followed", strings.Join(deployed, "'s and "))
		}
		rep.Verdict = fmt.Sprintf("passed: %d messages, each incident's (%s) names its culprit first, per request%s; none for a healthy service", len(recs), strings.Join(stories, ", "), rollouts)
	}
	return rep
}

// culpritExpectation is an incident whose messages must name Culprit first:
// its own alert's, and those of the other alerts its service fires for the
// same code (Also).
type culpritExpectation struct {
	Story, Alert, Job string
	Also              []string
	Culprit           *regexp.Regexp
	// Shares: compared with sibling instances, in shares, not per request.
	Shares bool
}

// culpritExpectations are the incidents of exps whose cause is a code
// path (throttling's is the CPU quota): the catalogue's answer, the code
// hotpath-notify charges runtime and syscall time to.
func culpritExpectations(exps []Expectation) []culpritExpectation {
	var out []culpritExpectation
	for _, e := range exps {
		inc := playground.Incident(e.Story)
		if re := inc.AnswerRegexp(); re != nil {
			out = append(out, culpritExpectation{Story: e.Story, Alert: e.Alert, Job: e.Labels["job"], Also: inc.AlsoAnswers, Culprit: re,
				Shares: catalogue.AlertNamed(e.Alert).Baseline == "siblings"})
		}
	}
	return out
}

// missingMessages are the expectations without a firing message of their
// alert and job.
func missingMessages(want []culpritExpectation, recs []notifyRecord) []culpritExpectation {
	var out []culpritExpectation
	for _, c := range want {
		found := false
		for _, r := range recs {
			found = found || (r.Status == "firing" && r.Labels["alertname"] == c.Alert && r.Labels["job"] == c.Job)
		}
		if !found {
			out = append(out, c)
		}
	}
	return out
}

// culpritProblem says what is wrong with a firing message of an incident's
// service ("" when it names the culprit first, per request).
func culpritProblem(r notifyRecord, c culpritExpectation) string {
	if r.Reason != "" {
		return "has no diff: " + r.Reason
	}
	if len(r.Changes) == 0 {
		return "names no change"
	}
	first := r.Changes[0]
	if !c.Culprit.MatchString(first.Function) {
		return fmt.Sprintf("names %s first, not the culprit (%s)", first.Function, c.Culprit)
	}
	if c.Shares {
		return ""
	}
	if first.PerRequestDelta == nil || *first.PerRequestDelta <= 0 || !perRequestLine.MatchString(r.Payload.Text) {
		return fmt.Sprintf("names %s first but not its size per request", first.Function)
	}
	return ""
}

// answerLines is what on-call reads first in a message: the line under the
// title (the headline, or the busy loop's fixed cost) and the first change
// line, joined by " | ".
func answerLines(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "`", ""), "\n")
	var out []string
	if len(lines) > 1 {
		out = append(out, unbold(lines[1]))
	}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "1. ") {
			out = append(out, l)
			break
		}
	}
	return strings.Join(out, " | ")
}

// unbold drops the Slack bold markers of a line that opens bold ("*Fixed
// cost:* ..." or "*CPU +288% = ...*"), keeping the stars of Go's (*T).M names.
func unbold(l string) string {
	if rest, ok := strings.CutPrefix(l, "*"); ok {
		if i := strings.Index(rest, "*"); i >= 0 && (i == len(rest)-1 || rest[i+1] == ' ') {
			return rest[:i] + rest[i+1:]
		}
	}
	return l
}

// LatencySummary is "median X, worst Y over N messages".
func (r NotifyReport) LatencySummary() string {
	if len(r.Latencies) == 0 {
		return "no incident messages"
	}
	l := append([]time.Duration(nil), r.Latencies...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	med := l[len(l)/2]
	if len(l)%2 == 0 {
		med = (l[len(l)/2-1] + l[len(l)/2]) / 2
	}
	return fmt.Sprintf("median %s, worst %s over %d incident messages", med.Round(100*time.Millisecond), l[len(l)-1].Round(100*time.Millisecond), len(l))
}
