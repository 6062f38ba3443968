package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// validContact is a payload the contact form accepts.
func validContact() map[string]any {
	return map[string]any{"name": "Jane", "email": "jane@example.com"}
}

func TestSubmitBodyRefusals(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.MaxBodyBytes = 1024 })
	const json = "Content-Type: application/json"
	big := `{"payload":{"name":"Jane","email":"jane@example.com","message":"` + strings.Repeat("x", 2048) + `"}}`
	tests := []struct {
		name, body, contentType string
		status                  int
	}{
		// PROTOCOL.md §4 rule 1: a native form POST.
		{"form-encoded", "payload%5Bname%5D=Jane&email=jane%40example.com", "Content-Type: application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"multipart", "--x\r\n\r\n--x--", "Content-Type: multipart/form-data; boundary=x", http.StatusUnsupportedMediaType},
		{"text", `{"payload":{"name":"Jane","email":"jane@example.com"}}`, "Content-Type: text/plain", http.StatusUnsupportedMediaType},
		{"no content type", `{"payload":{"name":"Jane","email":"jane@example.com"}}`, "X-None: 1", http.StatusUnsupportedMediaType},
		{"too large", big, json, http.StatusRequestEntityTooLarge},
		{"malformed", `{"payload":{"name":"Jane"`, json, http.StatusBadRequest},
		{"trailing garbage", `{"payload":{}} x`, json, http.StatusBadRequest},
		{"empty", ``, json, http.StatusBadRequest},
		{"no payload", `{"name":"Jane"}`, json, http.StatusBadRequest},
		{"payload null", `{"payload":null}`, json, http.StatusBadRequest},
		{"payload array", `{"payload":["Jane"]}`, json, http.StatusBadRequest},
		{"payload string", `{"payload":"name=Jane"}`, json, http.StatusBadRequest},
		{"body array", `[{"payload":{}}]`, json, http.StatusBadRequest},
		{"body null", `null`, json, http.StatusBadRequest},
		{"attachments not a list", `{"payload":{"name":"Jane","email":"jane@example.com"},"attachments":{}}`, json, http.StatusBadRequest},
		{"honeypot not a string", `{"payload":{"name":"Jane","email":"jane@example.com"},"_hp":1}`, json, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.do(http.MethodPost, "/v1/acme/contact/submit", tt.body, tt.contentType)
			res.wantError(t, tt.status)
			if cc := res.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
		})
	}
	h.wantCount(0)

	// A body just within the limit is taken.
	fits := `{"payload":{"name":"Jane","email":"jane@example.com","message":"` + strings.Repeat("x", 900) + `"}}`
	h.do(http.MethodPost, "/v1/acme/contact/submit", fits, json).wantOK(t)
	h.wantCount(1)
}

func TestSubmitUnknownForm(t *testing.T) {
	h := newHarness(t)
	for _, target := range []string{"/v1/acme/nope/submit", "/v1/nobody/contact/submit", "/v1/acme/.x/submit", "/v1/acme/contact.json/submit"} {
		h.do(http.MethodPost, target, `{"payload":{}}`, "Content-Type: application/json").wantError(t, http.StatusNotFound)
	}
}

