package playground

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// LiveOptions configure `make demo`'s live phase.
type LiveOptions struct {
	Schedule []Step
	// Refresh is how often the status table is redrawn; Redraw clears the
	// terminal first (a TTY), else each table is printed below the last.
	Refresh time.Duration
	Redraw  bool
	// RuleNote says which rules are loaded, for the header.
	RuleNote string
}

// RunLive switches the incidents on schedule and shows the status table
// until the duration is over, ctx is cancelled, or a process dies.
func (st *Status) RunLive(ctx context.Context, lo LiveOptions) error {
	ctx, cancel := context.WithDeadline(ctx, st.LiveAt.Add(st.Opt.Duration))
	defer cancel()
	watch := make(chan error, 1)
	go func() { watch <- st.Watch(ctx) }()
	var events []string
	event := func(format string, args ...any) {
		events = append(events, time.Now().Format("15:04:05")+"  "+fmt.Sprintf(format, args...))
		if len(events) > 6 {
			events = events[len(events)-6:]
		}
	}
	next := 0
	tick := time.NewTicker(lo.Refresh)
	defer tick.Stop()
	for {
		for next < len(lo.Schedule) && time.Since(st.LiveAt) >= lo.Schedule[next].At {
			s := lo.Schedule[next]
			next++
			if s.Deploy {
				if r, was, err := st.World.Deploy(ctx, s.Story); err != nil {
					event("rolling out before %s: %v", s.Story, err)
				} else {
					event("schedule: rolled out %s (was %s) before the %s incident", Image(r.Job, r.To), was, s.Story)
				}
				continue
			}
			if s.Story == "cfs" && st.Cgroups == nil {
				event("skipping the cfs incident: %s", st.NoCFSWhy)
				continue
			}
			if err := st.World.Switch(ctx, s.Story, s.On); err != nil {
				event("switching %s: %v", s.Story, err)
			} else {
				event("schedule: %s incident %s", s.Story, onOff(s.On))
			}
		}
		rows, err := st.StatusRows(ctx)
		var b strings.Builder
		if lo.Redraw {
			b.WriteString("\033[H\033[2J")
		}
		st.header(&b, lo, next)
		if err != nil {
			fmt.Fprintf(&b, "\n(status unavailable: %v)\n", err)
		} else {
			b.WriteString("\n" + RenderTable(rows))
		}
		if len(events) > 0 {
			b.WriteString("\n" + strings.Join(events, "\n") + "\n")
		}
		fmt.Fprint(st.Opt.Out, b.String())
		select {
		case <-ctx.Done():
			if time.Now().After(st.LiveAt.Add(st.Opt.Duration)) {
				st.Logf("the playground ran its -duration %s: stopping", st.Opt.Duration)
			}
			return nil
		case err := <-watch:
			if err != nil {
				return err
			}
			return nil
		case <-tick.C:
		}
	}
}

func onOff(on bool) string {
	if on {
		return "ON"
	}
	return "off"
}

func (st *Status) header(b *strings.Builder, lo LiveOptions, next int) {
	up := time.Since(st.LiveAt).Round(time.Second)
	left := time.Until(st.LiveAt.Add(st.Opt.Duration)).Round(time.Minute)
	fmt.Fprintf(b, "hotpath playground: live for %s, stops by itself in %s; Ctrl-C stops every process and removes the cgroups\n", up, left)
	if st.PromDirect != nil {
		fmt.Fprintf(b, "  Thanos      Query %s (what the sandbox reads), Ruler %s (rules and alerts), over Prometheus %s\n", st.Prom.URL, st.RulerAt, st.PromDirect.URL)
	} else {
		fmt.Fprintf(b, "  Prometheus  %s  (alerts: %s/alerts)\n", st.Prom.URL, st.Prom.URL)
	}
	fmt.Fprintf(b, "  profiles    http://127.0.0.1:%d/services  (profile store, a stand-in for Pyroscope)\n", st.World.Ports.Profiles)
	switch exited := st.SandboxExited(); {
	case exited != "":
		fmt.Fprintf(b, "  sandbox     %s %s (log: %s)\n", st.SandboxAt, exited, st.sandboxProc.Log)
	case st.SandboxAt != "":
		fmt.Fprintf(b, "  sandbox     %s  (the built panel on this world: pick a service, drag a window on the strip, Diff; profiles since the start only)\n", st.SandboxAt)
	default:
		fmt.Fprintf(b, "  sandbox     off: %s\n", st.SandboxOff)
	}
	if lo.RuleNote != "" {
		fmt.Fprintf(b, "  rules       %s\n", lo.RuleNote)
	}
	if st.Cgroups == nil {
		fmt.Fprintf(b, "  cgroups     unavailable (%s): no CFS incident\n", st.NoCFSWhy)
	}
	if next < len(lo.Schedule) {
		s := lo.Schedule[next]
		fmt.Fprintf(b, "  schedule    next: %s incident %s in %s", s.Story, onOff(s.On), time.Until(st.LiveAt.Add(s.At)).Round(time.Second))
	} else if len(lo.Schedule) > 0 {
		fmt.Fprintf(b, "  schedule    done: every incident was on and off again")
	} else {
		fmt.Fprintf(b, "  schedule    none (-schedule=false)")
	}
	fmt.Fprintf(b, "; by hand: make demo-incident NAME=%s ON=1\n", strings.Join(Stories, "|"))
}
