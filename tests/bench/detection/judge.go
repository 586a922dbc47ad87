//go:build bench

package detection

import (
	"maps"
	"slices"
	"time"
)

// forDuration is the regression alerts' `for:`: a condition fires once it
// has held at every evaluation for this long (Prometheus: pending at the
// first evaluation that sees it, firing at the first evaluation forDuration
// or more later; one evaluation without it resets).
const forDuration = 15 * time.Minute

// firing runs Prometheus's alert states over a condition seen at the given
// minutes (since the fleet's start, one evaluation a minute, sorted), with
// the alert's keep_firing_for (once firing, it stays firing until its
// condition has not held for that long; held again before, it goes on
// firing, no new `for:`): the minutes it is firing, and the minutes its
// firing episodes began at. holding are the minutes its hold branch held
// (the condition with its ALERTS term left out): the alert reads its own
// ALERTS series, written at the previous evaluation, so at a minute after
// one it was firing at (keep_firing_for included) the condition also holds
// where holding does.
func firing(minutes, holding []int, keepFiringFor time.Duration) (on, starts []int) {
	hold := int(forDuration / time.Minute)
	keep := max(1, int(keepFiringFor/time.Minute))
	if len(minutes) == 0 {
		return nil, nil
	}
	held, holds := map[int]bool{}, map[int]bool{}
	last := minutes[len(minutes)-1]
	for _, m := range minutes {
		held[m] = true
	}
	for _, m := range holding {
		holds[m] = true
		last = max(last, m)
	}
	pendingSince, lastHeld, isFiring := -1, -1, false
	for m := minutes[0]; m <= last+keep; m++ {
		if held[m] || (isFiring && holds[m]) {
			lastHeld = m
			if !isFiring {
				if pendingSince < 0 {
					pendingSince = m
				}
				if m-pendingSince >= hold {
					isFiring = true
					starts = append(starts, m)
				}
			}
		} else {
			pendingSince = -1
			if isFiring && m-lastHeld >= keep {
				isFiring = false
			}
		}
		if isFiring {
			on = append(on, m)
		}
	}
	return on, starts
}

// Seen is one alert's condition on one service: the minutes it held, and
// the minutes its hold branch held (see firing).
type Seen struct{ Cond, Hold []int }

// episodes are the minutes a condition began firing.
func episodes(s Seen, keep time.Duration) []int {
	_, starts := firing(s.Cond, s.Hold, keep)
	return starts
}

// firingMinutes are the minutes a condition is firing.
func firingMinutes(s Seen, keep time.Duration) []int {
	on, _ := firing(s.Cond, s.Hold, keep)
	return on
}

// Cell is the outcome for one detector on one (kind, size) of regression.
type Cell struct {
	Injected, Detected, WithinHour int
	TTD                            []time.Duration // of the detected ones
	Held                           []Hold          // one per injected service
}

// Hold is how one regression was held over its first day: detected within
// the hour, the share of the day's minutes its alert was firing, and the
// firing episodes that began in the day (1: caught once, never resolved).
type Hold struct {
	Job        string
	Hour       int
	WithinHour bool
	Coverage   float64
	Episodes   int
}

// Held is a regression caught within the hour, firing >= 95% of its first
// day, in one episode.
func (h Hold) Held() bool { return h.WithinHour && h.Coverage >= 0.95 && h.Episodes == 1 }

// MedianTTD is the median time to detect, 0 with none detected.
func (c Cell) MedianTTD() time.Duration {
	if len(c.TTD) == 0 {
		return 0
	}
	s := slices.Clone(c.TTD)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Verdict is one detector's outcome over the fleet.
type Verdict struct {
	Cells map[string]map[float64]*Cell // kind -> size -> cell
	// False alarms: firings of either alert on a service before its
	// regression (any time on a clean one), within the judged time.
	FalseAlarms int
	FalseByJob  map[string]int
	FalseAt     map[string][]int // when they fired, minutes since the fleet's start
	CleanDays   float64          // service-days judged without a regression
}

// judge applies one detector's firings (job -> kind -> condition minutes)
// to the fleet, from judgedFrom to the end of the run.
func judge(fleet []Service, seen map[string]map[string]Seen, keep time.Duration) Verdict {
	return judgeBy(fleet, Sizes, seen, keep, func(s Service) string { return s.Kind })
}

// judgeBy is judge over any alert series of a job: seen maps job -> series
// key -> condition minutes, every series of a job counts for its false
// alarms, and a regression is detected by the series `key` names for its
// service (its kind for the service alerts; its kind and function for the
// function alert, which must name the function that regressed).
func judgeBy(fleet []Service, sizes []float64, seen map[string]map[string]Seen, keep time.Duration, key func(Service) string) Verdict {
	v := Verdict{Cells: map[string]map[float64]*Cell{}, FalseByJob: map[string]int{}, FalseAt: map[string][]int{}}
	for _, k := range []string{KindCPU, KindAlloc} {
		v.Cells[k] = map[float64]*Cell{}
		for _, s := range sizes {
			v.Cells[k][s] = &Cell{}
		}
	}
	from := int(judgedFrom / time.Minute)
	end := days * 24 * 60
	for _, s := range fleet {
		cleanUntil := end
		if s.Kind != "" {
			cleanUntil = int(s.Onset / time.Minute)
		}
		v.CleanDays += float64(cleanUntil-from) / (24 * 60)
		for _, series := range slices.Sorted(maps.Keys(seen[s.Job])) {
			for _, at := range episodes(seen[s.Job][series], keep) {
				if at >= from && at < cleanUntil {
					v.FalseAlarms++
					v.FalseByJob[s.Job]++
					v.FalseAt[s.Job] = append(v.FalseAt[s.Job], at)
				}
			}
		}
		if s.Kind == "" {
			continue
		}
		c := v.Cells[s.Kind][s.Size]
		c.Injected++
		onset := int(s.Onset / time.Minute)
		// the first firing minute at or after the onset: an episode that
		// starts then, or one already firing that continues past it
		regressed := seen[s.Job][key(s)]
		firing := firingMinutes(regressed, keep)
		h := Hold{Job: s.Job, Hour: s.OnsetHour}
		if i, _ := slices.BinarySearch(firing, onset); i < len(firing) {
			ttd := time.Duration(firing[i]-onset) * time.Minute
			c.Detected++
			c.TTD = append(c.TTD, ttd)
			if ttd <= time.Hour {
				c.WithinHour++
				h.WithinHour = true
			}
		}
		day := int(held / time.Minute)
		for _, m := range firing {
			if m >= onset && m < onset+day {
				h.Coverage++
			}
		}
		h.Coverage /= float64(day)
		starts := episodes(regressed, keep)
		if _, ok := slices.BinarySearch(firing, onset); ok && !slices.Contains(starts, onset) {
			h.Episodes++ // one already firing at the onset (it began before)
		}
		for _, at := range starts {
			if at >= onset && at < onset+day {
				h.Episodes++
			}
		}
		c.Held = append(c.Held, h)
	}
	return v
}
