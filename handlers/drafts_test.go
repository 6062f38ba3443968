package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// draftTripForm has two steps and a file; {origin} is replaced by the app's.
const draftTripForm = `{
  "title": "Trip",
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "topics", "type": "checkboxes", "label": "Topics", "options": ["sea", "hills"]},
    {"name": "ticket", "type": "file", "label": "Ticket", "required": true},
    {"name": "city", "type": "text", "label": "City", "required": true}
  ],
  "steps": [{"id": "who", "fields": ["name", "topics", "ticket"]}, {"id": "where", "fields": ["city"]}],
  "hub": {"allowedOrigins": ["{origin}"]}
}`

// draftApp is an Echo app that shows the trip form on its page /trip, as
// a host does with PropsFor, and the hub that keeps its drafts.
type draftApp struct {
	hub *hubtest.Hub
	srv *httptest.Server
	app
}

func newDraftApp(t *testing.T, origin func(appURL string) string) *draftApp {
	t.Helper()
	d := &draftApp{}
	e := echo.New()
	d.srv = httptest.NewServer(e)
	t.Cleanup(d.srv.Close)
	d.hub = hubtest.Start(t, nil)
	d.hub.WriteForm("acme", "trip", strings.ReplaceAll(draftTripForm, "{origin}", origin(d.srv.URL)))
	h := handlers.New(handlers.Config{HubURL: d.hub.URL, Logger: quiet})
	h.Mount(e)
	e.GET("/trip", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(h.PropsFor(c, "acme", "trip")).Render(c.Request().Context(), c.Response())
	})
	d.app = app{hub: d.hub, h: h, srv: d.srv}
	return d
}

// formParts returns the hidden inputs of doc's form as parts of a post.
func formParts(doc *goquery.Document) []part {
	var parts []part
	doc.Find("form[data-hubform-form] input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		value, _ := s.Attr("value")
		parts = append(parts, part{name: name, value: value})
	})
	return parts
}

// without returns parts less those called name.
func without(parts []part, name string) []part {
	var out []part
	for _, p := range parts {
		if p.name != name {
			out = append(out, p)
		}
	}
	return out
}

// TestDraftWithoutJavaScript saves the trip form half filled, as a browser
// without JavaScript posts it, opens the link the page shows, and sends
// the form: the hub has one submission, with the file the draft kept, and
// the draft is gone.
func TestDraftWithoutJavaScript(t *testing.T) {
	d := newDraftApp(t, func(appURL string) string { return appURL })
	_, page := d.get(t, "/trip", false)
	if page.Find("[data-hubform-save-panel]").Length() != 1 {
		t.Fatal("the form of two steps offers no saving")
	}
	if v, _ := page.Find("input[name=" + hubclient.DraftPageField + "]").Attr("value"); v != d.srv.URL+"/trip" {
		t.Errorf("page's address %q, want %q", v, d.srv.URL+"/trip")
	}

	// Saved with an address: the hub has no mailer, so the page shows the
	// link instead of losing it.
	parts := append(formParts(page), part{name: "name", value: "Ada"}, part{name: "topics", value: "sea"}, part{name: "topics", value: "hills"},
		part{name: "ticket", value: "%PDF-1.4 ticket", filename: "ticket.pdf"}, part{name: hubclient.DraftEmailField, value: "ada@example.com"})
	res, saved := d.post(t, "/hubform/acme/trip/save", false, parts...)
	if res.StatusCode != http.StatusOK || saved.Find("[data-hubform-saved]").Length() != 1 {
		t.Fatalf("save: status %d, saved notice %d", res.StatusCode, saved.Find("[data-hubform-saved]").Length())
	}
	link, _ := saved.Find("[data-hubform-saved] a").Attr("href")
	token, _ := saved.Find("input[name=" + hubclient.DraftField + "]").Attr("value")
	if token == "" || !strings.HasPrefix(link, d.srv.URL+"/trip?draft="+token) {
		t.Fatalf("saved: link %q, token %q", link, token)
	}
	if v, _ := saved.Find("input[name=name]").Attr("value"); v != "Ada" {
		t.Errorf("the saved form shows name %q", v)
	}

	// Opened from the link: values, files and token are back.
	_, resumed := d.get(t, strings.TrimPrefix(link, d.srv.URL), false)
	if v, _ := resumed.Find("input[name=name]").Attr("value"); v != "Ada" {
		t.Errorf("resumed name %q, want Ada", v)
	}
	if n := resumed.Find("input[name=topics][checked]").Length(); n != 2 {
		t.Errorf("resumed with %d topics ticked, want 2", n)
	}
	keep := resumed.Find("input[name=" + hubclient.DraftKeepField + "]")
	if keep.Length() != 1 || !strings.Contains(resumed.Find("[data-hubform-kept=ticket]").Text(), "ticket.pdf") {
		t.Fatalf("resumed form keeps %d files: %s", keep.Length(), resumed.Find("[data-hubform-kept]").Text())
	}
	if v, _ := resumed.Find("input[name=" + hubclient.DraftField + "]").Attr("value"); v != token {
		t.Errorf("resumed form carries draft %q, want %q", v, token)
	}
	// The page the next link opens carries no token: the hub would keep it.
	if v, _ := resumed.Find("input[name=" + hubclient.DraftPageField + "]").Attr("value"); v != d.srv.URL+"/trip" {
		t.Errorf("resumed form's page %q, want it without the token", v)
	}

	// Sent: one submission with the kept file, and the draft is finished.
	key, _ := keep.Attr("value")
	res, done := d.post(t, "/hubform/acme/trip/submit", false, append(formParts(resumed),
		part{name: "name", value: "Ada"}, part{name: "city", value: "Oslo"}, part{name: hubclient.DraftKeepField, value: key})...)
	if res.StatusCode != http.StatusOK || done.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("submit: status %d: %s", res.StatusCode, text(done, "[data-hubform-errors], [data-hubform-submit-error]"))
	}
	subs := d.hub.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 || subs[0].Attachments[0].Key != key {
		t.Fatalf("submissions %+v, want one with the kept file", subs)
	}
	if got := string(d.hub.File(key)); got != "%PDF-1.4 ticket" {
		t.Errorf("kept file holds %q", got)
	}
	_, again := d.get(t, strings.TrimPrefix(link, d.srv.URL), false)
	if again.Find("[data-hubform-draft-gone]").Length() != 1 {
		t.Error("the link of a draft sent does not say it is gone")
	}
	if v, _ := again.Find("input[name=name]").Attr("value"); v != "" {
		t.Errorf("a draft sent still fills the form: name %q", v)
	}
}

