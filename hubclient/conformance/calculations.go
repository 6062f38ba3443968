package conformance

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hubform/hubform/hubclient"
)

// calculations checks that the hub works a calculation out itself (PROTOCOL.md
// §10, "Calculations"): the conformance form is a quiz whose score is the
// points of the answer to look, light 1 and dark 2; a submission choosing
// dark and claiming a score of 100 is accepted, the forged score ignored,
// and answered with a score of 2. It is optional: a form that is no quiz
// with such a score gets skip, not supported.
func (r *run) calculations(ctx context.Context) (Status, string) {
	switch {
	case r.schema == nil:
		return Skip, "no schema (schema.route failed)"
	case r.needsToken():
		return Skip, noToken
	}
	if why := scored(r.schema); why != "" {
		return Skip, "not supported: " + why + " (optional; hubform conformance --print-form has it)"
	}
	payload := withValues(map[string]any{"look": "dark"}, hubclient.ScoreName, 100)
	a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: payload})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, why := accepted(a); !ok {
		return failf(`want a submission with a forged "score" accepted, the value ignored: %s`, why)
	}
	var res hubclient.SubmitResponse
	if err := json.Unmarshal(a.body, &res); err != nil || res.Score == nil {
		return failf(`want the answer to carry "score": 2, got %s`, a)
	}
	if *res.Score != 2 {
		return failf(`want "score": 2 (the points of dark), not the 100 sent; got %v`, *res.Score)
	}
	return Pass, fmt.Sprintf("score %v, the forged 100 ignored", *res.Score)
}

// scored returns why s is not the conformance form's quiz, "" when it is:
// a quiz whose calculation score is the points of look.
func scored(s *hubclient.Schema) string {
	c := s.Calculation(hubclient.ScoreName)
	look := s.Field("look")
	switch {
	case s.Quiz == nil:
		return `the form is not a quiz ("quiz": {})`
	case c == nil:
		return `the form has no calculation "score"`
	case look == nil || len(look.Options) < 2 || look.Options[1].Value != "dark" || look.Options[1].Worth() != 2:
		return `the option dark of look is not worth 2 points`
	}
	return ""
}
