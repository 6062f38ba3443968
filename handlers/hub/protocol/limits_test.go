package protocol_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// closesAt is when closingForm closes.
var closesAt = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// Forms with limits, written beside testForms by newLimitsHarness.
const (
	// closingForm closes at closesAt.
	closingForm = `{
  "fields": [{"name": "name", "type": "text", "required": true}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"},
  "hub": {"closesAt": "2030-01-01T00:00:00Z"}
}`
	// limitedForm takes two submissions.
	limitedForm = `{
  "fields": [{"name": "name", "type": "text", "required": true}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "hub": {"maxSubmissions": 2}
}`
	// uniqueForm takes one submission per address, per member number and
	// per reference; the reference may be left out.
	uniqueForm = `{
  "fields": [
    {"name": "email", "type": "email", "label": "Email", "required": true},
    {"name": "member", "type": "number", "label": "Member number"},
    {"name": "ref", "type": "hidden"},
    {"name": "note", "type": "text"}
  ],
  "steps": [{"id": "main", "fields": ["email", "member", "note"]}],
  "hub": {"uniqueFields": ["email", "member", "ref"]}
}`
)

// newLimitsHarness is newHarness serving the forms with limits too, its
// clock an hour before closesAt.
func newLimitsHarness(t *testing.T, options ...func(*protocol.Config)) *harness {
	t.Helper()
	h := newHarnessWithForms(t, func(dir string) {
		for slug, form := range map[string]string{"closing": closingForm, "limited": limitedForm, "unique": uniqueForm} {
			writeFile(t, filepath.Join(dir, "acme", slug+".json"), form)
		}
	}, options...)
	h.clock.Set(closesAt.Add(-time.Hour))
	return h
}

// wantClosed checks that res is the protocol's answer for a closed form,
// to the byte's meaning: 403 {"ok": false, "error": "closed"} and nothing
// else.
func (res *response) wantClosed(t *testing.T) {
	t.Helper()
	res.wantStatus(t, http.StatusForbidden)
	var got map[string]any
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatalf("body %s: %v", res.body, err)
	}
	if want := map[string]any{"ok": false, "error": "closed"}; !reflect.DeepEqual(got, want) {
		t.Errorf("body %s, want {\"ok\": false, \"error\": \"closed\"}", res.body)
	}
}

// schema fetches form slug's schema, sending If-None-Match when etag is
// set.
func (h *harness) schema(slug, etag string) *response {
	h.t.Helper()
	var headers []string
	if etag != "" {
		headers = append(headers, "If-None-Match: "+etag)
	}
	return h.do(http.MethodGet, "/v1/acme/"+slug+".json", "", headers...)
}

// decodeSchema returns the schema answered, as generic JSON.
func decodeSchema(t *testing.T, res *response) map[string]any {
	t.Helper()
	res.wantStatus(t, http.StatusOK)
	var m map[string]any
	if err := json.Unmarshal(res.body, &m); err != nil {
		t.Fatalf("schema %s: %v", res.body, err)
	}
	return m
}

// closedMark returns the schema's meta.closed, nil when absent.
func closedMark(schema map[string]any) any {
	meta, _ := schema["meta"].(map[string]any)
	return meta["closed"]
}

// wantClosedSchema checks that closed is open marked closed, and nothing
// more.
func wantClosedSchema(t *testing.T, open, closed map[string]any) {
	t.Helper()
	if closedMark(open) != nil {
		t.Errorf("open schema marks meta.closed: %v", open["meta"])
	}
	if closedMark(closed) != true {
		t.Fatalf("closed schema's meta %v, want closed true", closed["meta"])
	}
	unmarked := maps.Clone(closed)
	meta := maps.Clone(closed["meta"].(map[string]any))
	delete(meta, "closed")
	unmarked["meta"] = meta
	if len(meta) == 0 {
		delete(unmarked, "meta")
	}
	if !reflect.DeepEqual(unmarked, open) {
		t.Errorf("closed schema %v differs from the open one %v beyond meta.closed", closed, open)
	}
}

