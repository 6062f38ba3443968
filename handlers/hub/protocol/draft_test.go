package protocol_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// draftForm has two steps, a file field and a honeypot: the hub keeps its
// drafts, as of a form of several steps, and mails links to one origin.
const draftForm = `{
  "fields": [
    {"name": "name", "type": "text", "required": true},
    {"name": "email", "type": "email"},
    {"name": "cv", "type": "file", "required": true},
    {"name": "topics", "type": "checkboxes", "options": ["a", "b"]},
    {"name": "_hp", "type": "text"}
  ],
  "steps": [{"id": "you", "fields": ["name", "email", "_hp"]}, {"id": "more", "fields": ["cv", "topics"]}],
  "hub": {"allowedOrigins": ["https://app.example"], "maxFileSize": 1024, "allowedTypes": ["application/pdf"]}
}`

// newDraftHarness is newHarness also serving forms, a map of slug to file.
func newDraftHarness(t *testing.T, forms map[string]string, options ...func(*protocol.Config)) *harness {
	t.Helper()
	return newHarnessWithForms(t, func(dir string) {
		for slug, content := range forms {
			writeFile(t, filepath.Join(dir, "acme", slug+".json"), content)
		}
	}, options...)
}

// saveDraft posts req to the drafts route of form slug.
func (h *harness) saveDraft(slug string, req hubclient.DraftRequest) *response {
	h.t.Helper()
	return h.postJSON("/v1/acme/"+slug+"/drafts", req)
}

// draft reads the draft token names, as an app resuming it does.
func (h *harness) draft(slug, token string) (hubclient.Draft, error) {
	return h.client.Draft(context.Background(), "acme", slug, token)
}

func (res *response) draftSaved(t *testing.T) hubclient.DraftResponse {
	t.Helper()
	res.wantStatus(t, http.StatusOK)
	var d hubclient.DraftResponse
	if err := json.Unmarshal(res.body, &d); err != nil || !d.OK || d.Token == "" {
		t.Fatalf("answer %s: want ok and a token (%v)", res.body, err)
	}
	return d
}

