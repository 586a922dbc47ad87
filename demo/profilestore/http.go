package profilestore

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Handler serves the store:
//
//	GET /profile?service=api&type=cpu&from=<unix ms>&to=<unix ms>
//	    the merged pprof (gzipped protobuf) of every profile overlapping the
//	    window, one sample type; X-Profile-Count, X-Profile-From-Ms and
//	    X-Profile-To-Ms say which profiles went in (they are collected in
//	    windows of some seconds, so the covered range can exceed the asked one)
//	GET /services
//	    JSON: each service, the types it can answer and the time range held
//	POST /querier.v1.QuerierService/SelectMergeProfile
//	    Pyroscope's querier API (Connect protocol, application/proto): the
//	    merged pprof of the series a label selector (service_name, instance)
//	    picks, over [start, end) in unix ms; querier.go
//
// Errors are JSON {"error": "..."}: 400 for bad parameters, 404 for an
// unknown service or a window without samples. CORS is open so that the
// plugin's sandbox page, served from another port, can fetch profiles.
func Handler(s *Store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(SelectMergeProfilePath, func(w http.ResponseWriter, r *http.Request) { serveSelectMergeProfile(s, w, r) })
	mux.HandleFunc(SelectSeriesPath, func(w http.ResponseWriter, r *http.Request) { serveSelectSeries(s, w, r) })
	mux.HandleFunc("/profile", func(w http.ResponseWriter, r *http.Request) { serveProfile(s, w, r) })
	mux.HandleFunc("/services", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			writeError(w, http.StatusMethodNotAllowed, "use GET /services")
			return
		}
		writeJSON(w, http.StatusOK, s.Services())
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "X-Profile-Count, X-Profile-From-Ms, X-Profile-To-Ms")
		mux.ServeHTTP(w, r)
	})
}

func serveProfile(s *Store, w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		writeError(w, http.StatusMethodNotAllowed, "use GET /profile")
		return
	}
	q := r.URL.Query()
	service := q.Get("service")
	if service == "" {
		writeError(w, http.StatusBadRequest, "missing parameter service (GET /services lists them)")
		return
	}
	typ, ok := Types[q.Get("type")]
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter type is %q, want one of %s", q.Get("type"), typeNames()))
		return
	}
	from, err1 := parseMs(q, "from")
	to, err2 := parseMs(q, "to")
	if err := errors.Join(err1, err2); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !from.Before(to) {
		writeError(w, http.StatusBadRequest, "from must be before to")
		return
	}
	entries, known := s.Overlapping(service, typ.Kind, from, to)
	if !known {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown service %q (GET /services lists them)", service))
		return
	}
	p, err := Merge(entries, typ.SampleType)
	if errors.Is(err, ErrNoSamples) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("%s: %s of %s between %s and %s", ErrNoSamples, q.Get("type"), service,
			from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339)))
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", fmt.Sprintf("%s-%s-%d-%d.pb.gz", service, q.Get("type"), from.UnixMilli(), to.UnixMilli())))
	h.Set("X-Profile-Count", strconv.Itoa(len(entries)))
	h.Set("X-Profile-From-Ms", strconv.FormatInt(entries[0].Start.UnixMilli(), 10))
	h.Set("X-Profile-To-Ms", strconv.FormatInt(entries[len(entries)-1].End.UnixMilli(), 10))
	if err := p.Write(w); err != nil {
		// Headers are gone; all that is left is to cut the body short.
		return
	}
}

func parseMs(q map[string][]string, name string) (time.Time, error) {
	v := ""
	if vs := q[name]; len(vs) > 0 {
		v = vs[0]
	}
	if v == "" {
		return time.Time{}, fmt.Errorf("missing parameter %s (unix milliseconds)", name)
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms < 0 {
		return time.Time{}, fmt.Errorf("parameter %s is %q, want unix milliseconds such as %d", name, v, time.Now().UnixMilli())
	}
	return time.UnixMilli(ms), nil
}

func typeNames() string {
	names := make([]string, 0, len(Types))
	for n := range Types {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
