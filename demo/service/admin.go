package service

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// State is what GET /admin answers, and what the other admin calls answer
// after their change.
type State struct {
	Service    string `json:"service"`
	Incident   string `json:"incident,omitempty"`
	IncidentOn bool   `json:"incident_on"`
	ExtraCPU   string `json:"extra_cpu_per_request"`
}

func (s *Service) state() State {
	st := State{Service: s.Name, Incident: s.Incident, ExtraCPU: s.Extra.Get().String()}
	if s.Switch != nil {
		st.IncidentOn = s.Switch.On()
	}
	return st
}

func (s *Service) writeState(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.state())
}

// GET /admin: the service's state.
func (s *Service) adminState(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		httpError(w, http.StatusMethodNotAllowed, "use GET /admin")
		return
	}
	s.writeState(w)
}

// POST /admin/incident?on=true|false switches the service's incident.
func (s *Service) adminIncident(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		httpError(w, http.StatusMethodNotAllowed, "use POST /admin/incident?on=true|false")
		return
	}
	if s.Switch == nil {
		httpError(w, http.StatusNotFound, s.Name+" has no incident to switch")
		return
	}
	on, err := strconv.ParseBool(r.URL.Query().Get("on"))
	if err != nil {
		httpError(w, http.StatusBadRequest, "on must be true or false")
		return
	}
	s.Switch.Set(on)
	s.writeState(w)
}

// POST /admin/extra-cpu?per_request=2ms sets the instance's extra CPU per
// request (0s turns it off): the sibling-outlier knob.
func (s *Service) adminExtraCPU(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		httpError(w, http.StatusMethodNotAllowed, "use POST /admin/extra-cpu?per_request=DURATION")
		return
	}
	d, err := time.ParseDuration(r.URL.Query().Get("per_request"))
	if err != nil || d < 0 || d > time.Second {
		httpError(w, http.StatusBadRequest, "per_request must be a Go duration between 0s and 1s, e.g. 2ms")
		return
	}
	s.Extra.Set(d)
	s.writeState(w)
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
