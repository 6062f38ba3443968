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
)

// draftShippingForm is shippingForm in two steps, whose hub keeps drafts.
const draftShippingForm = `{
  "title": "Ship a parcel",
  "fields": [
    {"name": "rate", "type": "matrix", "label": "How did we do?", "required": true, "multiple": true,
     "rows": ["speed", "care"], "columns": ["bad", "ok", "good"]},
    {"name": "ship", "type": "address", "label": "Ship to", "required": true, "prefill": true},
    {"name": "note", "type": "text", "label": "Note"}
  ],
  "steps": [{"id": "one", "fields": ["rate", "ship"]}, {"id": "two", "fields": ["note"]}]
}`

// TestCompositeDraftAndPrefill saves a matrix and an address half filled
// as a draft and opens it again: every part is back where it was typed.
// A link prefills the address by part.
func TestCompositeDraftAndPrefill(t *testing.T) {
	e := echo.New()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := hubtest.Start(t, map[string]string{"acme/ship": draftShippingForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/ship", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(forms.PropsFor(c, "acme", "ship")).Render(c.Request().Context(), c.Response())
	})
	a := &app{hub: h, h: forms, srv: srv}

	_, page := a.get(t, "/ship?ship.country=FR&ship.city=Lyon&ship.street=x", false)
	if v := page.Find(`select[name="ship.country"] option[selected]`).AttrOr("value", ""); v != "FR" {
		t.Errorf("prefilled country %q, want FR", v)
	}
	if v := page.Find(`input[name="ship.city"]`).AttrOr("value", ""); v != "Lyon" {
		t.Errorf("prefilled city %q, want Lyon", v)
	}

	parts := append(formParts(page), part{name: "rate.speed", value: "bad"}, part{name: "rate.speed", value: "good"},
		part{name: "ship.line1", value: "1 rue de la Paix"}, part{name: "ship.country", value: "FR"}, part{name: "ship.city", value: ""})
	res, saved := a.post(t, "/hubform/acme/ship/save", false, parts...)
	if res.StatusCode != http.StatusOK || saved.Find("[data-hubform-saved]").Length() != 1 {
		t.Fatalf("save: status %d", res.StatusCode)
	}
	link := saved.Find("[data-hubform-saved] a").AttrOr("href", "")
	if link == "" {
		t.Fatal("no link to the draft")
	}
	_, resumed := a.get(t, strings.TrimPrefix(link, srv.URL), false)
	var ticked []string
	resumed.Find(`input[name^="rate."][checked]`).Each(func(_ int, s *goquery.Selection) {
		ticked = append(ticked, s.AttrOr("name", "")+"="+s.AttrOr("value", ""))
	})
	if want := []string{"rate.speed=bad", "rate.speed=good"}; !reflect.DeepEqual(ticked, want) {
		t.Errorf("resumed matrix ticks %q, want %q", ticked, want)
	}
	if v := resumed.Find(`input[name="ship.line1"]`).AttrOr("value", ""); v != "1 rue de la Paix" {
		t.Errorf("resumed first line %q", v)
	}
	if v := resumed.Find(`select[name="ship.country"] option[selected]`).AttrOr("value", ""); v != "FR" {
		t.Errorf("resumed country %q, want FR", v)
	}

	// Sent with the rest: the hub stores objects.
	res, done := a.post(t, "/hubform/acme/ship/submit", false, append(formParts(resumed),
		part{name: "rate.speed", value: "good"}, part{name: "rate.care", value: "ok"}, part{name: "rate.care", value: "good"},
		part{name: "ship.line1", value: "1 rue de la Paix"}, part{name: "ship.city", value: "Paris"}, part{name: "ship.country", value: "FR"})...)
	if res.StatusCode != http.StatusOK || done.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("submit: status %d: %s", res.StatusCode, text(done, "[data-hubform-errors], [data-hubform-submit-error]"))
	}
	var payload map[string]any
	json.Unmarshal(h.Submissions()[0].Payload, &payload)
	want := map[string]any{"speed": []any{"good"}, "care": []any{"ok", "good"}}
	if !reflect.DeepEqual(payload["rate"], want) {
		t.Errorf("rate stored as %#v, want %#v", payload["rate"], want)
	}
}
