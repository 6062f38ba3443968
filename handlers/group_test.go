package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

const guestsForm = `{
  "title": "Guests",
  "fields": [
    {"name": "team", "type": "group", "label": "Who comes?", "addLabel": "Add a guest", "required": true, "maxItems": 3,
     "fields": [{"name": "guest", "type": "text", "label": "Name", "required": true},
                {"name": "meal", "type": "select", "label": "Meal", "options": ["veg", "fish"]}]},
    {"name": "note", "type": "text", "label": "Note"}
  ],
  "steps": [{"id": "main", "fields": ["team", "note"]}]
}`

// TestGroupWithoutJavaScript adds guests and removes one with the group's
// buttons, as a browser without JavaScript posts them: each post comes
// back with what was typed and an item more or less, sends nothing, and
// the form sent at last stores a list of objects.
func TestGroupWithoutJavaScript(t *testing.T) {
	e := echo.New()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := hubtest.Start(t, map[string]string{"acme/guests": guestsForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/guests", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(forms.PropsFor(c, "acme", "guests")).Render(c.Request().Context(), c.Response())
	})
	a := &app{hub: h, h: forms, srv: srv}
	// items returns the guests the page shows, and its button values.
	items := func(doc *goquery.Document) ([]string, []string) {
		var names, buttons []string
		doc.Find(`input[name$=".guest"]`).Each(func(_ int, s *goquery.Selection) {
			names = append(names, s.AttrOr("name", "")+"="+s.AttrOr("value", ""))
		})
		doc.Find(`button[name="` + hubclient.GroupField + `"]`).Each(func(_ int, s *goquery.Selection) {
			buttons = append(buttons, s.AttrOr("value", ""))
		})
		return names, buttons
	}
	_, page := a.get(t, "/guests", false)
	names, buttons := items(page)
	if !reflect.DeepEqual(names, []string{"team.0.guest="}) || !reflect.DeepEqual(buttons, []string{"add:team"}) {
		t.Fatalf("a fresh form shows %q with buttons %q", names, buttons)
	}

	res, page := a.post(t, "/hubform/acme/guests/submit", false, append(formParts(page),
		part{name: "team.0.guest", value: "Ada"}, part{name: "team.0.meal", value: "fish"}, part{name: hubclient.GroupField, value: "add:team"})...)
	names, buttons = items(page)
	if res.StatusCode != http.StatusOK || !reflect.DeepEqual(names, []string{"team.0.guest=Ada", "team.1.guest="}) ||
		!reflect.DeepEqual(buttons, []string{"remove:team:0", "remove:team:1", "add:team"}) {
		t.Fatalf("after Add: status %d, %q, buttons %q", res.StatusCode, names, buttons)
	}
	if v := page.Find(`select[name="team.0.meal"] option[selected]`).AttrOr("value", ""); v != "fish" {
		t.Errorf("Ada's meal shows as %q", v)
	}
	if len(h.Submissions()) != 0 {
		t.Fatal("Add another sent the form")
	}

	res, page = a.post(t, "/hubform/acme/guests/submit", false, append(formParts(page),
		part{name: "team.0.guest", value: "Ada"}, part{name: "team.1.guest", value: "Bob"}, part{name: hubclient.GroupField, value: "remove:team:0"})...)
	if names, _ = items(page); res.StatusCode != http.StatusOK || !reflect.DeepEqual(names, []string{"team.0.guest=Bob"}) {
		t.Fatalf("after Remove: status %d, %q", res.StatusCode, names)
	}

	// A guest without a name is said so, naming the entry.
	_, page = a.post(t, "/hubform/acme/guests/submit", false, append(formParts(page),
		part{name: "team.0.guest", value: "Bob"}, part{name: "team.1.meal", value: "veg"}, part{name: "team.count", value: "2"})...)
	if got := text(page, ".hubform-field--group > .hubform-field-error"); got != "Entry 2, Name: This field is required." {
		t.Errorf("the group's error reads %q", got)
	}
	res, done := a.post(t, "/hubform/acme/guests/submit", false, append(formParts(page),
		part{name: "team.0.guest", value: "Bob"}, part{name: "team.1.guest", value: "Cy"}, part{name: "team.1.meal", value: "veg"}, part{name: "team.count", value: "2"})...)
	if res.StatusCode != http.StatusOK || done.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("submit: status %d: %s", res.StatusCode, text(done, "[data-hubform-errors], [data-hubform-submit-error]"))
	}
	var payload map[string]any
	json.Unmarshal(h.Submissions()[0].Payload, &payload)
	want := []any{map[string]any{"guest": "Bob"}, map[string]any{"guest": "Cy", "meal": "veg"}}
	if !reflect.DeepEqual(payload["team"], want) {
		t.Errorf("team stored as %#v, want %#v", payload["team"], want)
	}
}

// TestGroupDraft saves guests as a draft and opens it again: every item
// comes back where it was typed.
func TestGroupDraft(t *testing.T) {
	e := echo.New()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := hubtest.Start(t, map[string]string{"acme/guests": strings.Replace(guestsForm, `"steps": [{"id": "main", "fields": ["team", "note"]}]`,
		`"steps": [{"id": "main", "fields": ["team"]}, {"id": "more", "fields": ["note"]}]`, 1)})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/guests", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(forms.PropsFor(c, "acme", "guests")).Render(c.Request().Context(), c.Response())
	})
	a := &app{hub: h, h: forms, srv: srv}
	_, page := a.get(t, "/guests", false)
	res, saved := a.post(t, "/hubform/acme/guests/save", false, append(formParts(page), part{name: "team.count", value: "2"},
		part{name: "team.0.guest", value: "Ada"}, part{name: "team.0.meal", value: "fish"}, part{name: "team.1.guest", value: "Bob"})...)
	link := saved.Find("[data-hubform-saved] a").AttrOr("href", "")
	if res.StatusCode != http.StatusOK || link == "" {
		t.Fatalf("save: status %d, link %q", res.StatusCode, link)
	}
	_, resumed := a.get(t, strings.TrimPrefix(link, srv.URL), false)
	got := []string{
		resumed.Find(`input[name="team.0.guest"]`).AttrOr("value", ""),
		resumed.Find(`select[name="team.0.meal"] option[selected]`).AttrOr("value", ""),
		resumed.Find(`input[name="team.1.guest"]`).AttrOr("value", ""),
	}
	if want := []string{"Ada", "fish", "Bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("resumed guests %q, want %q", got, want)
	}
}
