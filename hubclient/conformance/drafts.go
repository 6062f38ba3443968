package conformance

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/hubform/hubform/hubclient"
)

// draftPayload is what the drafts check saves first: some of the form's
// values, as a visitor leaves them half way.
func draftPayload() map[string]any {
	return map[string]any{"name": "Conformance draft", "message": "Saved by hubform conformance."}
}

// draftAgain is what it saves over the draft: other values, one fewer, so
// that a hub that merges the saves rather than replacing the draft shows.
func draftAgain() map[string]any {
	return map[string]any{"name": "Conformance draft, saved again"}
}

// drafts saves, resumes and finishes a draft (PROTOCOL.md §10, "Drafts"),
// an optional extension: a form whose schema lacks meta.resume is not
// failed.
func (r *run) drafts(ctx context.Context) (Status, string) {
	switch {
	case r.schema == nil:
		return Skip, "no schema (schema.route failed)"
	case !r.schema.Meta.Resume:
		return Info, `the hub keeps no drafts of this form: its schema lacks "meta": {"resume": true}; drafts are an optional extension`
	}
	first, last := "", ""
	if n := len(r.schema.Steps); n > 0 {
		first, last = r.schema.Steps[0].ID, r.schema.Steps[n-1].ID
	}

	saved, why := r.saveDraft(ctx, "save a draft", hubclient.DraftRequest{Payload: draftPayload(), Step: last})
	if why != "" {
		return Fail, why
	}
	if why := r.resumeDraft(ctx, "resume the draft saved", saved.Token, draftPayload(), last); why != "" {
		return Fail, why
	}
	again, why := r.saveDraft(ctx, "save over the draft with its token", hubclient.DraftRequest{Token: saved.Token, Payload: draftAgain(), Step: first})
	if why != "" {
		return Fail, why
	}
	if again.Token == saved.Token {
		return failf("save over the draft with its token: want a new token, got the one sent: each save answers a new token and retires the ones before it, so that only the latest holder reads the draft")
	}
	// The token saved over is retired: whoever held it, such as someone
	// who saved the draft first with another's address, reads nothing
	// saved since.
	a, err := r.postJSON(ctx, "/drafts/resume", hubclient.DraftTokenRequest{Token: saved.Token})
	if err != nil {
		return failf("resume with the token saved over: POST %s/drafts/resume: %v", r.base, err)
	}
	if a.status != http.StatusNotFound {
		return failf("resume with the token saved over: want 404, the token retired by the save, got %s", a)
	}
	if why := r.resumeDraft(ctx, "resume the draft saved again", again.Token, draftAgain(), first); why != "" {
		return Fail, why
	}

	never := neverIssued()
	for _, step := range []struct {
		what, route string
		body        any
	}{
		{"resume with a token never handed out", "/drafts/resume", hubclient.DraftTokenRequest{Token: never}},
		{"save with a token never handed out", "/drafts", hubclient.DraftRequest{Token: never, Payload: draftAgain()}},
	} {
		a, err := r.postJSON(ctx, step.route, step.body)
		if err != nil {
			return failf("%s: POST %s%s: %v", step.what, r.base, step.route, err)
		}
		if a.status != http.StatusNotFound {
			return failf("%s: want 404, got %s", step.what, a)
		}
	}

	note := fmt.Sprintf("saved, resumed, saved again under a new token and resumed; expires at %s", again.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"))
	if r.needsToken() {
		return Pass, note + "; " + noToken + ", so no submission finished the draft"
	}
	payload := validPayload()
	payload["message"] = "Sent by hubform conformance, finishing a draft."
	a, err = r.submit(ctx, hubclient.SubmitRequest{Payload: payload, Draft: again.Token})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, why := accepted(a); !ok {
		return failf(`submit with "draft": the token: want the submission accepted: %s`, why)
	}
	a, err = r.postJSON(ctx, "/drafts/resume", hubclient.DraftTokenRequest{Token: again.Token})
	if err != nil {
		return failf("POST %s/drafts/resume: %v", r.base, err)
	}
	if a.status != http.StatusNotFound {
		return failf(`resume after a submission with "draft": the token: want 404, the draft deleted with the submission, got %s`, a)
	}
	return Pass, note + "; finished by a submission"
}

// saveDraft posts req to the drafts route and returns its answer, or what
// is wrong with it; what says which step of the check it is.
func (r *run) saveDraft(ctx context.Context, what string, req hubclient.DraftRequest) (hubclient.DraftResponse, string) {
	a, err := r.postJSON(ctx, "/drafts", req)
	if err != nil {
		return hubclient.DraftResponse{}, fmt.Sprintf("%s: POST %s/drafts: %v", what, r.base, err)
	}
	if a.status == http.StatusNotFound {
		return hubclient.DraftResponse{}, fmt.Sprintf(`%s: the schema has "meta": {"resume": true}, yet the drafts route answered %s`, what, a)
	}
	var res hubclient.DraftResponse
	var members map[string]json.RawMessage
	switch {
	case !a.ok():
		return res, fmt.Sprintf(`%s: want 2xx with {"ok": true, "token", "expiresAt"}, got %s`, what, a)
	case json.Unmarshal(a.body, &members) != nil || json.Unmarshal(a.body, &res) != nil:
		return res, fmt.Sprintf("%s: the answer is not the drafts route's JSON object: %s", what, a)
	case !res.OK:
		return res, fmt.Sprintf(`%s: the answer lacks "ok": true: %s`, what, a)
	case res.Token == "":
		return res, fmt.Sprintf(`%s: the answer has no "token": %s`, what, a)
	case members["expiresAt"] == nil || res.ExpiresAt.IsZero():
		return res, fmt.Sprintf(`%s: the answer has no "expiresAt": %s`, what, a)
	}
	return res, ""
}

// resumeDraft reads the draft token names and says what differs from the
// payload and step saved, or "".
func (r *run) resumeDraft(ctx context.Context, what, token string, payload map[string]any, step string) string {
	a, err := r.postJSON(ctx, "/drafts/resume", hubclient.DraftTokenRequest{Token: token})
	if err != nil {
		return fmt.Sprintf("%s: POST %s/drafts/resume: %v", what, r.base, err)
	}
	if !a.ok() {
		return fmt.Sprintf(`%s: want 2xx with {"ok": true, "payload", "step", "expiresAt"}, got %s`, what, a)
	}
	var res struct {
		OK bool `json:"ok"`
		hubclient.Draft
	}
	if err := json.Unmarshal(a.body, &res); err != nil {
		return fmt.Sprintf("%s: the answer is not the resume route's JSON object: %s", what, a)
	}
	// The values went as JSON and came back as JSON: compare them decoded
	// alike.
	var want map[string]any
	sent, _ := json.Marshal(payload)
	json.Unmarshal(sent, &want)
	switch {
	case !res.OK:
		return fmt.Sprintf(`%s: the answer lacks "ok": true: %s`, what, a)
	case !reflect.DeepEqual(res.Payload, want):
		got, _ := json.Marshal(res.Payload)
		return fmt.Sprintf("%s: want the payload saved, %s, got %s", what, sent, got)
	case res.Step != step:
		return fmt.Sprintf("%s: want the step saved, %q, got %q", what, step, res.Step)
	case res.ExpiresAt.IsZero():
		return fmt.Sprintf(`%s: the answer has no "expiresAt": %s`, what, a)
	}
	return ""
}

// neverIssued returns a token shaped as this project's hub makes them, 32
// random bytes in base64url, that no hub handed out.
func neverIssued() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
