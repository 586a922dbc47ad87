//go:build bench

package detection

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/hotpath/hotpath/promkit/evaluate"
)

// The fleet the detectors judge: services with a diurnal day, a cost line
// (fixed + marginal per request, for CPU and for allocations), noise minute
// to minute and noise that lasts, a deploy a day (counters reset, then a
// warm-up at 1.5x the cost), some traffic that doubles for two hours (the
// cost following), and on most services one regression of a known size that
// starts on the fourth day at an onset hour of the sweep (every 2 hours) and
// lasts to the end: at least a day, over which it must stay caught.

const (
	days        = 5                // simulated; the first is history only
	warmUp      = 8 * time.Minute  // a deploy's warm-up at warmUpFactor
	deployGap   = time.Minute      // the scrape a deploy misses
	doubling    = 2 * time.Hour    // a traffic event: twice the traffic
	judgedFrom  = 24 * time.Hour   // alerts count from day 2 (a day of history before)
	onsetDay    = 72 * time.Hour   // regressions start on the fourth day (three clean days of history) ...
	onsetEvery  = 2 * time.Hour    // ... at each of its hours 0, 2, ..., 22 (within that hour)
	held        = 24 * time.Hour   // coverage and episodes are judged over a regression's first day
	lastingTime = 30 * time.Minute // the correlation time of the lasting noise
)

// OnsetHours are the hours of the day the sweep starts a regression at.
var OnsetHours = func() []int {
	var out []int
	for h := 0; h < 24; h += int(onsetEvery.Hours()) {
		out = append(out, h)
	}
	return out
}()

const warmUpFactor = 1.5

// Sizes are the regressions injected, as a factor on the cost per request:
// around the noise path's floors (+25% CPU, +40% allocations), where holding
// is in question (+10% is under both floors by design, +100% crosses the
// fixed factors at once); each at every onset hour.
var Sizes = []float64{1.2, 1.3, 1.5}

// Kinds of regression: CPU per request or allocations per request.
const (
	KindCPU   = "cpu"
	KindAlloc = "alloc"
)

// Each (kind, size) gets one service per onset hour; clean get none.
const clean = 12

// perCell is how many services (per fleet) get each (kind, size).
var perCell = len(OnsetHours)

// Service is one simulated service: its parameters and its injection.
type Service struct {
	Job  string
	Seed uint64 // of the fleet it belongs to
	// traffic: peak req/s, the night's low as a share of it, the hour of the low
	peak, low, lowHour        float64
	fixedCPU, cpuPerReq       float64
	fixedAlloc, allocPerReq   float64
	noiseMinute, noiseLasting float64 // standard deviations, relative
	deploys                   []time.Duration
	doubledAt                 time.Duration // 0: none
	doubledFor                time.Duration // how long (0: doubling)
	holidayAt                 time.Duration // a day from here at holidayFactor of the traffic (holidayFactor 0: none)
	holidayFactor             float64
	Kind                      string // "" for a clean service
	Size                      float64
	Onset                     time.Duration // since the fleet's start
	OnsetHour                 int           // its hour of the day
}

// Fleet builds the services, deterministically from seed.
func Fleet(seed uint64) []Service {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []Service
	add := func(kind string, size float64, hour int) {
		s := randomService(rng, fmt.Sprintf("svc-%03d", len(out)), seed)
		s.Kind, s.Size = kind, size
		if kind != "" {
			s.OnsetHour = hour
			s.Onset = onsetDay + time.Duration(hour)*time.Hour + time.Duration(rng.IntN(60))*time.Minute
		}
		out = append(out, s)
	}
	for _, kind := range []string{KindCPU, KindAlloc} {
		for _, size := range Sizes {
			for _, hour := range OnsetHours {
				add(kind, size, hour)
			}
		}
	}
	for range clean {
		add("", 0, 0)
	}
	return out
}

// randomService draws a clean service from rng: its traffic, cost line,
// noise, deploys and traffic doubling.
func randomService(rng *rand.Rand, job string, seed uint64) Service {
	minuteNoise := []float64{0.02, 0.05, 0.1, 0.2}
	lastingNoise := []float64{0, 0.02, 0.04}
	s := Service{
		Job: job, Seed: seed,
		peak: logUniform(rng, 3, 300), low: 0.1 + 0.3*rng.Float64(), lowHour: 2 + 4*rng.Float64(),
		fixedCPU: logUniform(rng, 0.05, 0.5), cpuPerReq: logUniform(rng, 0.0005, 0.01),
		fixedAlloc: logUniform(rng, 512<<10, 8<<20), allocPerReq: logUniform(rng, 8<<10, 256<<10),
		noiseMinute: minuteNoise[rng.IntN(len(minuteNoise))], noiseLasting: lastingNoise[rng.IntN(len(lastingNoise))],
	}
	for d := 0; d < days; d++ {
		s.deploys = append(s.deploys, time.Duration(d)*24*time.Hour+time.Duration(rng.IntN(24*60))*time.Minute)
	}
	if rng.IntN(3) == 0 {
		s.doubledAt = judgedFrom + time.Duration(rng.IntN((days-2)*24*60))*time.Minute
	}
	return s
}