func TestDraftRoundTrip(t *testing.T) {
	h := newDraftHarness(t, map[string]string{"draft": draftForm})
	if schema, err := h.client.Schema(context.Background(), "acme", "draft"); err != nil || !schema.Meta.Resume {
		t.Fatalf("schema of a form of two steps: resume %v (%v), want true", schema != nil && schema.Meta.Resume, err)
	}
	cv := h.upload("draft", "cv", "cv.pdf", "application/pdf", pdfBody)
	saved := h.saveDraft("draft", hubclient.DraftRequest{
		Payload: map[string]any{"name": "Ada", "topics": []string{"a"}, "_hp": ""}, Step: "more",
		Attachments: []hubclient.Attachment{cv}, Locale: "de",
	}).draftSaved(t)
	if want := h.clock.Now().Add(30 * 24 * time.Hour); !saved.ExpiresAt.Equal(want.Truncate(time.Millisecond)) && !saved.ExpiresAt.Equal(want) {
		t.Errorf("expires at %v, want 30 days on, %v", saved.ExpiresAt, want)
	}
	if saved.Mailed {
		t.Error("mailed without an address")
	}
	d, err := h.draft("draft", saved.Token)
	if err != nil {
		t.Fatal(err)
	}
	if d.Step != "more" || d.Payload["name"] != "Ada" || len(d.Attachments) != 1 || d.Attachments[0].Key != cv.Key || d.Attachments[0].Filename != "cv.pdf" {
		t.Errorf("draft read back: %+v", d)
	}
	if _, ok := d.Payload["_hp"]; ok {
		t.Error("the draft kept a honeypot")
	}
	// The hub keeps a hash of the token, not the token.
	var tokens int
	h.DB.Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM draft_tokens WHERE hash = $1`, saved.Token).Scan(&tokens)
	if tokens != 0 {
		t.Error("the token itself is stored")
	}

	// Saved again with its token: the same draft, its new values, under a
	// new token; the one it was saved with is retired.
	again := h.saveDraft("draft", hubclient.DraftRequest{Token: saved.Token, Payload: map[string]any{"name": "Ada L."}, Step: "you"}).draftSaved(t)
	if again.Token == saved.Token {
		t.Error("saving again answered the same token, want a new one")
	}
	if d, _ := h.draft("draft", again.Token); d.Payload["name"] != "Ada L." || d.Step != "you" || len(d.Attachments) != 0 {
		t.Errorf("draft after saving again: %+v", d)
	}
	if _, err := h.draft("draft", saved.Token); !hubclient.NoDraft(err) {
		t.Errorf("the token saved with, after the save: %v, want 404", err)
	}

	// Another form, or a token the hub never gave, finds nothing.
	for _, tt := range []struct{ slug, token string }{{"apply", saved.Token}, {"draft", "not-a-token"}, {"draft", ""}} {
		if _, err := h.draft(tt.slug, tt.token); !hubclient.NoDraft(err) {
			t.Errorf("draft %q of %s: %v, want 404", tt.token, tt.slug, err)
		}
	}
	h.saveDraft("draft", hubclient.DraftRequest{Token: "not-a-token", Payload: map[string]any{}}).wantError(t, http.StatusNotFound)
	// Not a submission: nothing in the inbox.
	h.wantCount(0)
}

func TestDraftRefusals(t *testing.T) {
	h := newDraftHarness(t, map[string]string{
		"draft":       draftForm,
		"resumable":   `{"fields": [{"name": "name", "type": "text"}], "steps": [{"id": "main", "fields": ["name"]}], "hub": {"resume": true}}`,
		"unresumable": strings.Replace(draftForm, `"hub": {`, `"hub": {"resume": false, `, 1),
	}, func(c *protocol.Config) { c.HostedPages = "https://hub.example/f/" })
	other := h.upload("other", "cv", "cv.pdf", "application/pdf", pdfBody)
	misplaced := h.upload("draft", "cv", "cv.pdf", "application/pdf", pdfBody)
	misplaced.Field = "name"
	for _, tt := range []struct {
		name   string
		slug   string
		req    hubclient.DraftRequest
		status int
		says   string
	}{
		{"a form of one step", "contact", hubclient.DraftRequest{Payload: map[string]any{"name": "Ada"}}, http.StatusNotFound, "keeps no drafts"},
		{"a field the form has not", "draft", hubclient.DraftRequest{Payload: map[string]any{"nope": "x"}}, http.StatusUnprocessableEntity, "does not match"},
		{"a step the form has not", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Step: "nope"}, http.StatusUnprocessableEntity, "not a step"},
		{"a file in a field for text", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{misplaced}}, http.StatusUnprocessableEntity, "does not match"},
		{"a file of another form", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{other}}, http.StatusUnprocessableEntity, "not issued for this form"},
		{"an address that is none", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada", ResumeURL: "https://app.example/apply"}, http.StatusUnprocessableEntity, "does not match"},
		{"an address with a name", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "Ada <ada@example.com>", ResumeURL: "https://app.example/apply"}, http.StatusUnprocessableEntity, "does not match"},
		{"a link without a page", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com"}, http.StatusUnprocessableEntity, "resumeUrl"},
		{"a link elsewhere", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com", ResumeURL: "https://evil.example/apply"}, http.StatusUnprocessableEntity, "resumeUrl"},
		{"a link to another form's page", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com", ResumeURL: "https://hub.example/f/acme/contact"}, http.StatusUnprocessableEntity, "resumeUrl"},
		{"a link that is no web page", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com", ResumeURL: "javascript:alert(1)"}, http.StatusUnprocessableEntity, "resumeUrl"},
		{"a link with a password", "draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com", ResumeURL: "https://u:p@app.example/x"}, http.StatusUnprocessableEntity, "resumeUrl"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := h.saveDraft(tt.slug, tt.req).wantError(t, tt.status)
			if !strings.Contains(a.Error, tt.says) {
				t.Errorf("error %q, want it to say %q", a.Error, tt.says)
			}
		})
	}
	var drafts int
	h.DB.Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM drafts`).Scan(&drafts)
	if drafts != 0 {
		t.Errorf("%d drafts stored from refused saves", drafts)
	}
	// The links the hub mails: to an allowed origin, or to the form's page
	// on the hub. Without a mailer none is sent, and the draft is saved.
	for _, page := range []string{"https://app.example/apply?step=2", "https://hub.example/f/acme/draft"} {
		if d := h.saveDraft("draft", hubclient.DraftRequest{Payload: map[string]any{}, Email: "ada@example.com", ResumeURL: page}).draftSaved(t); d.Mailed {
			t.Errorf("link to %s mailed by a hub that has no mailer", page)
		}
	}
	// A form whose settings turn drafts on keeps them with one step.
	h.saveDraft("resumable", hubclient.DraftRequest{Payload: map[string]any{"name": "Ada"}}).draftSaved(t)
	h.saveDraft("unresumable", hubclient.DraftRequest{Payload: map[string]any{}}).wantError(t, http.StatusNotFound)
}

func TestDraftFinishedBySubmission(t *testing.T) {
	h := newDraftHarness(t, map[string]string{"draft": draftForm})
	ctx := context.Background()
	cv := h.upload("draft", "cv", "cv.pdf", "application/pdf", pdfBody)
	dropped := h.upload("draft", "cv", "old.pdf", "application/pdf", pdfBody)
	saved := h.saveDraft("draft", hubclient.DraftRequest{Payload: map[string]any{"name": "Ada"}, Attachments: []hubclient.Attachment{cv, dropped}}).draftSaved(t)
	// A refused submission leaves the draft.
	h.submit("draft", hubclient.SubmitRequest{Payload: map[string]any{}, Draft: saved.Token}).wantError(t, http.StatusUnprocessableEntity)
	if _, err := h.draft("draft", saved.Token); err != nil {
		t.Fatalf("draft after a refused submission: %v", err)
	}
	h.submit("draft", hubclient.SubmitRequest{Payload: map[string]any{"name": "Ada"}, Attachments: []hubclient.Attachment{cv}, Draft: saved.Token}).wantOK(t)
	if _, err := h.draft("draft", saved.Token); !hubclient.NoDraft(err) {
		t.Errorf("draft after its submission: %v, want gone", err)
	}
	h.wantCount(1)
	// The file the submission left out is the sweep's again; the one it
	// took is the submission's.
	h.clock.Add(25 * time.Hour)
	if n, err := h.Protocol.Sweep(ctx, 24*time.Hour); err != nil || n != 1 {
		t.Errorf("Sweep: %d, %v; want 1", n, err)
	}
	h.wantNoFile(dropped.Key)
	h.File(cv.Key)
}

func TestDraftsExpire(t *testing.T) {
	h := newDraftHarness(t, map[string]string{"draft": strings.Replace(draftForm, `"hub": {`, `"hub": {"draftDays": 2, `, 1)})
	ctx := context.Background()
	cv := h.upload("draft", "cv", "cv.pdf", "application/pdf", pdfBody)
	saved := h.saveDraft("draft", hubclient.DraftRequest{Payload: map[string]any{"name": "Ada"}, Attachments: []hubclient.Attachment{cv}}).draftSaved(t)
	if want := h.clock.Now().Add(48 * time.Hour); saved.ExpiresAt.Sub(want).Abs() > time.Millisecond {
		t.Errorf("expires at %v, want in two days, %v", saved.ExpiresAt, want)
	}
	// A day and more on, the upload is older than the sweep's ttl but the
	// draft holds it.
	h.clock.Add(25 * time.Hour)
	if n, err := h.Protocol.Sweep(ctx, 24*time.Hour); err != nil || n != 0 {
		t.Errorf("Sweep while the draft lives: %d, %v; want 0", n, err)
	}
	h.File(cv.Key)
	if _, err := h.draft("draft", saved.Token); err != nil {
		t.Fatalf("draft a day on: %v", err)
	}
	// Past its two days it is gone, and its file with it.
	h.clock.Add(24 * time.Hour)
	if _, err := h.draft("draft", saved.Token); !hubclient.NoDraft(err) {
		t.Errorf("draft past its days: %v, want gone", err)
	}
	h.saveDraft("draft", hubclient.DraftRequest{Token: saved.Token, Payload: map[string]any{}}).wantError(t, http.StatusNotFound)
	if n, err := h.Protocol.Sweep(ctx, 24*time.Hour); err != nil || n != 1 {
		t.Errorf("Sweep past the draft's days: %d, %v; want its file", n, err)
	}
	h.wantNoFile(cv.Key)
	var drafts int
	h.DB.Reader().QueryRowContext(ctx, `SELECT count(*) FROM drafts`).Scan(&drafts)
	if drafts != 0 {
		t.Errorf("%d drafts left after the sweep", drafts)
	}
	if _, err := h.DB.Upload(ctx, cv.Key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("upload record after the sweep: %v", err)
	}
}

func TestDraftDaysChecked(t *testing.T) {
	for _, days := range []string{"400", "-1"} {
		_, err := formsource.Parse("acme", "bad", []byte(strings.Replace(draftForm, `"hub": {`, `"hub": {"draftDays": `+days+`, `, 1)))
		if err == nil || !strings.Contains(err.Error(), "hub.draftDays") {
			t.Errorf("a form keeping drafts %s days: %v, want refused", days, err)
		}
	}
}
