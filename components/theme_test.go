package components_test

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// themeCases are the golden pages of a themed form, ready and sent.
func themeCases() []goldenCase {
	s := oneStep(hubclient.Meta{}, emailField)
	s.Theme = &hubclient.Theme{Accent: "#7c3aed", Background: "#fffbeb", Text: "#1c1917", Radius: "large", Font: "serif", Buttons: "outline", Density: "compact",
		Logo: &hubclient.ThemeImage{Src: "https://cdn.example.com/acme.svg", Alt: "Acme"}, Cover: &hubclient.ThemeImage{Src: "https://cdn.example.com/cover.jpg"}}
	light := oneStep(hubclient.Meta{}, emailField)
	light.Theme = &hubclient.Theme{Accent: "#0f766e", Mode: hubclient.ThemeLight}
	return []goldenCase{
		{"theme", components.HubForm(props(s))},
		{"theme-light", components.HubForm(props(light))},
		{"theme-submitted", components.Submitted(props(s))},
	}
}

// TestThemeStyle: the theme's rules carry the page's nonce and select the
// form's root alone; a theme the hub would refuse is not applied at all.
func TestThemeStyle(t *testing.T) {
	s := oneStep(hubclient.Meta{}, emailField)
	s.Theme = &hubclient.Theme{Accent: "#7c3aed"}
	var b strings.Builder
	if err := components.HubForm(props(s)).Render(templ.WithNonce(context.Background(), "n0nce"), &b); err != nil {
		t.Fatal(err)
	}
	doc := parse(t, b.String())
	style := doc.Find(".hubform > style")
	if nonce, _ := style.Attr("nonce"); style.Length() != 1 || nonce != "n0nce" {
		t.Fatalf("%d styles in the root, nonce %q", style.Length(), nonce)
	}
	id, _ := doc.Find(".hubform").Attr("id")
	if css := style.Text(); !strings.HasPrefix(css, "#"+id+"{--hubform-accent:#7c3aed;--hubform-accent-fg:#ffffff;}") ||
		!strings.Contains(css, "@media (prefers-color-scheme:dark){#"+id+"{--hubform-accent:") {
		t.Errorf("theme's rules %q", css)
	}

	for _, bad := range []*hubclient.Theme{
		{Accent: "#fde68a", Buttons: "outline", Logo: &hubclient.ThemeImage{Src: "https://cdn.example.com/a.svg", Alt: "A"}},
		{Buttons: "outline", Logo: &hubclient.ThemeImage{Src: "javascript:alert(1)", Alt: "A"}},
	} {
		s.Theme = bad
		doc = parse(t, render(t, components.HubForm(props(s))))
		if doc.Find(".hubform > style").Length() != 0 || doc.Find("[data-hubform-buttons]").Length() != 0 || doc.Find("img").Length() != 0 {
			t.Errorf("a theme the hub would refuse is applied: %+v", bad)
		}
	}
}