func logUniform(rng *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
}

// traffic is the diurnal req/s at d since the fleet's start (which is
// midnight): a cosine from the night's low to the peak.
func (s Service) traffic(d time.Duration) float64 {
	h := math.Mod(d.Hours(), 24)
	return s.peak * (s.low + (1-s.low)*(0.5-0.5*math.Cos(2*math.Pi*(h-s.lowHour)/24)))
}

// sinceDeploy is the time since the latest deploy at or before d, and
// whether there was one.
func (s Service) sinceDeploy(d time.Duration) (time.Duration, bool) {
	best, ok := time.Duration(0), false
	for _, at := range s.deploys {
		if at <= d && (!ok || d-at < best) {
			best, ok = d-at, true
		}
	}
	return best, ok
}

// minute is one minute of a service: what it did, per second.
type minute struct{ req, cpu, alloc float64 }

// Minutes are the service's per-second rates, minute by minute, with noise
// drawn from rng (its own stream per service).
func (s Service) Minutes(rng *rand.Rand) []minute {
	n := days * 24 * 60
	out := make([]minute, n)
	phi := math.Exp(-1 / lastingTime.Minutes())
	innov := math.Sqrt(1 - phi*phi)
	var lastCPU, lastAlloc float64 // the lasting noises, AR(1)
	for i := range n {
		d := time.Duration(i) * time.Minute
		r := s.traffic(d)
		if s.doubledAt > 0 && d >= s.doubledAt && d < s.doubledAt+cmp.Or(s.doubledFor, doubling) {
			r *= 2
		}
		if s.holidayFactor > 0 && d >= s.holidayAt && d < s.holidayAt+24*time.Hour {
			r *= s.holidayFactor
		}
		// counting noise: a Poisson count over the minute
		r = math.Max(0, r*(1+rng.NormFloat64()/math.Sqrt(math.Max(r*60, 1))))
		lastCPU = phi*lastCPU + innov*rng.NormFloat64()
		lastAlloc = phi*lastAlloc + innov*rng.NormFloat64()
		cpu := (s.fixedCPU + s.cpuPerReq*r) * math.Max(0.1, 1+s.noiseMinute*rng.NormFloat64()+s.noiseLasting*lastCPU)
		alloc := (s.fixedAlloc + s.allocPerReq*r) * math.Max(0.1, 1+s.noiseMinute*rng.NormFloat64()+s.noiseLasting*lastAlloc)
		if since, ok := s.sinceDeploy(d); ok && since >= deployGap && since < deployGap+warmUp {
			cpu *= warmUpFactor
			alloc *= warmUpFactor
		}
		if s.Kind != "" && d >= s.Onset {
			if s.Kind == KindCPU {
				cpu *= s.Size
			} else {
				alloc *= s.Size
			}
		}
		out[i] = minute{r, cpu, alloc}
	}
	return out
}

// Series are the service's three counters, one sample a minute from start:
// a deploy misses a scrape and restarts every counter near 0.
func (s Service) Series(start time.Time, rng *rand.Rand) []evaluate.Series {
	return s.seriesOf(start, s.Minutes(rng))
}

// seriesOf are the three counters of minutes ms (Minutes).
func (s Service) seriesOf(start time.Time, ms []minute) []evaluate.Series {
	names := []string{"http_requests_total", "process_cpu_seconds_total", "go_memstats_alloc_bytes_total"}
	out := make([]evaluate.Series, len(names))
	for k, name := range names {
		x := evaluate.Series{Labels: labels.FromStrings("__name__", name, "job", s.Job, "instance", "i1")}
		v := 1000.0
		for i, m := range ms {
			d := time.Duration(i) * time.Minute
			if since, ok := s.sinceDeploy(d); ok && since < deployGap {
				v = 0 // the new process starts counting from 0
				continue
			}
			x.T = append(x.T, start.Add(d).UnixMilli())
			x.V = append(x.V, math.Round(v*1000)/1000)
			v += 60 * [3]float64{m.req, m.cpu, m.alloc}[k]
		}
		out[k] = x
	}
	return out
}
