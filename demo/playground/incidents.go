package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// Incidents is the job of the stories on the running playground: switching an incident on and
// off (incidents.go), the rollout that precedes one (deploy.go) and demo-test's benign traffic
// step (trafficstep.go).
type Incidents struct{ *Processes }

// Switch turns a story's incident on or off on its service.
func (inc *Incidents) Switch(ctx context.Context, story string, on bool) error {
	return inc.World.Switch(ctx, story, on)
}

// Switch turns a story's incident on or off on its service: every switch is
// one HTTP call to the service's admin endpoint (demo/README.md).
func (w *World) Switch(ctx context.Context, story string, on bool) error {
	svc := w.StoryService(story)
	if svc == nil {
		return fmt.Errorf("no service runs the %q story (stories: %v)", story, Stories)
	}
	url := svc.Instances[0].URL() + fmt.Sprintf("/admin/incident?on=%t", on)
	if story == "outlier" {
		extra := "0s"
		if on {
			extra = w.OutlierExtraCPU
		}
		url = svc.Instances[w.OutlierInstance].URL() + "/admin/extra-cpu?per_request=" + extra
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("switching %s: %w (is the playground running?)", story, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("switching %s: POST %s: %s %s", story, url, resp.Status, body)
	}
	return nil
}

// IncidentState is what a service's GET /admin says.
type IncidentState struct {
	IncidentOn bool   `json:"incident_on"`
	ExtraCPU   string `json:"extra_cpu_per_request"`
}

// State reads an instance's admin state.
func State(ctx context.Context, in Instance) (IncidentState, error) {
	var st IncidentState
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, in.URL()+"/admin", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// SaveWorld writes the running world's layout for `hotpath-demo incident`.
func SaveWorld(path string, w *World) error {
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// LoadWorld reads what SaveWorld wrote.
func LoadWorld(path string) (*World, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var w World
	return &w, json.Unmarshal(b, &w)
}

// Step is one switch of the incident schedule, At after the rules went live;
// or, with Deploy, the rollout that precedes the story (deploy.go).
type Step struct {
	At     time.Duration
	Story  string
	On     bool
	Deploy bool
}

// DemoSchedule is `make demo`'s schedule: normal first, then each story on
// for `on` and off again for `off`, in turn.
func DemoSchedule(stories []string, normal, on, off time.Duration) []Step {
	var s []Step
	t := normal
	for _, story := range stories {
		s = append(s, Step{At: t, Story: story, On: true}, Step{At: t + on, Story: story, On: false})
		t += on + off
	}
	return s
}