func TestHoneypot(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"_hp", `{"payload":{"name":"Jane","email":"jane@example.com"},"_hp":"http://spam.example"}`},
		{"_hp_x", `{"payload":{"name":"Jane","email":"jane@example.com"},"_hp_x":"bot"}`},
		{"blank", `{"payload":{"name":"Jane","email":"jane@example.com"},"_hp":" "}`},
		{"in payload", `{"payload":{"name":"Jane","email":"jane@example.com","_hp":"bot"}}`},
		{"invalid submission", `{"payload":{"nope":1},"_hp":"bot"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			res := h.do(http.MethodPost, "/v1/acme/contact/submit", tt.body, "Content-Type: application/json")
			a := res.wantOK(t)
			if a.SubmissionID != "" || a.Error != "" {
				t.Errorf("answer %s, want only ok true", res.body)
			}
			h.wantCount(0)
		})
	}
}

func TestHoneypotEmptyIsStored(t *testing.T) {
	h := newHarness(t)
	payload := validContact()
	payload["_hp"] = ""
	payload["_hp_other"] = ""
	res := h.submit("contact", hubclient.SubmitRequest{
		Payload:   payload,
		Honeypots: map[string]string{"_hp": "", "_hp_x": ""},
	})
	a := res.wantOK(t)
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored, want 1", len(subs))
	}
	if subs[0].ID != a.SubmissionID {
		t.Errorf("stored id %s, answered %s", subs[0].ID, a.SubmissionID)
	}
	if bytes.Contains(subs[0].Payload, []byte("_hp")) {
		t.Errorf("stored payload %s holds a honeypot", subs[0].Payload)
	}
	wantPayload(t, subs[0].Payload, validContact())
}

func wantPayload(t *testing.T, got json.RawMessage, want map[string]any) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("stored payload %s: %v", got, err)
	}
	// Round-trip want, so that numbers compare as JSON numbers.
	var w map[string]any
	if err := json.Unmarshal(mustJSON(t, want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, w) {
		t.Errorf("stored payload %s, want %s", got, mustJSON(t, w))
	}
}

func TestSubmitFieldRefusals(t *testing.T) {
	h := newHarness(t)
	with := func(changes map[string]any) map[string]any {
		p := validContact()
		for k, v := range changes {
			if v == nil {
				delete(p, k)
				continue
			}
			p[k] = v
		}
		return p
	}
	tests := []struct {
		name    string
		payload map[string]any
		want    []string // fields named in the answer
	}{
		{"required missing", with(map[string]any{"name": nil}), []string{"name"}},
		{"required blank", with(map[string]any{"name": "  "}), []string{"name"}},
		{"all required missing", map[string]any{}, []string{"email", "name"}},
		{"unknown field", with(map[string]any{"nickname": "J"}), []string{"nickname"}},
		{"email", with(map[string]any{"email": "jane"}), []string{"email"}},
		{"email with name", with(map[string]any{"email": "Jane <jane@example.com>"}), []string{"email"}},
		{"email without dot", with(map[string]any{"email": "jane@localhost"}), []string{"email"}},
		{"email not text", with(map[string]any{"email": 1}), []string{"email"}},
		{"url", with(map[string]any{"website": "example.com"}), []string{"website"}},
		{"url scheme", with(map[string]any{"website": "javascript:alert(1)"}), []string{"website"}},
		{"url no host", with(map[string]any{"website": "https://"}), []string{"website"}},
		{"number", with(map[string]any{"age": "forty"}), []string{"age"}},
		{"number NaN", with(map[string]any{"age": "NaN"}), []string{"age"}},
		{"number infinite", with(map[string]any{"age": "1e999"}), []string{"age"}},
		{"number bool", with(map[string]any{"age": true}), []string{"age"}},
		{"date", with(map[string]any{"born": "21/11/2026"}), []string{"born"}},
		{"date impossible", with(map[string]any{"born": "2026-02-30"}), []string{"born"}},
		{"tel", with(map[string]any{"phone": "call me"}), []string{"phone"}},
		{"tel short", with(map[string]any{"phone": "12"}), []string{"phone"}},
		{"select", with(map[string]any{"color": "blue"}), []string{"color"}},
		{"select label", with(map[string]any{"color": "Red"}), []string{"color"}},
		{"select list", with(map[string]any{"color": []any{"red"}}), []string{"color"}},
		{"radio", with(map[string]any{"size": "xl"}), []string{"size"}},
		{"checkboxes", with(map[string]any{"toppings": []any{"ham", "pineapple"}}), []string{"toppings"}},
		{"checkboxes twice", with(map[string]any{"toppings": []any{"ham", "ham"}}), []string{"toppings"}},
		{"checkboxes not text", with(map[string]any{"toppings": []any{1}}), []string{"toppings"}},
		{"checkbox not boolean", with(map[string]any{"agree": "yes"}), []string{"agree"}},
		{"checkbox number", with(map[string]any{"agree": 1}), []string{"agree"}},
		{"text too long", with(map[string]any{"name": strings.Repeat("é", 2001)}), []string{"name"}},
		{"textarea too long", with(map[string]any{"message": strings.Repeat("x", 20001)}), []string{"message"}},
		{"text not text", with(map[string]any{"name": map[string]any{"first": "Jane"}}), []string{"name"}},
		{"several", with(map[string]any{"email": "x", "born": "x", "nope": "x"}), []string{"born", "email", "nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.submit("contact", hubclient.SubmitRequest{Payload: tt.payload})
			a := res.wantError(t, http.StatusUnprocessableEntity)
			if got := slices.Sorted(maps.Keys(a.Fields)); !slices.Equal(got, tt.want) {
				t.Errorf("fields %v, want messages for %v; body %s", a.Fields, tt.want, res.body)
			}
			for name, msg := range a.Fields {
				if msg == "" {
					t.Errorf("field %s: empty message", name)
				}
			}
		})
	}
	h.wantCount(0)
}

func TestSubmitValidValues(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name    string
		changes map[string]any
	}{
		{"required only", nil},
		{"every field", map[string]any{
			"phone": "+49 (0)30 123-456", "website": "https://example.com/a?b=c", "age": 42,
			"message": "Hello\nthere", "color": "red", "size": "m", "toppings": []any{"ham", "egg"},
			"agree": true, "born": "2000-02-29", "ref": "newsletter",
		}},
		{"http url", map[string]any{"website": "http://example.com"}},
		{"number as text", map[string]any{"age": " 3.5 "}},
		{"negative number", map[string]any{"age": -1e3}},
		{"zero", map[string]any{"age": 0}},
		{"one checkbox as text", map[string]any{"toppings": "egg"}},
		{"no checkboxes", map[string]any{"toppings": []any{}}},
		{"checkbox unchecked", map[string]any{"agree": false}},
		{"checkbox as text", map[string]any{"agree": "true"}},
		{"checkbox on", map[string]any{"agree": "on"}},
		{"checkbox false as text", map[string]any{"agree": "false"}},
		{"empty optional values", map[string]any{"phone": "", "website": "", "age": "", "born": "", "color": "", "agree": nil}},
		{"null optional values", map[string]any{"phone": nil, "age": nil}},
		{"longest text", map[string]any{"name": strings.Repeat("é", 2000)}},
		{"longest textarea", map[string]any{"message": strings.Repeat("x", 20000)}},
		{"unicode email", map[string]any{"email": "jane.doe+tag@sub.example.co.uk"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validContact()
			for k, v := range tt.changes {
				p[k] = v
			}
			before := h.count()
			res := h.submit("contact", hubclient.SubmitRequest{Payload: p})
			a := res.wantOK(t)
			if a.SubmissionID == "" {
				t.Errorf("answer %s has no submissionId", res.body)
			}
			if got := h.count(); got != before+1 {
				t.Errorf("%d submissions stored, want %d", got, before+1)
			}
		})
	}
}

func TestSubmissionStored(t *testing.T) {
	h := newHarness(t)
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	h.clock.Set(at)
	payload := validContact()
	payload["toppings"] = []any{"egg"}
	payload["age"] = 7
	res := h.submit("contact", hubclient.SubmitRequest{Payload: payload}, "User-Agent: Mozilla/5.0 (test)")
	a := res.wantOK(t)
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored, want 1", len(subs))
	}
	s := subs[0]
	if s.ID != a.SubmissionID || len(s.ID) != 26 {
		t.Errorf("stored id %q, answered %q, want the same 26 characters", s.ID, a.SubmissionID)
	}
	if s.Site != "acme" || s.Slug != "contact" {
		t.Errorf("stored for %s/%s, want acme/contact", s.Site, s.Slug)
	}
	if !s.CreatedAt.Equal(at) {
		t.Errorf("stored at %v, want %v (the hub's clock)", s.CreatedAt, at)
	}
	if s.ClientAddr != "127.0.0.1" {
		t.Errorf("client address %q, want 127.0.0.1", s.ClientAddr)
	}
	if s.UserAgent != "Mozilla/5.0 (test)" {
		t.Errorf("user agent %q, want Mozilla/5.0 (test)", s.UserAgent)
	}
	if s.Attachments == nil || len(s.Attachments) != 0 {
		t.Errorf("attachments %v, want an empty list", s.Attachments)
	}
	wantPayload(t, s.Payload, payload)

	// A long user agent is cut.
	h.submit("contact", hubclient.SubmitRequest{Payload: validContact()}, "User-Agent: "+strings.Repeat("a", 600)).wantOK(t)
	for _, s := range h.Submissions() {
		if s.ID != a.SubmissionID && len(s.UserAgent) != 512 {
			t.Errorf("long user agent stored as %d bytes, want 512", len(s.UserAgent))
		}
	}
}

func TestSubmitWithClient(t *testing.T) {
	h := newHarness(t)
	sub := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: h.client.HubURL, SiteID: "acme", FormSlug: "contact", UserAgent: "hub-test/1"})
	res, err := sub.OnSubmit(context.Background(), map[string]any{"name": "Jane", "email": "jane@example.com", "_hp": ""})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.SubmissionID == "" {
		t.Errorf("answer %+v, want ok and an id", res)
	}
	subs := h.Submissions()
	if len(subs) != 1 || subs[0].UserAgent != "hub-test/1" {
		t.Fatalf("stored %+v, want one submission from hub-test/1", subs)
	}

	// A refusal reaches the client with its fields.
	_, err = sub.OnSubmit(context.Background(), map[string]any{"name": "Jane", "email": "nope"})
	var he *hubclient.HubError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnprocessableEntity || he.Fields["email"] == "" {
		t.Errorf("error %v, want a 422 naming email", err)
	}
}

// Captcha

func TestCaptcha(t *testing.T) {
	sv := newSiteverify(t, `{"success":true}`)
	h := newHarness(t, withCaptcha(sv.srv.URL))
	res := h.submit("turnstile", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "token-1"})
	res.wantOK(t)
	got := sv.received()
	if len(got) != 1 {
		t.Fatalf("siteverify asked %d times, want once", len(got))
	}
	for name, want := range map[string]string{"secret": "form-secret", "response": "token-1", "remoteip": "127.0.0.1"} {
		if v := got[0].Get(name); v != want {
			t.Errorf("siteverify got %s %q, want %q", name, v, want)
		}
	}
	h.wantCount(1)
}

func TestCaptchaDefaultSecret(t *testing.T) {
	sv := newSiteverify(t, `{"success":true}`)
	h := newHarness(t, withCaptcha(sv.srv.URL), func(c *protocol.Config) {
		c.CaptchaSecrets = map[string]string{"turnstile": "hub-secret", "recaptcha-v3": "other"}
	})
	h.submit("turnstile-default", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "t"}).wantOK(t)
	// The form's own secret wins over the hub's.
	h.submit("turnstile", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "t"}).wantOK(t)
	got := sv.received()
	if len(got) != 2 || got[0].Get("secret") != "hub-secret" || got[1].Get("secret") != "form-secret" {
		t.Errorf("siteverify got %v, want secrets hub-secret then form-secret", got)
	}
}

func TestCaptchaRefusals(t *testing.T) {
	tests := []struct {
		name     string
		slug     string
		answer   string
		status   int    // the stand-in's status; zero means 200
		endpoint string // "closed" for a port nothing listens on
		secrets  map[string]string
		noVerify bool // no Config.Captcha
		token    string
		want     int
	}{
		{name: "token missing", slug: "turnstile", answer: `{"success":true}`, want: http.StatusBadRequest},
		{name: "refused", slug: "turnstile", answer: `{"success":false,"error-codes":["invalid-input-response"]}`, token: "t", want: http.StatusForbidden},
		{name: "expired", slug: "turnstile", answer: `{"success":false,"error-codes":["timeout-or-duplicate"]}`, token: "t", want: http.StatusForbidden},
		{name: "unreachable", slug: "turnstile", endpoint: "closed", token: "t", want: http.StatusServiceUnavailable},
		{name: "provider fails", slug: "turnstile", answer: `{"success":true}`, status: http.StatusInternalServerError, token: "t", want: http.StatusServiceUnavailable},
		{name: "not JSON", slug: "turnstile", answer: `<html>`, token: "t", want: http.StatusServiceUnavailable},
		{name: "bad secret", slug: "turnstile", answer: `{"success":false,"error-codes":["invalid-input-secret"]}`, token: "t", want: http.StatusServiceUnavailable},
		{name: "low score", slug: "recaptcha", answer: `{"success":true,"score":0.6}`, token: "t", want: http.StatusForbidden},
		{name: "no score", slug: "recaptcha", answer: `{"success":true}`, token: "t", want: http.StatusServiceUnavailable},
		{name: "no secret anywhere", slug: "turnstile-default", answer: `{"success":true}`, token: "t", want: http.StatusServiceUnavailable},
		{name: "secret for the other provider", slug: "turnstile-default", answer: `{"success":true}`, secrets: map[string]string{"recaptcha-v3": "x"}, token: "t", want: http.StatusServiceUnavailable},
		{name: "no verifier", slug: "turnstile", noVerify: true, token: "t", want: http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sv := newSiteverify(t, tt.answer)
			sv.status = tt.status
			endpoint := sv.srv.URL
			if tt.endpoint == "closed" {
				endpoint = closedURL(t)
			}
			h := newHarness(t, func(c *protocol.Config) {
				if !tt.noVerify {
					withCaptcha(endpoint)(c)
				}
				c.CaptchaSecrets = tt.secrets
			})
			res := h.submit(tt.slug, hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: tt.token})
			res.wantError(t, tt.want)
			h.wantCount(0)
		})
	}
}

func TestCaptchaScore(t *testing.T) {
	sv := newSiteverify(t, `{"success":true,"score":0.7}`)
	h := newHarness(t, withCaptcha(sv.srv.URL))
	h.submit("recaptcha", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "t"}).wantOK(t)
	if got := sv.received(); len(got) != 1 || got[0].Get("secret") != "recaptcha-secret" {
		t.Errorf("siteverify got %v, want the form's reCAPTCHA secret", got)
	}
}

// TestCaptchaAfterCheapChecks checks that an invalid submission is refused
// without spending the token.
func TestCaptchaAfterCheapChecks(t *testing.T) {
	sv := newSiteverify(t, `{"success":true}`)
	h := newHarness(t, withCaptcha(sv.srv.URL))
	h.submit("turnstile", hubclient.SubmitRequest{Payload: map[string]any{"nope": "x"}, CaptchaToken: "t"}).
		wantError(t, http.StatusUnprocessableEntity)
	h.submit("turnstile", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, CaptchaToken: "t", Honeypots: map[string]string{"_hp": "bot"}}).
		wantOK(t)
	if got := sv.received(); len(got) != 0 {
		t.Errorf("siteverify asked %d times, want never", len(got))
	}
	h.wantCount(0)
}

// Attachments

var (
	pdfBody = []byte("%PDF-1.4 a small document")
	pngBody = []byte("\x89PNG\r\n\x1a\n a small image")
)

func TestAttachments(t *testing.T) {
	h := newHarness(t)
	sub := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: h.client.HubURL, SiteID: "acme", FormSlug: "apply"})
	res, err := sub.OnSubmit(context.Background(), map[string]any{
		"name":   "Jane",
		"cv":     fileOf("My CV.pdf", "application/pdf", pdfBody),
		"photos": []hubclient.File{fileOf("me.png", "image/png", pngBody)},
	})
	if err != nil {
		t.Fatal(err)
	}
	subs := h.Submissions()
	if len(subs) != 1 || subs[0].ID != res.SubmissionID {
		t.Fatalf("stored %+v, want the one submission %s", subs, res.SubmissionID)
	}
	atts := subs[0].Attachments
	if len(atts) != 2 {
		t.Fatalf("stored attachments %+v, want 2", atts)
	}
	slices.SortFunc(atts, func(a, b hubclient.Attachment) int { return strings.Compare(a.Field, b.Field) })
	for i, want := range []struct {
		field, filename, mime string
		body                  []byte
	}{
		{"cv", "My CV.pdf", "application/pdf", pdfBody},
		{"photos", "me.png", "image/png", pngBody},
	} {
		a := atts[i]
		if a.Field != want.field || a.Filename != want.filename || a.MIME != want.mime || a.Size != int64(len(want.body)) {
			t.Errorf("attachment %d: %+v, want field %s, filename %q, %s of %d bytes", i, a, want.field, want.filename, want.mime, len(want.body))
		}
		if !keyPattern.MatchString(a.Key) {
			t.Errorf("attachment %d: key %q", i, a.Key)
		}
		if got := h.File(a.Key); !bytes.Equal(got, want.body) {
			t.Errorf("attachment %d: stored %q, want %q", i, got, want.body)
		}
	}
	wantPayload(t, subs[0].Payload, map[string]any{"name": "Jane"})
}

// TestAttachmentFilename checks that the stored name is the one recorded
// with the upload, not one the submission claims.
func TestAttachmentFilename(t *testing.T) {
	h := newHarness(t)
	a := h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)
	a.Filename = "../../evil.exe"
	h.submit("apply", hubclient.SubmitRequest{Attachments: []hubclient.Attachment{a}}).wantOK(t)
	if subs := h.Submissions(); len(subs) != 1 || subs[0].Attachments[0].Filename != "cv.pdf" {
		t.Errorf("stored %+v, want the recorded filename cv.pdf", subs)
	}
}

func TestAttachmentRefusals(t *testing.T) {
	h := newHarness(t)
	submit := func(atts ...hubclient.Attachment) *response {
		return h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}, Attachments: atts})
	}
	cv := func() hubclient.Attachment { return h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody) }

	t.Run("never issued", func(t *testing.T) {
		a := cv()
		a.Key = "uploads/acme/apply/000000000000000000000000/cv.pdf"
		submit(a).wantError(t, http.StatusUnprocessableEntity)
	})
	t.Run("no key", func(t *testing.T) {
		a := cv()
		a.Key = ""
		submit(a).wantError(t, http.StatusUnprocessableEntity)
	})
	t.Run("issued for another form", func(t *testing.T) {
		a := h.upload("other", "cv", "cv.pdf", "application/pdf", pdfBody)
		submit(a).wantError(t, http.StatusUnprocessableEntity)
		// It still belongs to its own form.
		h.submit("other", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{a}}).wantOK(t)
	})
	t.Run("never uploaded", func(t *testing.T) {
		u := h.uploadURL("apply", "cv.pdf", "application/pdf", int64(len(pdfBody)))
		a := hubclient.Attachment{Key: u.Key, Filename: "cv.pdf", Size: int64(len(pdfBody)), MIME: "application/pdf", Field: "cv"}
		submit(a).wantError(t, http.StatusUnprocessableEntity)
		// Uploaded, it is taken.
		h.put(u.UploadURL, "application/pdf", pdfBody).wantStatus(t, http.StatusOK)
		submit(a).wantOK(t)
	})
	t.Run("other size", func(t *testing.T) {
		a := cv()
		a.Size++
		submit(a).wantError(t, http.StatusUnprocessableEntity)
	})
	t.Run("other type", func(t *testing.T) {
		a := cv()
		a.MIME = "image/png"
		submit(a).wantError(t, http.StatusUnprocessableEntity)
	})
	t.Run("claimed twice", func(t *testing.T) {
		a := cv()
		submit(a).wantOK(t)
		before := h.count()
		submit(a).wantError(t, http.StatusUnprocessableEntity)
		if got := h.count(); got != before {
			t.Errorf("%d submissions stored, want %d", got, before)
		}
	})
	t.Run("listed twice", func(t *testing.T) {
		a := cv()
		b := a
		b.Field = "photos"
		submit(a, b).wantError(t, http.StatusUnprocessableEntity)
	})
	t.Run("too many", func(t *testing.T) {
		atts := []hubclient.Attachment{cv()}
		for range 3 {
			atts = append(atts, h.upload("apply", "photos", "p.png", "image/png", pngBody))
		}
		before := h.count()
		submit(atts...).wantError(t, http.StatusUnprocessableEntity)
		if got := h.count(); got != before {
			t.Errorf("%d submissions stored, want %d", got, before)
		}
		// Three of them are within the limit.
		submit(atts[:3]...).wantOK(t)
	})

	before := h.count()
	for _, tt := range []struct {
		name  string
		body  hubclient.SubmitRequest
		field string
	}{
		{"file in payload", hubclient.SubmitRequest{Payload: map[string]any{"cv": `C:\fakepath\cv.pdf`}}, "cv"},
		{"required file missing", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}}, "cv"},
		{"two files for one", hubclient.SubmitRequest{Attachments: []hubclient.Attachment{
			{Key: "uploads/acme/apply/000000000000000000000001/a.pdf", Filename: "a.pdf", Size: 1, MIME: "application/pdf", Field: "cv"},
			{Key: "uploads/acme/apply/000000000000000000000002/b.pdf", Filename: "b.pdf", Size: 1, MIME: "application/pdf", Field: "cv"},
		}}, "cv"},
		{"file for a text field", hubclient.SubmitRequest{Attachments: []hubclient.Attachment{
			{Key: "uploads/acme/apply/000000000000000000000001/a.pdf", Filename: "a.pdf", Size: 1, MIME: "application/pdf", Field: "name"},
		}}, "name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := h.submit("apply", tt.body).wantError(t, http.StatusUnprocessableEntity)
			if a.Fields[tt.field] == "" {
				t.Errorf("fields %v, want a message for %s", a.Fields, tt.field)
			}
		})
	}
	if got := h.count(); got != before {
		t.Errorf("%d submissions stored, want %d", got, before)
	}
}

// TestAttachmentsAndCaptchaFailure checks that a submission the captcha
// stops claims none of its uploads.
func TestAttachmentsAndCaptchaFailure(t *testing.T) {
	sv := newSiteverify(t, `{"success":false}`)
	h := newHarness(t, withCaptcha(sv.srv.URL))
	h.WriteForm("acme", "guarded", `{
  "fields": [{"name": "cv", "type": "file"}],
  "steps": [{"id": "main", "fields": ["cv"]}],
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "k"},
  "hub": {"captchaSecret": "s"}
}`)
	a := h.upload("guarded", "cv", "cv.pdf", "application/pdf", pdfBody)
	h.submit("guarded", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{a}, CaptchaToken: "t"}).
		wantError(t, http.StatusForbidden)
	sv.mu.Lock()
	sv.answer = `{"success":true}`
	sv.mu.Unlock()
	h.submit("guarded", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{a}, CaptchaToken: "t"}).wantOK(t)
}

// TestSubmitTallies: a submission is stored with what it adds to its
// form's summary, its answers counted by field name.
func TestSubmitTallies(t *testing.T) {
	h := newHarness(t)
	h.submit("contact", hubclient.SubmitRequest{Payload: validContact()}).wantOK(t)
	counts, err := h.DB.AnswerCounts(context.Background(), "acme", "contact", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, c := range counts {
		got[c.Field+"/"+c.Answer] = c.N
	}
	if got["/"] != 1 || got["email/"] != 1 {
		t.Errorf("answer counts %v, want the submission and its e-mail address counted", got)
	}
}

// TestSubmitWithoutSummary: a store that keeps no summary is given no
// tallies to store, the hub's cost of them spared.
func TestSubmitWithoutSummary(t *testing.T) {
	var store *talliesSeen
	h := newHarness(t, func(c *protocol.Config) {
		store = &talliesSeen{Store: c.Store}
		c.Store = store
	})
	h.submit("contact", hubclient.SubmitRequest{Payload: validContact()}).wantOK(t)
	if store.n != 1 || store.tallies != "" {
		t.Errorf("%d submissions stored, with tallies %q; want one, with none", store.n, store.tallies)
	}
}

// talliesSeen is a store that keeps no summary, and records the tallies
// it was given.
type talliesSeen struct {
	hub.Store
	n       int
	tallies string
}

func (s *talliesSeen) CreateSubmission(ctx context.Context, sub hub.Submission) error {
	s.n++
	s.tallies += sub.Tallies
	return s.Store.CreateSubmission(ctx, sub)
}
