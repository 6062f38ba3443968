package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestDesign: the Design tab saves the form's theme into its draft; the
// defaults chosen are no theme; a colour that does not read well is
// refused in words, with the nearest that does, kept as typed and saved
// with one click; what the file holds beyond the tab is kept.
func TestDesign(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get("/console/forms/acme/contact/design")
	if page.status != http.StatusOK || !strings.Contains(page.body, `aria-current="page">Design`) || !strings.Contains(page.body, `id="preview"`) {
		t.Fatalf("the Design tab: %d %s", page.status, page.body)
	}

	s := f.act("/design", url.Values{"accent": {"#7C3AED"}, "background": {"#fffbeb"}, "text": {""}, "radius": {"large"}, "font": {"serif"},
		"buttons": {"outline"}, "density": {"comfortable"}, "dark.accent": {"#c4b5fd"}, "logo.src": {"https://example.com/logo.svg"}, "logo.alt": {"Acme"}})
	want := hubclient.Theme{Accent: "#7c3aed", Background: "#fffbeb", Radius: "large", Font: "serif", Buttons: "outline"}
	if th := s.Theme; th == nil || th.Accent != want.Accent || th.Background != want.Background || th.Text != "" || th.Radius != want.Radius ||
		th.Font != want.Font || th.Buttons != want.Buttons || th.Density != "" || th.Dark == nil || th.Dark.Accent != "#c4b5fd" ||
		th.Logo == nil || th.Logo.Alt != "Acme" || th.Cover != nil {
		t.Fatalf("theme saved: %+v", s.Theme)
	}
	page = f.b.get("/console/forms/acme/contact/design")
	for _, in := range []string{`name="accent" type="text" value="#7c3aed"`, `name="radius" value="large" checked`, `name="logo.alt" type="text" value="Acme"`} {
		if !strings.Contains(page.body, in) {
			t.Errorf("the tab does not show %s", in)
		}
	}
	// The preview shows it.
	if !strings.Contains(page.body, "--hubform-accent:#7c3aed") {
		t.Error("the preview is not in the theme's colours")
	}

	body := f.refused("/design", url.Values{"text": {"#9ca3af"}, "accent": {"#7c3aed"}}, http.StatusUnprocessableEntity)
	for _, in := range []string{
		"The text #9ca3af on the background #ffffff has a contrast of 2.53:1; text needs 4.5:1",
		`name="use" value="text=#6e7788"`, "Use #6e7788", `name="text" type="text" value="#9ca3af"`,
	} {
		if !strings.Contains(body, in) {
			t.Errorf("the refusal lacks %q", in)
		}
	}
	s = f.act("/design", url.Values{"text": {"#9ca3af"}, "accent": {"#7c3aed"}, "use": {"text=#6e7788"}})
	if s.Theme == nil || s.Theme.Text != "#6e7788" {
		t.Errorf("the colour proposed was not taken: %+v", s.Theme)
	}
	if s = f.act("/design", url.Values{"radius": {"medium"}, "font": {"system"}, "buttons": {"filled"}, "density": {"comfortable"}}); s.Theme != nil {
		t.Errorf("the defaults saved a theme: %+v", s.Theme)
	}
}

// TestDesignPreview: the preview follows the form's choices, saved or
// not, and saves nothing.
func TestDesignPreview(t *testing.T) {
	f := newBuilderForm(t)
	rev, _, _ := f.last()
	res := f.post("/forms/acme/contact/design/preview", url.Values{"accent": {"#0f766e"}, "buttons": {"outline"}})
	if res.status != http.StatusOK || !strings.Contains(res.body, "--hubform-accent:#0f766e") || !strings.Contains(res.body, `data-hubform-buttons="outline"`) {
		t.Errorf("the preview: %d %s", res.status, res.body)
	}
	if n, _, _ := f.last(); n != rev {
		t.Errorf("the preview saved revision %d", n)
	}
}

// TestDesignAccess: another workspace's admin gets 404 and a viewer 403
// on the Design tab's save and preview.
func TestDesignAccess(t *testing.T) {
	f := newBuilderForm(t)
	f.refusedToOutsiders(map[string]url.Values{
		"/design":         {"accent": {"#7c3aed"}},
		"/design/preview": {"accent": {"#7c3aed"}},
	})
}
