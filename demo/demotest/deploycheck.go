package demotest

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hotpath/hotpath/demo/playground"
)

// demo-test's deploy: the rollout that precedes a story (playground.Rollouts)
// happens in the normal phase, DeployLead before the incidents, where no
// alert may fire for it; the story's message must then name the deploy.

// deployBefore rolls out the new version of every expected story that a
// rollout precedes.
func deployBefore(ctx context.Context, o Playground, exps []Expectation) error {
	for _, e := range exps {
		if playground.RolloutOf(e.Story) == nil {
			continue
		}
		r, was, err := o.Deploy(ctx, e.Story)
		if err != nil {
			return err
		}
		o.Logf("    rollout: %s replaces %s, %s before the %s incident (no alert may fire for it)", playground.Image(r.Job, r.To), was, playground.DeployLead, e.Story)
	}
	return nil
}

// deployLine is what hotpath-notify says of the deploy a story's message
// follows: "Since the rollout of `ns/job:new` at HH:MM UTC (previously `old`)".
func deployLine(w *playground.World, story string) *regexp.Regexp {
	r := playground.RolloutOf(story)
	s := w.StoryService(story)
	if r == nil || s == nil {
		return nil
	}
	service := r.Job
	if ns := s.Labels["namespace"]; ns != "" {
		service = ns + "/" + r.Job
	}
	return regexp.MustCompile("Since the rollout of `" + regexp.QuoteMeta(service+":"+r.To) + "` at [0-2]\\d:[0-5]\\d UTC \\(previously `" + regexp.QuoteMeta(r.From) + "`\\)")
}

// deployProblem says what is wrong with a story's firing message when a
// rollout precedes the story ("" when it names the deploy, or none precedes it).
func deployProblem(w *playground.World, story string, r notifyRecord) string {
	re := deployLine(w, story)
	if re == nil || re.MatchString(r.Payload.Text) {
		return ""
	}
	return fmt.Sprintf("does not name the rollout it followed (want %s)", re)
}
