package playground

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// demo-test's check of the alert path (alerting.go): hotpath-notify's
// messages, as it wrote them to NotifyDir()/messages.jsonl and as the Slack
// sink received them.

// textMarshalling are the println story's frames: fmt printing a protobuf
// message through its text marshalling (the browser check's own pattern).
var textMarshalling = regexp.MustCompile(`internal/encoding/text|prototext|protobuf|fmt\.`)

// notifyRecord is the part of a messages.jsonl line the check reads.
type notifyRecord struct {
	Status    string            `json:"status"`
	Labels    map[string]string `json:"labels"`
	Reason    string            `json:"reason"`
	LatencyMs float64           `json:"latencyMs"`
	Changes   []struct {
		Function     string  `json:"function"`
		DeltaPercent float64 `json:"deltaPercent"`
	} `json:"changes"`
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

// notifyCheck waits (at most `wait`) for the println incident's message and
// checks it names the text-marshalling frames among its top changes; no
// message may concern a healthy service; every message reached the sink.
func (o *Orchestrator) notifyCheck(ctx context.Context, wait time.Duration) NotifyReport {
	if o.AlertmanagerAt == "" {
		return NotifyReport{Verdict: "FAILED: the alert path did not run: " + o.AlertingOff}
	}
	pl := o.World.StoryService("println")
	if pl == nil {
		return NotifyReport{Verdict: "not run: no println service"}
	}
	var recs []notifyRecord
	var err error
	deadline := time.Now().Add(wait)
	found := func() bool {
		for _, r := range recs {
			if r.Status == "firing" && r.Labels["job"] == pl.Job {
				return true
			}
		}
		return false
	}
	for {
		recs, err = readJSONLines[notifyRecord](o.NotifyDir() + "/messages.jsonl")
		if err != nil {
			return NotifyReport{Verdict: "FAILED: " + err.Error()}
		}
		if found() || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(2 * time.Second)
	}
	rep := NotifyReport{}
	var fails []string
	printlnOK := false
	for _, r := range recs {
		a := promkit.Alert{Labels: r.Labels}
		var top []string
		for i, c := range r.Changes {
			if i < 5 {
				top = append(top, fmt.Sprintf("%s %+.1f%%", c.Function, c.DeltaPercent))
			}
		}
		what := strings.Join(top, ", ")
		if r.Reason != "" {
			what = "no diff: " + r.Reason
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s %s after %.1fs: %s", alertID(a), r.Status, r.LatencyMs/1000, what))
		if why := o.healthyReason(a); why != "" {
			fails = append(fails, fmt.Sprintf("a message for a %s: %s", why, alertID(a)))
		}
		if r.Status != "firing" {
			continue
		}
		for _, e := range o.Expectations() {
			if e.matches(a) {
				rep.Latencies = append(rep.Latencies, time.Duration(r.LatencyMs*float64(time.Millisecond)))
			}
		}
		if r.Labels["job"] == pl.Job {
			for i, c := range r.Changes {
				if i < 5 && c.DeltaPercent > 0 && textMarshalling.MatchString(c.Function) {
					printlnOK = true
				}
			}
		}
	}
	if !found() {
		fails = append(fails, fmt.Sprintf("no message for the println incident (job %s) within %s of the browser check's end", pl.Job, wait))
	} else if !printlnOK {
		fails = append(fails, "the println incident's message does not name the text-marshalling frames among its top 5 changes")
	}
	sink, err := readJSONLines[json.RawMessage](o.SlackFile())
	if err != nil {
		fails = append(fails, err.Error())
	} else if len(sink) < len(recs) {
		fails = append(fails, fmt.Sprintf("the Slack sink received %d of the %d messages", len(sink), len(recs)))
	}
	if len(fails) > 0 {
		rep.Verdict = "FAILED: " + strings.Join(fails, "; ")
	} else {
		rep.Verdict = fmt.Sprintf("passed: %d messages, the println incident's names the text marshalling; none for a healthy service", len(recs))
	}
	return rep
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