// TestDraftSaveRefusals covers an address that is none, the script's
// autosave, a file kept that the draft does not hold, and a page the hub
// will not mail links to.
func TestDraftSaveRefusals(t *testing.T) {
	d := newDraftApp(t, func(string) string { return "https://elsewhere.example" })
	_, page := d.get(t, "/trip", false)

	res, doc := d.post(t, "/hubform/acme/trip/save", false, append(formParts(page), part{name: hubclient.DraftEmailField, value: "not an address"})...)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, "[data-hubform-save-panel]") == "" || doc.Find("details[data-hubform-save-panel][open]").Length() != 1 {
		t.Errorf("save with a bad address: status %d, panel %q", res.StatusCode, text(doc, "[data-hubform-save-panel]"))
	}

	// A form that keeps no drafts (turned off since the page was shown)
	// comes back with what was typed.
	d.hub.WriteForm("acme", "single", `{"fields": [{"name": "name", "type": "text"}], "steps": [{"id": "main", "fields": ["name"]}]}`)
	res, doc = d.post(t, "/hubform/acme/single/save", false, part{name: "name", value: "Ada"}, part{name: hubclient.DraftEmailField, value: "ada@example.com"})
	if v, _ := doc.Find("input[name=name]").Attr("value"); res.StatusCode != http.StatusNotFound || v != "Ada" ||
		text(doc, "[data-hubform-save-error]") != components.DefaultTexts["saveFailed"] || doc.Find("[data-hubform-submit-error]").Length() != 0 {
		t.Errorf("save of a form without drafts: status %d, name %q, error %q", res.StatusCode, v, text(doc, "[data-hubform-save-error], [data-hubform-submit-error]"))
	}

	// The hub fails: the form comes back with what was typed, and says so.
	d.hub.FailNext("/drafts", http.StatusServiceUnavailable, "busy")
	res, doc = d.post(t, "/hubform/acme/trip/save", false, append(formParts(page), part{name: "name", value: "Ada"})...)
	if v, _ := doc.Find("input[name=name]").Attr("value"); res.StatusCode != http.StatusBadGateway || v != "Ada" || text(doc, "[data-hubform-save-error]") == "" {
		t.Errorf("save while the hub fails: status %d, name %q, error %q", res.StatusCode, v, text(doc, "[data-hubform-save-error]"))
	}

	// The app's origin is not the form's: saved, not mailed, link shown.
	res, doc = d.post(t, "/hubform/acme/trip/save", false, append(formParts(page), part{name: "name", value: "Ada"}, part{name: hubclient.DraftEmailField, value: "ada@example.com"})...)
	if res.StatusCode != http.StatusOK || doc.Find("[data-hubform-saved] a").Length() != 1 {
		t.Errorf("save for a page the hub does not mail: status %d, notice %q", res.StatusCode, text(doc, "[data-hubform-saved]"))
	}

	// Autosave: JSON with the token, which a second save keeps.
	autosave := func(token string) string {
		body, contentType := multipartBody(t, append(without(formParts(page), hubclient.DraftStepField), part{name: "name", value: "Ada"}, part{name: handlers.AutosaveField, value: "1"},
			part{name: hubclient.DraftField, value: token}, part{name: hubclient.DraftStepField, value: "where"})...)
		req, _ := http.NewRequest(http.MethodPost, d.srv.URL+"/hubform/acme/trip/save", body)
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var a struct{ Token string }
		if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != http.StatusOK || a.Token == "" {
			t.Fatalf("autosave: status %d, %+v, %v", res.StatusCode, a, err)
		}
		return a.Token
	}
	// Each save answers the draft's new token, which the browser keeps:
	// the one it sent is retired.
	first := autosave("")
	second := autosave(first)
	if second == first {
		t.Error("autosave with a token answered the same token, want the hub's new one")
	}
	client := &hubclient.Client{HubURL: d.hub.URL}
	draft, err := client.Draft(t.Context(), "acme", "trip", second)
	if err != nil || draft.Step != "where" || draft.Payload["name"] != "Ada" {
		t.Errorf("autosaved draft %+v, %v", draft, err)
	}
	if _, err := client.Draft(t.Context(), "acme", "trip", first); !hubclient.NoDraft(err) {
		t.Errorf("the token autosaved over: %v, want retired", err)
	}
	// A draft gone is saved anew rather than lost.
	if token := autosave("gone"); token == "" || token == "gone" {
		t.Errorf("autosave over a draft gone answered %q", token)
	}

	// A file of the draft that the visitor does not keep is not sent.
	_, withFile := d.post(t, "/hubform/acme/trip/save", false, append(formParts(page), part{name: "ticket", value: "%PDF-1.4", filename: "t.pdf"})...)
	held, _ := withFile.Find("input[name=" + hubclient.DraftField + "]").Attr("value")
	res, _ = d.post(t, "/hubform/acme/trip/submit", false, append(formParts(page), part{name: "name", value: "Ada"}, part{name: "city", value: "Oslo"},
		part{name: hubclient.DraftField, value: held})...)
	if res.StatusCode != http.StatusUnprocessableEntity || len(d.hub.Submissions()) != 0 {
		t.Errorf("submit without keeping the draft's file: status %d, %d submissions; want the required file missing", res.StatusCode, len(d.hub.Submissions()))
	}

	// A kept key the draft does not hold is not sent.
	res, _ = d.post(t, "/hubform/acme/trip/submit", false, append(formParts(page), part{name: "name", value: "Ada"}, part{name: "city", value: "Oslo"},
		part{name: hubclient.DraftField, value: held}, part{name: hubclient.DraftKeepField, value: "uploads/acme/trip/forged/x.pdf"})...)
	if res.StatusCode != http.StatusUnprocessableEntity || len(d.hub.Submissions()) != 0 {
		t.Errorf("submit with a forged kept file: status %d, %d submissions", res.StatusCode, len(d.hub.Submissions()))
	}
}

