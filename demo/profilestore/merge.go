package profilestore

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/google/pprof/profile"
)

// ErrNoSamples means the window holds no profile, or only profiles whose
// samples of the asked type are all zero (an idle service).
var ErrNoSamples = errors.New("no samples in this window")

// Merge parses the entries, merges them (profile.Merge: identical stacks add
// up) and keeps only sampleType, as Pyroscope answers one type per query.
func Merge(entries []Entry, sampleType string) (*profile.Profile, error) {
	if len(entries) == 0 {
		return nil, ErrNoSamples
	}
	profs := make([]*profile.Profile, 0, len(entries))
	for _, e := range entries {
		p, err := profile.Parse(bytes.NewReader(e.Data))
		if err != nil {
			return nil, fmt.Errorf("stored profile of %s from %s: %w", e.Service, e.Start.Format("15:04:05"), err)
		}
		profs = append(profs, p)
	}
	merged, err := profile.Merge(profs)
	if err != nil {
		return nil, fmt.Errorf("merging %d profiles: %w", len(profs), err)
	}
	out, err := only(merged, sampleType)
	if err != nil {
		return nil, err
	}
	out.TimeNanos = entries[0].Start.UnixNano()
	out.DurationNanos = entries[len(entries)-1].End.Sub(entries[0].Start).Nanoseconds()
	return out, nil
}

// emptyProfile is a profile of one sample type without samples: what
// Pyroscope answers for a selection that matched nothing.
func emptyProfile(sampleType string) *profile.Profile {
	unit := "nanoseconds"
	if sampleType == "alloc_space" {
		unit = "bytes"
	} else if sampleType == "alloc_objects" {
		unit = "count"
	}
	return &profile.Profile{SampleType: []*profile.ValueType{{Type: sampleType, Unit: unit}}, DefaultSampleType: sampleType}
}

// only keeps one sample type and drops the samples that have none of it.
func only(p *profile.Profile, sampleType string) (*profile.Profile, error) {
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == sampleType {
			idx = i
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("stored profiles have no sample type %q", sampleType)
	}
	p.SampleType = []*profile.ValueType{p.SampleType[idx]}
	p.DefaultSampleType = sampleType
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		if v := s.Value[idx]; v > 0 {
			s.Value = []int64{v}
			kept = append(kept, s)
		}
	}
	p.Sample = kept
	if len(kept) == 0 {
		return nil, ErrNoSamples
	}
	return p.Compact(), nil
}
