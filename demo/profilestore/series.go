package profilestore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// SelectSeriesPath is Pyroscope's querier endpoint for a profile's time
// series grouped by labels (api/querier/v1/querier.proto, rpc
// SelectSeries(SelectSeriesRequest) returns (SelectSeriesResponse)), the call
// Grafana's Pyroscope datasource makes for a "grouped by" query, answered
// here with the JSON codec. Pyroscope keeps each set of pprof sample labels
// as a series of its own; the store keeps the pprof as the service served it,
// so a sample's labels are its series' labels here.
const SelectSeriesPath = "/querier.v1.QuerierService/SelectSeries"

// seriesLabels are the labels of a stored profile's series; every other
// matcher of a selector is applied to the samples' pprof labels.
var seriesLabels = map[string]bool{"service_name": true, "instance": true}

// selected merges the profiles of def's kind whose series match the
// selector's series matchers between from and to, keeping the samples whose
// pprof labels match the rest (an absent label is "", as in Pyroscope).
func (s *Store) selected(def struct {
	Kind       Kind
	SampleType string
}, matchers []Matcher, from, to time.Time) (*profile.Profile, error) {
	var series, sample []Matcher
	for _, m := range matchers {
		if seriesLabels[m.Name] {
			series = append(series, m)
		} else {
			sample = append(sample, m)
		}
	}
	var entries []Entry
	for _, svc := range s.ServiceNames() {
		all, _ := s.Overlapping(svc, def.Kind, from, to)
		for _, e := range all {
			if matchAll(series, map[string]string{"service_name": e.Service, "instance": e.Instance}) {
				entries = append(entries, e)
			}
		}
	}
	p, err := Merge(entries, def.SampleType)
	if err != nil || len(sample) == 0 {
		return p, err
	}
	kept := p.Sample[:0]
	for _, x := range p.Sample {
		if matchAll(sample, sampleLabels(x)) {
			kept = append(kept, x)
		}
	}
	p.Sample = kept
	if len(kept) == 0 {
		return nil, ErrNoSamples
	}
	return p.Compact(), nil
}

