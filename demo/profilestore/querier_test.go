package profilestore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"google.golang.org/protobuf/encoding/protowire"
)

const cpuTypeID = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

func selectMerge(t *testing.T, h http.Handler, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, SelectMergeProfilePath, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Connect-Protocol-Version", "1")
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

func selfByFunction(t *testing.T, body []byte) map[string]int64 {
	t.Helper()
	p, err := profile.ParseData(body)
	if err != nil {
		t.Fatalf("response is not a pprof: %v", err)
	}
	got := map[string]int64{}
	for _, s := range p.Sample {
		got[s.Location[0].Line[0].Function.Name] += s.Value[0]
	}
	return got
}

// catalogStore holds one 10 s CPU profile of each of three catalog instances
// and one of api.
func catalogStore(t *testing.T) *Store {
	s := New(time.Hour, 1<<20)
	s.now = func() time.Time { return t0.Add(time.Minute) }
	for i, v := range []map[string]int64{{"serve": 1e8}, {"serve": 1e8}, {"serve": 1e8, "sha256": 4e8}} {
		s.Add(Entry{Service: "catalog", Instance: fmt.Sprintf("127.0.0.1:910%d", 6+i), Kind: KindCPU,
			Start: t0, End: t0.Add(10 * time.Second), Data: cpuProfile(t, v)})
	}
	s.Add(Entry{Service: "api", Instance: "127.0.0.1:9101", Kind: KindCPU, Start: t0, End: t0.Add(10 * time.Second),
		Data: cpuProfile(t, map[string]int64{"fmt.Println": 7e8})})
	return s
}

// The endpoint speaks Pyroscope's querier API: a binary SelectMergeProfileRequest
// in, an uncompressed pprof (google.v1.Profile) out, series picked by the
// label selector on service_name and instance.
func TestSelectMergeProfileAnswersThePprofOfTheSelectedSeries(t *testing.T) {
	h := Handler(catalogStore(t))
	for _, c := range []struct {
		selector string
		want     map[string]int64
	}{
		{`{service_name="catalog"}`, map[string]int64{"serve": 3e8, "sha256": 4e8}},
		{`{service_name="catalog", instance="127.0.0.1:9108"}`, map[string]int64{"serve": 1e8, "sha256": 4e8}},
		{`{service_name="catalog",instance!="127.0.0.1:9108"}`, map[string]int64{"serve": 2e8}},
		{`{service_name=~"api|cat.*", instance=~"127\\.0\\.0\\.1:910[16]"}`, map[string]int64{"fmt.Println": 7e8, "serve": 1e8}},
		{`{service_name="api", namespace=""}`, map[string]int64{"fmt.Println": 7e8}},
	} {
		req := MergeRequest{ProfileTypeID: cpuTypeID, LabelSelector: c.selector, Start: ms(0), End: ms(time.Minute)}
		resp, body := selectMerge(t, h, "application/proto", req.Encode())
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/proto" {
			t.Fatalf("%s: %d %s %s", c.selector, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if len(body) > 2 && body[0] == 0x1f && body[1] == 0x8b {
			t.Errorf("%s: gzipped body; google.v1.Profile is sent as plain protobuf", c.selector)
		}
		if got := selfByFunction(t, body); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.selector, got, c.want)
		}
	}
}

// Like Pyroscope, a selection without samples is an empty profile, not an
// error: an unknown service, a label the series lack, a window before any.
func TestSelectMergeProfileWithoutSamplesIsAnEmptyProfile(t *testing.T) {
	h := Handler(catalogStore(t))
	for _, req := range []MergeRequest{
		{cpuTypeID, `{service_name="nope"}`, ms(0), ms(time.Minute)},
		{cpuTypeID, `{service_name="api", namespace="shop"}`, ms(0), ms(time.Minute)},
		{cpuTypeID, `{service_name="api"}`, ms(-time.Hour), ms(-time.Minute)},
		{"memory:alloc_space:bytes:space:bytes", `{service_name="api"}`, ms(0), ms(time.Minute)},
	} {
		resp, body := selectMerge(t, h, "application/proto", req.Encode())
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%+v: %d %s", req, resp.StatusCode, body)
		}
		p, err := profile.ParseData(body)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sample) != 0 || len(p.SampleType) != 1 {
			t.Errorf("%+v: %d samples, types %v; want none, one type", req, len(p.Sample), p.SampleType)
		}
	}
}

