// Package profilestore is the playground's stand-in for Pyroscope, which
// cannot be installed here: it collects pprof profiles from the demo
// services' /debug/pprof endpoints continuously, keeps them with their time
// ranges (bounded by age and bytes), and answers "the merged profile of this
// service, this type, this window" as pprof, and that profile grouped by its
// samples' pprof labels (an endpoint's share of it). It is demo-only: no
// downsampling, no persistence; point the plugin at a real Pyroscope for that.
package profilestore

import (
	"sort"
	"sync"
	"time"
)

// Kind is what was collected: a CPU profile, or a heap profile holding the
// allocations of its window (both alloc_* types are answered from it).
type Kind string

const (
	KindCPU   Kind = "cpu"
	KindAlloc Kind = "alloc"
)

// Types maps each queryable type to the stored kind and the pprof sample type.
var Types = map[string]struct {
	Kind       Kind
	SampleType string
}{
	"cpu":           {KindCPU, "cpu"},
	"alloc_space":   {KindAlloc, "alloc_space"},
	"alloc_objects": {KindAlloc, "alloc_objects"},
}

// Entry is one collected profile: gzipped pprof as the service served it.
type Entry struct {
	Service string
	// Instance is the target's host:port, the instance label Pyroscope (and
	// Prometheus) give a scraped target.
	Instance   string
	Kind       Kind
	Start, End time.Time
	Data       []byte
}

// Store keeps entries per service and kind, oldest first.
type Store struct {
	// Retention is how long an entry is kept after its end; MaxBytes bounds
	// the sum of all entries' sizes (the oldest go first).
	Retention time.Duration
	MaxBytes  int

	mu      sync.Mutex
	entries map[string]map[Kind][]Entry
	bytes   int
	errs    map[string]string
	now     func() time.Time
}

// New makes an empty store.
func New(retention time.Duration, maxBytes int) *Store {
	return &Store{Retention: retention, MaxBytes: maxBytes, entries: map[string]map[Kind][]Entry{},
		errs: map[string]string{}, now: time.Now}
}

// Register makes a service known before its first profile arrives, so that
// /services lists it and a query says "no samples yet" rather than "unknown".
func (s *Store) Register(service string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[service] == nil {
		s.entries[service] = map[Kind][]Entry{}
	}
}

// Add stores a profile and drops what the bounds no longer allow.
func (s *Store) Add(e Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[e.Service] == nil {
		s.entries[e.Service] = map[Kind][]Entry{}
	}
	list := append(s.entries[e.Service][e.Kind], e)
	// Collection is back to back, so entries nearly always arrive in order;
	// keep them sorted by start anyway, queries rely on it.
	sort.SliceStable(list, func(i, j int) bool { return list[i].Start.Before(list[j].Start) })
	s.entries[e.Service][e.Kind] = list
	s.bytes += len(e.Data)
	s.errs[e.Service] = ""
	s.evict()
}

// SetError records the last collection error of a service ("" clears it).
func (s *Store) SetError(service, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs[service] = msg
}

// evict drops entries older than Retention, then the oldest overall until
// the store fits MaxBytes. Called with mu held.
func (s *Store) evict() {
	cutoff := s.now().Add(-s.Retention)
	for _, kinds := range s.entries {
		for k, list := range kinds {
			i := 0
			for i < len(list) && list[i].End.Before(cutoff) {
				s.bytes -= len(list[i].Data)
				i++
			}
			kinds[k] = list[i:]
		}
	}
	for s.MaxBytes > 0 && s.bytes > s.MaxBytes {
		var oldest *Entry
		for _, kinds := range s.entries {
			for _, l := range kinds {
				if len(l) > 0 && (oldest == nil || l[0].Start.Before(oldest.Start)) {
					oldest = &l[0]
				}
			}
		}
		if oldest == nil {
			return
		}
		list := s.entries[oldest.Service][oldest.Kind]
		s.bytes -= len(list[0].Data)
		s.entries[oldest.Service][oldest.Kind] = list[1:]
	}
}

// Overlapping returns the entries of a service and kind whose time range
// overlaps [from, to), and whether the service is known at all.
func (s *Store) Overlapping(service string, kind Kind, from, to time.Time) ([]Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kinds, ok := s.entries[service]
	if !ok {
		return nil, false
	}
	var out []Entry
	for _, e := range kinds[kind] {
		if e.Start.Before(to) && e.End.After(from) {
			out = append(out, e)
		}
	}
	return out, true
}

// ServiceNames lists the known services, sorted.
func (s *Store) ServiceNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.entries))
	for name := range s.entries {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Coverage is what the store holds for one service and kind.
type Coverage struct {
	Profiles int       `json:"profiles"`
	From     time.Time `json:"from"`
	To       time.Time `json:"to"`
	FromMs   int64     `json:"from_ms"`
	ToMs     int64     `json:"to_ms"`
}

// ServiceInfo is one row of GET /services.
type ServiceInfo struct {
	Service   string              `json:"service"`
	Types     []string            `json:"types"`
	Coverage  map[string]Coverage `json:"coverage"`
	LastError string              `json:"last_error,omitempty"`
}

// Services lists every known service with what it holds, sorted by name.
func (s *Store) Services() []ServiceInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []ServiceInfo{}
	for name, kinds := range s.entries {
		si := ServiceInfo{Service: name, Types: []string{}, Coverage: map[string]Coverage{}, LastError: s.errs[name]}
		for _, k := range []Kind{KindCPU, KindAlloc} {
			l := kinds[k]
			if len(l) == 0 {
				continue
			}
			si.Coverage[string(k)] = Coverage{Profiles: len(l), From: l[0].Start, To: l[len(l)-1].End,
				FromMs: l[0].Start.UnixMilli(), ToMs: l[len(l)-1].End.UnixMilli()}
		}
		for t, def := range Types {
			if _, ok := si.Coverage[string(def.Kind)]; ok {
				si.Types = append(si.Types, t)
			}
		}
		sort.Strings(si.Types)
		out = append(out, si)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Service < out[j].Service })
	return out
}

// Bytes is the stored data's total size.
func (s *Store) Bytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}