// sampleLabels are a sample's string pprof labels (the first value of each).
func sampleLabels(x *profile.Sample) map[string]string {
	out := map[string]string{}
	for k, v := range x.Label {
		if len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out
}

// seriesRequest is querier.v1.SelectSeriesRequest in protojson, the fields
// the store uses (int64 as strings, as protojson writes them, or numbers).
type seriesRequest struct {
	ProfileTypeID string          `json:"profileTypeID"`
	LabelSelector string          `json:"labelSelector"`
	Start         json.RawMessage `json:"start"`
	End           json.RawMessage `json:"end"`
	GroupBy       []string        `json:"groupBy"`
}

type seriesLabel struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type seriesPoint struct {
	Value     float64 `json:"value"`
	Timestamp string  `json:"timestamp"`
}

type series struct {
	Labels []seriesLabel `json:"labels"`
	Points []seriesPoint `json:"points"`
}

func int64Field(raw json.RawMessage) (int64, error) {
	return strconv.ParseInt(strings.Trim(string(raw), `"`), 10, 64)
}

// serveSelectSeries answers the profile's cost between start and end grouped
// by groupBy: one series per set of label values, one point at end (the
// window's sum; a real Pyroscope answers a point a step, which add up to it).
func serveSelectSeries(s *Store, w http.ResponseWriter, r *http.Request) {
	if !unaryCall(w, r, "application/json", "SelectSeries in application/json") {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxQueryBody))
	var req seriesRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		connectError(w, http.StatusBadRequest, "invalid_argument", "SelectSeriesRequest: "+err.Error())
		return
	}
	typ, ok := profileTypes[req.ProfileTypeID]
	start, errStart := int64Field(req.Start)
	end, errEnd := int64Field(req.End)
	matchers, errSel := ParseSelector(req.LabelSelector)
	switch {
	case !ok:
		connectError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("profileTypeID %q is not one this store holds", req.ProfileTypeID))
		return
	case errSel != nil:
		connectError(w, http.StatusBadRequest, "invalid_argument", "labelSelector: "+errSel.Error())
		return
	case errStart != nil || errEnd != nil || start <= 0 || end <= start:
		connectError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("start %s, end %s: want unix milliseconds with start < end", req.Start, req.End))
		return
	}
	grouped, err := s.groupedSeries(Types[typ], matchers, req.GroupBy, time.UnixMilli(start), time.UnixMilli(end), strconv.FormatInt(end, 10))
	if err != nil {
		connectError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	out := struct {
		Series []series `json:"series"`
	}{Series: grouped}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// groupedSeries is the profile between from and to grouped by groupBy, by
// its samples' pprof labels and by its series' labels (service_name,
// instance) where groupBy names them, as Pyroscope groups by either: each
// set of the series labels' values selected apart and grouped by the rest.
func (s *Store) groupedSeries(def struct {
	Kind       Kind
	SampleType string
}, matchers []Matcher, groupBy []string, from, to time.Time, at string) ([]series, error) {
	var bySeries, bySample []string
	for _, g := range groupBy {
		if seriesLabels[g] {
			bySeries = append(bySeries, g)
		} else {
			bySample = append(bySample, g)
		}
	}
	out := []series{}
	for _, set := range s.seriesSets(def.Kind, matchers, bySeries, from, to) {
		ms := append([]Matcher(nil), matchers...)
		for _, name := range bySeries {
			ms = append(ms, Matcher{Name: name, Op: "=", Value: set[name]})
		}
		p, err := s.selected(def, ms, from, to)
		if errors.Is(err, ErrNoSamples) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, x := range grouped(p, bySample, at) {
			for _, name := range bySeries {
				if set[name] != "" {
					x.Labels = append(x.Labels, seriesLabel{name, set[name]})
				}
			}
			sort.Slice(x.Labels, func(i, j int) bool { return x.Labels[i].Name < x.Labels[j].Name })
			out = append(out, x)
		}
	}
	return out, nil
}

// seriesSets are the distinct values of the series labels `names` among the
// stored profiles of kind that the selector's series matchers select between
// from and to, by name; one empty set when names is empty.
func (s *Store) seriesSets(kind Kind, matchers []Matcher, names []string, from, to time.Time) []map[string]string {
	if len(names) == 0 {
		return []map[string]string{{}}
	}
	var series []Matcher
	for _, m := range matchers {
		if seriesLabels[m.Name] {
			series = append(series, m)
		}
	}
	seen := map[string]map[string]string{}
	for _, svc := range s.ServiceNames() {
		all, _ := s.Overlapping(svc, kind, from, to)
		for _, e := range all {
			ls := map[string]string{"service_name": e.Service, "instance": e.Instance}
			if !matchAll(series, ls) {
				continue
			}
			set, key := map[string]string{}, ""
			for _, n := range names {
				set[n] = ls[n]
				key += n + "=" + strconv.Quote(ls[n]) + ","
			}
			seen[key] = set
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]map[string]string, len(keys))
	for i, k := range keys {
		out[i] = seen[k]
	}
	return out
}

// grouped sums a one-type profile's samples by the values of groupBy in their
// pprof labels; a group's series carries the labels it has (none for the
// samples without any), sorted by name, the groups by their labels.
func grouped(p *profile.Profile, groupBy []string, at string) []series {
	sums := map[string]float64{}
	labels := map[string][]seriesLabel{}
	for _, x := range p.Sample {
		ls := sampleLabels(x)
		var key []string
		var set []seriesLabel
		for _, g := range groupBy {
			if v := ls[g]; v != "" {
				set = append(set, seriesLabel{g, v})
				key = append(key, g+"="+strconv.Quote(v))
			}
		}
		k := strings.Join(key, ",")
		sums[k] += float64(x.Value[0])
		labels[k] = set
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]series, 0, len(keys))
	for _, k := range keys {
		set := labels[k]
		if set == nil {
			set = []seriesLabel{}
		}
		sort.Slice(set, func(i, j int) bool { return set[i].Name < set[j].Name })
		out = append(out, series{Labels: set, Points: []seriesPoint{{Value: sums[k], Timestamp: at}}})
	}
	return out
}