// TestDraftFileKeptThroughAnError opens a saved draft and posts it with a
// field left out, without JavaScript: the form comes back listing the
// draft's file once, still the draft's, not held a second time.
func TestDraftFileKeptThroughAnError(t *testing.T) {
	d := newDraftApp(t, func(appURL string) string { return appURL })
	_, page := d.get(t, "/trip", false)
	_, saved := d.post(t, "/hubform/acme/trip/save", false, append(formParts(page), part{name: "name", value: "Ada"},
		part{name: "ticket", value: "%PDF-1.4 ticket", filename: "ticket.pdf"})...)
	link, _ := saved.Find("[data-hubform-saved] a").Attr("href")
	_, resumed := d.get(t, strings.TrimPrefix(link, d.srv.URL), false)
	key, _ := resumed.Find("input[name=" + hubclient.DraftKeepField + "]").Attr("value")
	res, back := d.post(t, "/hubform/acme/trip/submit", false, append(formParts(resumed),
		part{name: "name", value: "Ada"}, part{name: hubclient.DraftKeepField, value: key})...)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a post without the city: status %d", res.StatusCode)
	}
	boxes := back.Find("[data-hubform-kept=ticket] input[type=checkbox]")
	if boxes.Length() != 1 || boxes.AttrOr("name", "") != hubclient.DraftKeepField || boxes.AttrOr("value", "") != key {
		t.Errorf("the form that came back lists the draft's file as %d boxes: %s", boxes.Length(), back.Find("[data-hubform-kept=ticket]").Text())
	}
}
