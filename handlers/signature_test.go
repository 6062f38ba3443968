package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// TestSignatureRefusesAnotherFile: the app judges a drawing as the hub
// does, before anything is sent: a file that is not a PNG is refused
// beside the field.
func TestSignatureRefusesAnotherFile(t *testing.T) {
	e := echo.New()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := hubtest.Start(t, map[string]string{"acme/consent": consentForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/consent", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(forms.PropsFor(c, "acme", "consent")).Render(c.Request().Context(), c.Response())
	})
	a := &app{hub: h, h: forms, srv: srv}
	_, page := a.get(t, "/consent", false)
	res, doc := a.post(t, "/hubform/acme/consent/submit", false, append(formParts(page), part{name: "sign", value: "GIF89a", filename: "sign.gif"})...)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, ".hubform-field--signature .hubform-field-error") != "Sign once, with a drawing of at most 512 KiB." {
		t.Errorf("a GIF as a signature: status %d, error %q", res.StatusCode, text(doc, ".hubform-field--signature .hubform-field-error"))
	}
	if len(h.Submissions()) != 0 {
		t.Error("the GIF was sent")
	}
}

// signedTripForm asks for a name, then a signature: a form of two steps,
// which a visitor may save as a draft.
const signedTripForm = `{
  "title": "Trip",
  "fields": [{"name": "name", "type": "text", "label": "Name", "required": true},
             {"name": "sign", "type": "signature", "label": "Your signature", "required": true}],
  "steps": [{"id": "who", "fields": ["name"]}, {"id": "sign", "fields": ["sign"]}]
}`

// TestSignatureDraft saves a form with a drawn signature as a draft and
// opens the draft's link: the drawing is kept, listed with its box and
// not asked for again, and the form sent stores it as the field's PNG.
func TestSignatureDraft(t *testing.T) {
	e := echo.New()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := hubtest.Start(t, map[string]string{"acme/trip": signedTripForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/trip", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(forms.PropsFor(c, "acme", "trip")).Render(c.Request().Context(), c.Response())
	})
	a := &app{hub: h, h: forms, srv: srv}
	_, page := a.get(t, "/trip", false)
	png := "\x89PNG\r\n\x1a\n drawn"
	res, saved := a.post(t, "/hubform/acme/trip/save", false, append(formParts(page),
		part{name: "name", value: "Ada"}, part{name: "sign", value: png, filename: "signature.png", mime: "image/png"})...)
	link, _ := saved.Find("[data-hubform-saved] a").Attr("href")
	if res.StatusCode != http.StatusOK || link == "" {
		t.Fatalf("save: status %d, link %q", res.StatusCode, link)
	}
	_, resumed := a.get(t, strings.TrimPrefix(link, srv.URL), false)
	keep := resumed.Find(`[data-hubform-kept=sign] input[name="` + hubclient.DraftKeepField + `"]`)
	if keep.Length() != 1 || !strings.Contains(resumed.Find("[data-hubform-kept=sign]").Text(), "Your drawn signature") {
		t.Fatalf("the resumed form keeps %d drawings: %q", keep.Length(), resumed.Find("[data-hubform-kept]").Text())
	}
	if _, required := resumed.Find("input[name=sign]").Attr("required"); required {
		t.Error("the typed name is still asked for beside the drawing kept")
	}
	key, _ := keep.Attr("value")
	res, done := a.post(t, "/hubform/acme/trip/submit", false, append(formParts(resumed),
		part{name: "name", value: "Ada"}, part{name: hubclient.DraftKeepField, value: key})...)
	if res.StatusCode != http.StatusOK || done.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("submit: status %d: %s", res.StatusCode, text(done, "[data-hubform-errors], [data-hubform-submit-error]"))
	}
	subs := h.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 || subs[0].Attachments[0].Field != "sign" || string(h.File(key)) != png {
		t.Fatalf("submissions %+v, want one with the drawing kept", subs)
	}
}
