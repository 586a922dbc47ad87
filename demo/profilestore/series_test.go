package profilestore

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// labelledProfile is a 10 s CPU profile whose samples carry pprof labels, as
// a service's handlers set them (pprof.Do): name -> (labels, nanoseconds).
func labelledProfile(t *testing.T, samples map[string]struct {
	labels map[string]string
	ns     int64
}) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1e7,
	}
	id := uint64(1)
	for name, x := range samples {
		f := &profile.Function{ID: id, Name: name}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, l)
		ls := map[string][]string{}
		for k, v := range x.labels {
			ls[k] = []string{v}
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l}, Value: []int64{x.ns / 1e7, x.ns}, Label: ls})
		id++
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func shopStore(t *testing.T) *Store {
	s := New(time.Hour, 1<<20)
	s.now = func() time.Time { return t0.Add(time.Minute) }
	type x = struct {
		labels map[string]string
		ns     int64
	}
	s.Add(Entry{Service: "shop", Instance: "127.0.0.1:9120", Kind: KindCPU, Start: t0, End: t0.Add(10 * time.Second), Data: labelledProfile(t, map[string]x{
		"search": {map[string]string{"http.route": "/search"}, 6e8},
		"health": {map[string]string{"http.route": "/healthz"}, 1e8},
		"gc":     {nil, 3e8},
	})})
	return s
}

func post(t *testing.T, h http.Handler, path, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

// SelectSeries groups the samples by their pprof labels: one series per
// route, the samples without one in a series without labels; they add up to
// the profile.
func TestSelectSeriesGroupsBySampleLabels(t *testing.T) {
	h := Handler(shopStore(t))
	body := seriesBody(`{service_name=\"shop\"}`, "http.route", "span_name")
	assertGroups(t, h, body, map[string]float64{"http.route=/search": 6e8, "http.route=/healthz": 1e8, "": 3e8})
	// a selector that matches no sample: no series (not an error)
	body2 := `{"profileTypeID":"` + cpuTypeID + `","labelSelector":"{service_name=\"none\"}","start":"1","end":"2","groupBy":["http.route"]}`
	if res, out := post(t, h, SelectSeriesPath, "application/json", []byte(body2)); res.StatusCode != 200 || !bytes.Contains(out, []byte(`"series":[]`)) {
		t.Errorf("%d %s", res.StatusCode, out)
	}
	if res, _ := post(t, h, SelectSeriesPath, "application/proto", []byte(body)); res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("protobuf: %d, want 415", res.StatusCode)
	}
}

// Grouped by a series label too (the instance a profile came from, as the
// bridge asks to learn which instances were profiled), each instance's
// samples are grouped apart, its series labelled with it.
func TestSelectSeriesGroupsByInstance(t *testing.T) {
	s := shopStore(t)
	s.Add(Entry{Service: "shop", Instance: "127.0.0.1:9121", Kind: KindCPU, Start: t0, End: t0.Add(10 * time.Second), Data: labelledProfile(t, map[string]struct {
		labels map[string]string
		ns     int64
	}{"search": {map[string]string{"http.route": "/search"}, 2e8}})})
	h := Handler(s)
	assertGroups(t, h, seriesBody(`{service_name=\"shop\"}`, "http.route", "instance"), map[string]float64{
		"http.route=/search,instance=127.0.0.1:9120": 6e8, "http.route=/healthz,instance=127.0.0.1:9120": 1e8, "instance=127.0.0.1:9120": 3e8,
		"http.route=/search,instance=127.0.0.1:9121": 2e8,
	})
	assertGroups(t, h, seriesBody(`{service_name=\"shop\", instance!=\"127.0.0.1:9120\"}`, "instance"), map[string]float64{"instance=127.0.0.1:9121": 2e8})
	assertGroups(t, h, seriesBody(`{service_name=\"shop\"}`, "http.route"), map[string]float64{"http.route=/search": 8e8, "http.route=/healthz": 1e8, "": 3e8})
}

// seriesBody is a SelectSeries request of the first minute's CPU.
func seriesBody(selector string, groupBy ...string) string {
	g, _ := json.Marshal(groupBy)
	return `{"profileTypeID":"` + cpuTypeID + `","labelSelector":"` + selector + `","start":"` + itoa(t0.UnixMilli()) + `","end":"` + itoa(t0.Add(time.Minute).UnixMilli()) + `","groupBy":` + string(g) + `,"step":60}`
}

// assertGroups asks h for body and compares its series' sums by their
// labels (name=value, joined with commas) with want.
func assertGroups(t *testing.T, h http.Handler, body string, want map[string]float64) {
	t.Helper()
	res, out := post(t, h, SelectSeriesPath, "application/json", []byte(body))
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, out)
	}
	var got struct {
		Series []struct {
			Labels []struct{ Name, Value string }
			Points []struct{ Value float64 }
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, s := range got.Series {
		var k []string
		for _, l := range s.Labels {
			k = append(k, l.Name+"="+l.Value)
		}
		sums[strings.Join(k, ",")] += s.Points[0].Value
	}
	if len(sums) != len(want) {
		t.Fatalf("groups %v, want %v", sums, want)
	}
	for k, v := range want {
		if sums[k] != v {
			t.Errorf("group %q: %g, want %g", k, sums[k], v)
		}
	}
}

// A matcher on a label that is not the series' narrows the merged profile to
// the samples that carry it: one endpoint's profile.
func TestSelectMergeProfileNarrowsBySampleLabels(t *testing.T) {
	h := Handler(shopStore(t))
	req := MergeRequest{ProfileTypeID: cpuTypeID, LabelSelector: `{service_name="shop", "http.route"="/search"}`, Start: t0.UnixMilli(), End: t0.Add(time.Minute).UnixMilli()}
	res, body := selectMerge(t, h, "application/proto", req.Encode())
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if got := selfByFunction(t, body); len(got) != 1 || got["search"] != 6e8 {
		t.Errorf("got %v, want search alone", got)
	}
	req.LabelSelector = `{service_name="shop", "http.route"=""}`
	_, body = selectMerge(t, h, "application/proto", req.Encode())
	if got := selfByFunction(t, body); len(got) != 1 || got["gc"] != 3e8 {
		t.Errorf("the unlabelled samples: got %v, want gc alone", got)
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// A label name with a dot is quoted, as Prometheus 3 and Pyroscope write it.
func TestParseSelectorQuotedNames(t *testing.T) {
	ms, err := ParseSelector(`{service_name="shop", "http.route"=~"/s.*"}`)
	if err != nil || len(ms) != 2 || ms[1].Name != "http.route" || !ms[1].Matches("/search") {
		t.Fatalf("%v %v", ms, err)
	}
	if _, err := ParseSelector(`{"http.route=""}`); err == nil {
		t.Error("an unterminated quoted name parsed")
	}
}
