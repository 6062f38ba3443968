package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
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
