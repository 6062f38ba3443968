package hubclient_test

import (
	"encoding/json"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestThemeInherit(t *testing.T) {
	brand := &hubclient.Theme{Accent: "#7c3aed", Background: "#fdf4ff", Text: "#1e1b4b", Radius: "large", Font: "serif",
		Buttons: "outline", Density: "compact", Logo: &hubclient.ThemeImage{Src: "https://acme.example/logo.png", Alt: "ACME"},
		Cover: &hubclient.ThemeImage{Src: "https://acme.example/cover.jpg"}}
	for _, c := range []struct {
		name  string
		form  *hubclient.Theme
		brand *hubclient.Theme
		want  string
	}{
		{"no brand", &hubclient.Theme{Radius: "none"}, nil, `{"radius":"none"}`},
		{"no theme of its own", nil, brand, `{"accent":"#7c3aed","background":"#fdf4ff","text":"#1e1b4b","radius":"large","font":"serif","buttons":"outline","density":"compact","logo":{"src":"https://acme.example/logo.png","alt":"ACME"},"cover":{"src":"https://acme.example/cover.jpg"}}`},
		{"neither", nil, nil, `null`},
		{"its own corners and logo", &hubclient.Theme{Radius: "none", Logo: &hubclient.ThemeImage{Src: "https://shop.example/l.png", Alt: "Shop"}}, brand,
			`{"accent":"#7c3aed","background":"#fdf4ff","text":"#1e1b4b","radius":"none","font":"serif","buttons":"outline","density":"compact","logo":{"src":"https://shop.example/l.png","alt":"Shop"},"cover":{"src":"https://acme.example/cover.jpg"}}`},
		// An accent of its own keeps the default background and text: the
		// brand's were not checked against it.
		{"an accent of its own", &hubclient.Theme{Accent: "#b91c1c"}, brand,
			`{"accent":"#b91c1c","radius":"large","font":"serif","buttons":"outline","density":"compact","logo":{"src":"https://acme.example/logo.png","alt":"ACME"},"cover":{"src":"https://acme.example/cover.jpg"}}`},
		{"light whatever the system", &hubclient.Theme{Mode: hubclient.ThemeLight}, &hubclient.Theme{Accent: "#7c3aed"}, `{"mode":"light"}`},
	} {
		got, err := json.Marshal(c.form.Inherit(c.brand))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	if brand.Radius != "large" || brand.Logo.Src != "https://acme.example/logo.png" {
		t.Errorf("Inherit changed the brand: %+v", brand)
	}
}