func TestClosesAt(t *testing.T) {
	h := newLimitsHarness(t)
	// An open form's schema is served as it always was, byte for byte.
	open := h.schema("closing", "")
	openTag := open.header.Get("ETag")
	form, err := formsource.Parse("acme", "closing", []byte(closingForm))
	if err != nil {
		t.Fatal(err)
	}
	if string(open.body) != string(form.JSON) {
		t.Errorf("open schema %s, want the form's JSON %s", open.body, form.JSON)
	}
	if again := h.schema("closing", openTag); again.status != http.StatusNotModified {
		t.Errorf("revalidating the open schema: %d, want 304", again.status)
	}
	h.clock.Set(closesAt.Add(-time.Second))
	if res := h.schema("closing", openTag); res.status != http.StatusNotModified {
		t.Errorf("a second before closing: %d, want 304", res.status)
	}

	h.clock.Set(closesAt)
	// Refused before anything else: neither the payload nor the captcha is
	// looked at.
	h.submit("closing", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}}).wantClosed(t)
	h.submit("closing", hubclient.SubmitRequest{Payload: map[string]any{"nope": 1}}).wantClosed(t)
	h.wantCount(0)

	closed := h.schema("closing", openTag)
	if tag := closed.header.Get("ETag"); tag == "" || tag == openTag {
		t.Errorf("closed schema's ETag %q, want one of its own (open: %q)", tag, openTag)
	}
	wantClosedSchema(t, decodeSchema(t, open), decodeSchema(t, closed))
	if res := h.schema("closing", closed.header.Get("ETag")); res.status != http.StatusNotModified {
		t.Errorf("revalidating the closed schema: %d, want 304", res.status)
	}
}

// unwaryStore is a store whose forms never look full before a submission
// is stored, as when another hub stores the last one meanwhile: the
// store's own check decides.
type unwaryStore struct{ hub.Store }

func (unwaryStore) FormFull(context.Context, string, string, int) (bool, error) { return false, nil }

func TestMaxSubmissions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		options []func(*protocol.Config)
	}{
		{"checked before", nil},
		{"refused by the store", []func(*protocol.Config){func(c *protocol.Config) { c.Store = unwaryStore{c.Store} }}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newLimitsHarness(t, tt.options...)
			open := h.schema("limited", "")
			openTag := open.header.Get("ETag")
			first := h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Ann"}, IdempotencyKey: "ann"}).wantOK(t)
			if res := h.schema("limited", openTag); res.status != http.StatusNotModified {
				t.Errorf("schema with a place left: %d, want 304", res.status)
			}
			h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Bob"}}).wantOK(t)

			h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Cy"}}).wantClosed(t)
			h.wantCount(2)
			// A repeat of a stored submission is told it was received.
			repeat := h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Ann"}, IdempotencyKey: "ann"})
			if a := repeat.wantOK(t); a.SubmissionID != first.SubmissionID {
				t.Errorf("repeat answered %s, want the first id %s", repeat.body, first.SubmissionID)
			}

			if tt.options != nil {
				return // the schema route asks the store's FormFull
			}
			// Refused before its payload is read.
			h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{}}).wantClosed(t)
			closed := h.schema("limited", openTag)
			closedTag := closed.header.Get("ETag")
			if closedTag == "" || closedTag == openTag {
				t.Errorf("full schema's ETag %q, want one of its own (open: %q)", closedTag, openTag)
			}
			wantClosedSchema(t, decodeSchema(t, open), decodeSchema(t, closed))

			// A submission deleted frees a place: the form opens again.
			if _, err := h.DB.DeleteSubmissions(context.Background(), "acme", "limited", []string{first.SubmissionID}); err != nil {
				t.Fatal(err)
			}
			if res := h.schema("limited", closedTag); res.status != http.StatusOK || res.header.Get("ETag") != openTag || string(res.body) != string(open.body) {
				t.Errorf("schema with a place again: %d %s %s, want 200, the open ETag %s and body", res.status, res.header.Get("ETag"), res.body, openTag)
			}
			h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Cy"}}).wantOK(t)
		})
	}
}

func TestMaxSubmissionsRepeatAcrossHubs(t *testing.T) {
	// The first send took the last place on another hub after this one
	// looked for its key: the retry is told it was received, not closed.
	blind := &blindStore{}
	h := newLimitsHarness(t, func(c *protocol.Config) { blind.Store = c.Store; c.Store = blind })
	h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Ann"}}).wantOK(t)
	first := h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Bob"}, IdempotencyKey: "bob"}).wantOK(t)
	blind.misses.Store(1)
	res := h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Bob"}, IdempotencyKey: "bob"})
	if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
		t.Errorf("answered %s, want the first id %s", res.body, first.SubmissionID)
	}
	h.wantCount(2)
}