// Errors are Connect errors: a JSON {code, message} with the status the
// protocol maps the code to, saying what is wrong.
func TestSelectMergeProfileErrorsAreConnectErrors(t *testing.T) {
	h := Handler(catalogStore(t))
	good := MergeRequest{cpuTypeID, `{service_name="api"}`, ms(0), ms(time.Minute)}
	for _, c := range []struct {
		name, contentType string
		body              []byte
		status            int
		code, message     string
	}{
		{"json codec", "application/json", []byte(`{"profileTypeID":"` + cpuTypeID + `"}`), 415, "unimplemented", "application/proto only"},
		{"bad profile type", "application/proto", MergeRequest{"cpu", `{service_name="api"}`, ms(0), ms(1)}.Encode(), 400, "invalid_argument", `profile_typeID "cpu"`},
		{"bad selector", "application/proto", MergeRequest{cpuTypeID, `service_name="api"`, ms(0), ms(1)}.Encode(), 400, "invalid_argument", "label_selector"},
		{"end before start", "application/proto", MergeRequest{cpuTypeID, `{}`, ms(time.Minute), ms(0)}.Encode(), 400, "invalid_argument", "start < end"},
		{"not protobuf", "application/proto", []byte{0x0a, 0xff}, 400, "invalid_argument", "SelectMergeProfileRequest"},
		{"too big", "application/proto", append(good.Encode(), bytes.Repeat([]byte{0}, maxQueryBody)...), 400, "invalid_argument", "request body"},
	} {
		resp, body := selectMerge(t, h, c.contentType, c.body)
		var e struct{ Code, Message string }
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatalf("%s: body %q is not a Connect error: %v", c.name, body, err)
		}
		if resp.StatusCode != c.status || e.Code != c.code || !strings.Contains(e.Message, c.message) {
			t.Errorf("%s: %d %+v, want %d %s containing %q", c.name, resp.StatusCode, e, c.status, c.code, c.message)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, SelectMergeProfilePath, nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", rec.Code)
	}
}

// The request decoder reads the fields of querier.proto by number and skips
// the ones it does not use (max_nodes, profile_id_selector), as protobuf
// decoders must.
func TestDecodeMergeRequestSkipsFieldsItDoesNotUse(t *testing.T) {
	want := MergeRequest{cpuTypeID, `{service_name="api"}`, 1767268800000, 1767269400000}
	b := want.Encode()
	b = protowire.AppendTag(b, 5, protowire.VarintType) // optional int64 max_nodes = 5
	b = protowire.AppendVarint(b, 16384)
	b = protowire.AppendTag(b, 7, protowire.BytesType) // repeated string profile_id_selector = 7
	b = protowire.AppendString(b, "7c9e6679-7425-40de-944b-e07fc1f90ae7")
	got, err := DecodeMergeRequest(b)
	if err != nil || got != want {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, want)
	}
	// field 3 as a varint: 1767268800000 needs 6 bytes; a wrong wire type is skipped, not misread
	bad := protowire.AppendTag(nil, 3, protowire.BytesType)
	bad = protowire.AppendString(bad, "x")
	if got, err := DecodeMergeRequest(bad); err != nil || got.Start != 0 {
		t.Errorf("field 3 as bytes: %+v, %v; want it skipped", got, err)
	}
}

func TestParseSelector(t *testing.T) {
	ms, err := ParseSelector(`{ service_name = "a\"b", instance=~"x|y" ,pod!~"z.*",ns!="" }`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintln(len(ms), ms[0].Name, ms[0].Op, ms[0].Value, ms[1].Op, ms[2].Op, ms[3].Op); got != "4 service_name = a\"b =~ !~ !=\n" {
		t.Errorf("parsed %s", got)
	}
	if !ms[1].Matches("y") || ms[1].Matches("xy") || ms[2].Matches("zz") || !ms[3].Matches("v") || ms[3].Matches("") {
		t.Error("matchers do not match as Prometheus's do (anchored regexps, absent label is \"\")")
	}
	if ms, err := ParseSelector("{}"); err != nil || len(ms) != 0 {
		t.Errorf("{}: %v %v", ms, err)
	}
	for _, bad := range []string{``, `service_name="a"`, `{service_name=a}`, `{service_name="a}`, `{1x="a"}`, `{a="b" c="d"}`, `{a=~"("}`} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%q parsed; want an error", bad)
		}
	}
}

// wireGolden is SelectMergeProfileRequest{process_cpu:cpu:nanoseconds:cpu:nanoseconds,
// {service_name="api"}, 1767268800000, 1767269400000} in binary protobuf; hotpath-notify's
// client (notify/lib/pyroscope.mjs) is checked against the same bytes in its own test.
const wireGolden = "0a2b70726f636573735f6370753a6370753a6e616e6f7365636f6e64733a6370753a6e616e6f7365636f6e647312147b736572766963655f6e616d653d22617069227d1880acb7cbb73320c0fbdbcbb733"

func TestMergeRequestWireFormat(t *testing.T) {
	r := MergeRequest{cpuTypeID, `{service_name="api"}`, 1767268800000, 1767269400000}
	if got := fmt.Sprintf("%x", r.Encode()); got != wireGolden {
		t.Errorf("encoded %s\nwant    %s", got, wireGolden)
	}
}
