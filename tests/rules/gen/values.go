package main

import (
	"fmt"
	"strconv"
	"strings"
)

// seq builds a promtool values string, one sample a minute from t=0, out of
// runs in promtool's expanding notation: "v+ixN" is N+1 samples from v in
// steps of i, "_xN" is N missing samples. Keep values dyadic (0.125, 7.5):
// then every rate, sum and ratio the rules compute is exact, and the tests
// can compare exact values.
type seq struct {
	runs []string
	next float64 // the value of the next sample of a counter
	n    int     // samples so far
}

// rate appends `minutes` samples of a counter growing perSecond per second.
func (s *seq) rate(minutes int, perSecond float64) *seq {
	if minutes <= 0 {
		return s
	}
	inc := perSecond * 60
	s.runs = append(s.runs, fmt.Sprintf("%s+%sx%d", num(s.next), num(inc), minutes-1))
	s.next += float64(minutes) * inc
	s.n += minutes
	return s
}

// reset restarts a counter: its next sample is `from` (what the new process
// counted before its first scrape, e.g. CPU spent starting up).
func (s *seq) reset(from float64) *seq {
	s.next = from
	return s
}

// gap appends `minutes` missing samples (a scrape failure, a restart); the
// counter's value does not move.
func (s *seq) gap(minutes int) *seq {
	if minutes > 0 {
		s.runs = append(s.runs, fmt.Sprintf("_x%d", minutes))
		s.n += minutes
	}
	return s
}

// hold appends `minutes` samples of a gauge at v.
func (s *seq) hold(minutes int, v float64) *seq {
	if minutes > 0 {
		s.runs = append(s.runs, fmt.Sprintf("%sx%d", num(v), minutes-1))
		s.n += minutes
	}
	return s
}

func (s *seq) String() string { return strings.Join(s.runs, " ") }

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// rates are what a service does during one minute, per second.
type rates struct{ req, cpu, alloc float64 }

// restart is a process restart: unscraped for `gap` minutes, then counters
// start again from 0, except what the new process spent before its first
// scrape (CPU seconds and bytes of start-up work).
type restart struct {
	gap             int
	startCPU, bytes float64
}

// timeline is a service's behaviour minute by minute over `total` minutes
// (absent before `from`); consecutive equal minutes become one run.
type timeline struct {
	from, total int
	at          func(minute int) rates
	restarts    map[int]restart
}

// counters renders a timeline as the three counters the service exports.
func (tl timeline) counters() (req, cpu, alloc *seq) {
	req, cpu, alloc = &seq{}, &seq{}, &seq{}
	all := []*seq{req, cpu, alloc}
	for _, s := range all {
		s.gap(tl.from)
	}
	for t := tl.from; t < tl.total; {
		if r, ok := tl.restarts[t]; ok {
			for _, s := range all {
				s.gap(r.gap)
			}
			req.reset(0)
			cpu.reset(r.startCPU)
			alloc.reset(r.bytes)
			t += r.gap
			continue
		}
		cur := tl.at(t)
		end := t + 1
		for end < tl.total && tl.at(end) == cur && tl.restarts[end] == (restart{}) {
			end++
		}
		req.rate(end-t, cur.req)
		cpu.rate(end-t, cur.cpu)
		alloc.rate(end-t, cur.alloc)
		t = end
	}
	return req, cpu, alloc
}

// switchAt is a service at constant rates: `before` until minute at, then `after`.
func switchAt(at int, before, after rates) func(int) rates {
	return func(t int) rates {
		if t >= at {
			return after
		}
		return before
	}
}

// add writes a service's three counters (one instance, "i1") into the group.
func (g *group) addService(s service, comment string, tl timeline) {
	req, cpu, alloc := tl.counters()
	g.add(comment, s.sel("http_requests_total", `instance="i1"`), req.String())
	g.add("", s.sel("process_cpu_seconds_total", `instance="i1"`), cpu.String())
	g.add("", s.sel("go_memstats_alloc_bytes_total", `instance="i1"`), alloc.String())
}

// minutes renders a duration in promtool's notation: 90 -> "1h30m".
func minutes(m int) string {
	switch {
	case m%60 == 0:
		return fmt.Sprintf("%dh", m/60)
	case m > 60:
		return fmt.Sprintf("%dh%dm", m/60, m%60)
	default:
		return fmt.Sprintf("%dm", m)
	}
}