func TestUniqueFields(t *testing.T) {
	blind := &blindStore{}
	h := newLimitsHarness(t, func(c *protocol.Config) { blind.Store = c.Store; c.Store = blind })
	first := h.submit("unique", hubclient.SubmitRequest{
		Payload: map[string]any{"email": "Jane.Doe@Example.COM", "member": 1.5, "ref": "newsletter"}, IdempotencyKey: "jane",
	}).wantOK(t)

	for _, x := range []struct {
		name    string
		payload map[string]any
		field   string
	}{
		{"the address in another case", map[string]any{"email": "jane.doe@example.com"}, "email"},
		{"the number spelt otherwise", map[string]any{"email": "joe@example.com", "member": "1.50"}, "member"},
		{"the hidden value", map[string]any{"email": "joe@example.com", "ref": " newsletter"}, "ref"},
	} {
		t.Run(x.name, func(t *testing.T) {
			res := h.submit("unique", hubclient.SubmitRequest{Payload: x.payload})
			a := res.wantError(t, http.StatusConflict)
			if len(a.Fields) != 1 || a.Fields[x.field] == "" {
				t.Errorf("fields %v, want an error beside %q", a.Fields, x.field)
			}
			if strings.Contains(string(res.body), "sqlite") || strings.Contains(string(res.body), "unique_values") {
				t.Errorf("answer %s tells of the database", res.body)
			}
		})
	}
	res := h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "JANE.DOE@example.com"}})
	if a := res.wantError(t, http.StatusConflict); !strings.Contains(a.Fields["email"], "e-mail address has already been used") ||
		!strings.Contains(a.Error, "e-mail address") {
		t.Errorf("answer %s, want it to say the address was used", res.body)
	}
	res = h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "joe@example.com", "member": 1.5}})
	if a := res.wantError(t, http.StatusConflict); !strings.Contains(a.Error, "member number") {
		t.Errorf("answer %s, want it to name the member number", res.body)
	}

	// Values left out are not compared: many may leave them out.
	h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "joe@example.com", "ref": "  "}}).wantOK(t)
	h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "ann@example.com", "member": 2}}).wantOK(t)
	h.wantCount(3)

	// A repeat of the first send is told of it, not of a duplicate: found
	// by its key at once, or by the store when another hub stored it
	// meanwhile.
	for _, misses := range []int32{0, 1} {
		blind.misses.Store(misses)
		res := h.submit("unique", hubclient.SubmitRequest{
			Payload: map[string]any{"email": "jane.doe@example.com", "member": 1.5, "ref": "newsletter"}, IdempotencyKey: "jane",
		})
		if a := res.wantOK(t); a.SubmissionID != first.SubmissionID {
			t.Errorf("repeat (%d misses) answered %s, want the first id %s", misses, res.body, first.SubmissionID)
		}
	}
	h.wantCount(3)
}

// TestSpamTakesNoPlace sends a bot's submissions first: kept as spam,
// they take none of a limited form's places and none of a unique field's
// values, so the people after them are not refused.
func TestSpamTakesNoPlace(t *testing.T) {
	h := newLimitsHarness(t)
	bot := &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 0.2}
	for _, name := range []string{"Bot", "Bot", "Bot"} {
		h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": name}, Timing: bot}).wantOK(t)
	}
	h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "jane@example.com", "member": 7}, Timing: bot}).wantOK(t)
	for _, s := range h.Submissions() {
		if !s.Spam || len(s.SpamReasons) == 0 {
			t.Fatalf("the bot's submission %s: spam %v, reasons %q", s.ID, s.Spam, s.SpamReasons)
		}
	}

	h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Ann"}}).wantOK(t)
	h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Bob"}}).wantOK(t)
	h.submit("limited", hubclient.SubmitRequest{Payload: map[string]any{"name": "Cy"}}).wantClosed(t)
	h.submit("unique", hubclient.SubmitRequest{Payload: map[string]any{"email": "jane@example.com", "member": 7}}).wantOK(t)
	h.wantCount(7)
}
