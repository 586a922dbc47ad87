package profilestore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// SelectMergeProfilePath is Pyroscope's querier endpoint for "the merged
// pprof of these series over this range" (api/querier/v1/querier.proto,
// rpc SelectMergeProfile(SelectMergeProfileRequest) returns (google.v1.Profile)),
// served over the Connect protocol: a unary POST whose body is the request
// message. The store answers it so that clients written for a real Pyroscope
// (hotpath-notify) run unchanged against the playground.
const SelectMergeProfilePath = "/querier.v1.QuerierService/SelectMergeProfile"

// maxQueryBody bounds a request message: four scalar fields and a selector.
const maxQueryBody = 64 << 10

// MergeRequest is querier.v1.SelectMergeProfileRequest, the fields the store
// uses (max_nodes, stack_trace_selector and profile_id_selector are accepted
// and ignored, as they only narrow what a real Pyroscope returns).
type MergeRequest struct {
	ProfileTypeID string // field 1, "<name>:<type>:<unit>:<period_type>:<period_unit>"
	LabelSelector string // field 2, e.g. {service_name="api", instance="127.0.0.1:9101"}
	Start, End    int64  // fields 3 and 4, unix milliseconds
}

// DecodeMergeRequest reads the binary protobuf encoding (application/proto).
func DecodeMergeRequest(b []byte) (MergeRequest, error) {
	var r MergeRequest
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return r, protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeString(b)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			r.ProfileTypeID, b = v, b[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeString(b)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			r.LabelSelector, b = v, b[n:]
		case (num == 3 || num == 4) && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			if num == 3 {
				r.Start = int64(v)
			} else {
				r.End = int64(v)
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			b = b[n:]
		}
	}
	return r, nil
}

// Encode is the binary protobuf encoding of r (what a client sends).
func (r MergeRequest) Encode() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, r.ProfileTypeID)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, r.LabelSelector)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(r.Start))
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(r.End))
	return b
}

// profileTypes maps Pyroscope's profile type IDs to the store's types (the
// IDs Pyroscope gives Go's pprof endpoints).
var profileTypes = map[string]string{
	"process_cpu:cpu:nanoseconds:cpu:nanoseconds": "cpu",
	"memory:alloc_space:bytes:space:bytes":        "alloc_space",
	"memory:alloc_objects:count:space:bytes":      "alloc_objects",
}

// connectError writes a Connect unary error: a JSON body {code, message}
// with the HTTP status the protocol maps the code to.
func connectError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}

// unaryCall answers, with Connect's error, a request that is not a unary
// call in the codec contentType: a POST (Connect sends GET only for methods
// declared idempotent, and the querier's are not) whose Content-Type is
// contentType (the response has the request's codec). answers is what the
// stand-in answers, for the 415's message. It returns false when it answered.
func unaryCall(w http.ResponseWriter, r *http.Request, contentType, answers string) bool {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		connectError(w, http.StatusMethodNotAllowed, "unimplemented", "use POST with Content-Type "+contentType)
		return false
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != contentType {
		connectError(w, http.StatusUnsupportedMediaType, "unimplemented",
			fmt.Sprintf("Content-Type %q: this stand-in answers %s only", r.Header.Get("Content-Type"), answers))
		return false
	}
	return true
}

func serveSelectMergeProfile(s *Store, w http.ResponseWriter, r *http.Request) {
	// a pprof answer is only meaningful as binary protobuf, which is what
	// Pyroscope's own clients (profilecli, Grafana's Explore Profiles
	// download) ask for
	if !unaryCall(w, r, "application/proto", "application/proto") {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxQueryBody))
	if err != nil {
		connectError(w, http.StatusBadRequest, "invalid_argument", "request body: "+err.Error())
		return
	}
	req, err := DecodeMergeRequest(body)
	if err != nil {
		connectError(w, http.StatusBadRequest, "invalid_argument", "SelectMergeProfileRequest: "+err.Error())
		return
	}
	typ, ok := profileTypes[req.ProfileTypeID]
	if !ok {
		connectError(w, http.StatusBadRequest, "invalid_argument",
			fmt.Sprintf("profile_typeID %q: this store holds process_cpu:cpu:nanoseconds:cpu:nanoseconds, memory:alloc_space:bytes:space:bytes and memory:alloc_objects:count:space:bytes", req.ProfileTypeID))
		return
	}
	matchers, err := ParseSelector(req.LabelSelector)
	if err != nil {
		connectError(w, http.StatusBadRequest, "invalid_argument", "label_selector: "+err.Error())
		return
	}
	if req.Start <= 0 || req.End <= req.Start {
		connectError(w, http.StatusBadRequest, "invalid_argument",
			fmt.Sprintf("start %d, end %d: want unix milliseconds with start < end", req.Start, req.End))
		return
	}
	def := Types[typ]
	p, err := s.selected(def, matchers, time.UnixMilli(req.Start), time.UnixMilli(req.End))
	if errors.Is(err, ErrNoSamples) {
		// Pyroscope answers a selection without samples with an empty
		// profile, not an error: the client decides what "nothing" means.
		p, err = emptyProfile(def.SampleType), nil
	}
	if err != nil {
		connectError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	var buf bytes.Buffer
	if err := p.WriteUncompressed(&buf); err != nil {
		connectError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/proto")
	_, _ = w.Write(buf.Bytes())
}
