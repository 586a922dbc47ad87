package playground

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// Status is the job of what the running playground says of itself: what a test reads of it and
// asks Prometheus (running.go), the live phase's schedule and header (live.go) and its status
// table (here).
type Status struct{ *Processes }

// Row is one line of the status table: a service, or one instance of a
// service with several.
type Row struct {
	Job, Instance             string
	ReqPerSec, CPU, CPUPerReq float64
	AllocPerReq, Throttled    float64
	HasThrottled              bool
	Incident                  string
	Alerts                    []string
}

// StatusRows reads the table from Prometheus's API (the rule pack's recorded
// series and the alerts) and each service's admin state.
func (st *Status) StatusRows(ctx context.Context) ([]Row, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	byJob := func(q, label string) (map[string]float64, error) {
		ss, err := st.Prom.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		m := map[string]float64{}
		for _, s := range ss {
			m[s.Metric[label]] = s.Value
		}
		return m, nil
	}
	q := map[string]map[string]float64{}
	for name, expr := range map[string]string{
		"req": "job:requests:rate5m", "cpu": "job:cpu_seconds:rate5m", "cpr": "job:cpu_seconds_per_request:ratio_rate5m",
		"apr":  "job:alloc_bytes_per_request:ratio_rate5m",
		"ireq": "instance:requests:rate5m", "icpu": "instance:cpu_seconds:rate5m", "icpr": "instance:cpu_seconds_per_request:ratio_rate5m",
		"thr": "container:cpu_cfs_throttled_periods:ratio_rate5m",
	} {
		label := "job"
		switch name[0] {
		case 'i':
			label = "instance"
		case 't':
			label = "pod"
		}
		m, err := byJob(expr, label)
		if err != nil {
			return nil, err
		}
		q[name] = m
	}
	alerts, err := st.Prom.Alerts(ctx)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, s := range st.World.Services {
		r := Row{Job: s.Job, ReqPerSec: q["req"][s.Job], CPU: q["cpu"][s.Job], CPUPerReq: q["cpr"][s.Job], AllocPerReq: q["apr"][s.Job]}
		if s.Cgroup != nil && s.Cgroup.CPUs > 0 {
			r.Throttled, r.HasThrottled = q["thr"][s.Cgroup.Pod]
		}
		r.Incident = st.incidentState(ctx, s)
		r.Alerts = alertsFor(alerts, map[string]string{"job": s.Job}, s, true)
		rows = append(rows, r)
		if len(s.Instances) > 1 {
			for _, in := range s.Instances {
				a := in.Addr()
				ir := Row{Instance: a, ReqPerSec: q["ireq"][a], CPU: q["icpu"][a], CPUPerReq: q["icpr"][a]}
				ir.Alerts = alertsFor(alerts, map[string]string{"job": s.Job, "instance": a}, s, false)
				rows = append(rows, ir)
			}
		}
	}
	return rows, nil
}

func (st *Status) incidentState(ctx context.Context, s *Service) string {
	if s.Story == "" {
		return "-"
	}
	if s.Story == "outlier" {
		in := s.Instances[st.World.OutlierInstance]
		state, err := State(ctx, in)
		if err != nil {
			return "?"
		}
		if state.ExtraCPU != "" && state.ExtraCPU != "0s" {
			return fmt.Sprintf("outlier ON (%s +%s/req)", in.Addr(), state.ExtraCPU)
		}
		return "outlier off"
	}
	state, err := State(ctx, s.Instances[0])
	if err != nil {
		return "?"
	}
	if state.IncidentOn {
		return s.Story + " ON"
	}
	return s.Story + " off"
}

// alertsFor lists the alerts whose labels match; for a service row, the
// instance-level alerts are left to the instance rows, and a container alert
// is shown on the service running in that pod.
func alertsFor(alerts []promkit.Alert, match map[string]string, s *Service, serviceRow bool) []string {
	var out []string
	for _, a := range alerts {
		ok := true
		for k, v := range match {
			if a.Labels[k] != v {
				ok = false
			}
		}
		if serviceRow && a.Labels["instance"] != "" && len(s.Instances) > 1 {
			ok = false
		}
		if !ok && serviceRow && s.Cgroup != nil && a.Labels["job"] == "" && a.Labels["pod"] == s.Cgroup.Pod {
			ok = true
		}
		if !ok {
			continue
		}
		name := a.Labels["alertname"]
		if a.Labels["upstream"] != "" {
			name += "(upstream " + a.Labels["upstream"] + ")"
		}
		if a.State != "firing" {
			name += " [pending]"
		} else {
			name += " FIRING"
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// RenderTable formats the rows.
func RenderTable(rows []Row) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVICE\tINSTANCE\tREQ/S\tCPU (cores)\tCPU/REQ\tALLOC/REQ\tTHROTTLED\tINCIDENT\tALERTS")
	for _, r := range rows {
		svc := r.Job
		inst := ""
		if r.Instance != "" {
			svc, inst = "", r.Instance
		}
		thr := ""
		if r.HasThrottled {
			thr = fmt.Sprintf("%.0f%%", 100*r.Throttled)
		}
		alloc := ""
		if r.Instance == "" {
			alloc = bytesHuman(r.AllocPerReq)
		}
		alerts := strings.Join(r.Alerts, ", ")
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.3f\t%s\t%s\t%s\t%s\t%s\n", svc, inst, r.ReqPerSec, r.CPU, msHuman(r.CPUPerReq), alloc, thr, r.Incident, alerts)
	}
	tw.Flush()
	return b.String()
}

func msHuman(sec float64) string {
	if sec == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f ms", sec*1e3)
}

func bytesHuman(b float64) string {
	switch {
	case b == 0:
		return "-"
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0f KB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}
