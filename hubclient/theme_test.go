package hubclient

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestContrast(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#fff", "#000", 21},
		{"#777777", "#ffffff", 4.48},
		{"#767676", "#ffffff", 4.54},
		{"#2563eb", "#ffffff", 5.17},
		{"#111827", "#f3f4f6", 16.12},
		{"#abcdef", "#abcdef", 1},
		{"red", "#ffffff", 0},
	} {
		if got := Contrast(tc.a, tc.b); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestNearestPassing: the colour proposed passes, is of the same hue,
// and no lighter or darker colour nearer to the one asked passes.
func TestNearestPassing(t *testing.T) {
	for _, tc := range []struct {
		fg, bg string
		need   float64
	}{
		{"#9ca3af", "#ffffff", TextContrast},
		{"#fbbf24", "#ffffff", ControlContrast},
		{"#1e3a8a", "#111827", ControlContrast},
		{"#777777", "#ffffff", TextContrast},
		{"#2563eb", "#ffffff", TextContrast}, // passes already
	} {
		got := NearestPassing(tc.fg, tc.bg, tc.need)
		if r := Contrast(got, tc.bg); r < tc.need {
			t.Errorf("NearestPassing(%s on %s, %.1f) = %s, contrast %.2f", tc.fg, tc.bg, tc.need, got, r)
		}
		if Contrast(tc.fg, tc.bg) >= tc.need && got != tc.fg {
			t.Errorf("NearestPassing(%s) = %s, but it passes as it is", tc.fg, got)
		}
		c, n := mustColor(tc.fg), mustColor(got)
		h1, s1, l1 := c.hsl()
		h2, _, l2 := n.hsl()
		if s1 > 0.1 && math.Abs(h1-h2) > 0.1 {
			t.Errorf("NearestPassing(%s) = %s: hue %.2f became %.2f", tc.fg, got, h1, h2)
		}
		// One step less of a change fails.
		if got != tc.fg {
			step := 0.002
			if l2 < l1 {
				step = -step
			}
			if back := fromHSL(h1, s1, l2-step); contrast(back, mustColor(tc.bg)) >= tc.need && math.Abs(l2-step-l1) < math.Abs(l2-l1) {
				t.Errorf("NearestPassing(%s) = %s, but %s is nearer and passes", tc.fg, got, back)
			}
		}
	}
}

func TestThemeCheck(t *testing.T) {
	for _, tc := range []struct {
		theme string
		want  []string // each a path and words of its problem
	}{
		{`{}`, nil},
		{`{"accent": "#7c3aed", "background": "#fffbeb", "text": "#1c1917", "radius": "large", "font": "serif", "density": "compact", "buttons": "outline", "mode": "light"}`, nil},
		{`{"text": "#9ca3af"}`, []string{"text: the text #9ca3af on the background #ffffff has a contrast of 2.53:1; text needs 4.5:1: #6e7788 is the nearest text colour that passes"}},
		{`{"background": "#6b7280"}`, []string{"background: the text #111827 on the background #6b7280 has a contrast of 3.66:1"}},
		{`{"accent": "#fde68a"}`, []string{"accent: the accent #fde68a on the background #ffffff has a contrast of 1.24:1; buttons and chosen options need 3:1"}},
		{`{"accent": "#777777"}`, []string{"accent: no text reads on the accent #777777"}},
		{`{"accent": "blue", "radius": "round", "mode": "dark"}`, []string{`radius: "round" is not one of none, small, medium, large, full`, `mode: "dark" is not "light"`, `accent: "blue" is not a colour`}},
		{`{"dark": {"accent": "#1e3a8a"}}`, []string{"dark.accent: the accent #1e3a8a on the background #111827 has a contrast of 1.7"}},
		{`{"dark": {"background": "#000000", "text": "#ffffff"}}`, nil},
		{`{"logo": {"src": "https://cdn.example.com/logo.svg", "alt": "Acme"}, "cover": {"src": "https://cdn.example.com/c.jpg"}}`, nil},
		{`{"logo": {"src": "javascript:alert(1)"}, "cover": {"src": "/cover.jpg"}}`, []string{
			`logo.src: "javascript:alert(1)" is not the logo's http or https address`,
			"logo.alt: the logo needs its alt",
			`cover.src: "/cover.jpg" is not the cover's http or https address`}},
	} {
		var th Theme
		if err := json.Unmarshal([]byte(tc.theme), &th); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range th.Check() {
			got = append(got, p.Path+": "+p.Message)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: problems %q, want %d", tc.theme, got, len(tc.want))
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s: problem %q, want it to start %q", tc.theme, got[i], tc.want[i])
			}
		}
	}
}

// TestThemeProperties: the properties set are those of the members
// given, the derived colours pass, and the dark scheme keeps the accent,
// made to pass on the dark background, not the light background.
func TestThemeProperties(t *testing.T) {
	th := &Theme{Accent: "#1d4ed8", Background: "#fefce8", Text: "#422006", Radius: "none", Font: "mono", Density: "spacious"}
	props := map[string]string{}
	for _, p := range th.Properties(false) {
		props[p.Name] = p.Value
	}
	want := map[string]string{
		"--hubform-accent": "#1d4ed8", "--hubform-accent-fg": "#ffffff", "--hubform-bg": "#fefce8", "--hubform-input-bg": "#fefce8",
		"--hubform-fg": "#422006", "--hubform-radius": "0", "--hubform-gap": "1.5rem",
	}
	for name, v := range want {
		if props[name] != v {
			t.Errorf("light %s = %q, want %q", name, props[name], v)
		}
	}
	if !strings.HasPrefix(props["--hubform-font"], "ui-monospace") {
		t.Errorf("font %q", props["--hubform-font"])
	}
	if r := Contrast(props["--hubform-muted"], th.Background); r < TextContrast {
		t.Errorf("muted text %s has a contrast of %.2f", props["--hubform-muted"], r)
	}
	dark := map[string]string{}
	for _, p := range th.Properties(true) {
		dark[p.Name] = p.Value
	}
	if _, ok := dark["--hubform-bg"]; ok {
		t.Errorf("the dark scheme takes the light background: %v", dark)
	}
	if a := dark["--hubform-accent"]; a == "" || Contrast(a, defaultDarkBackground) < ControlContrast || Contrast(a, dark["--hubform-accent-fg"]) < TextContrast {
		t.Errorf("dark accent %q, on it %q", a, dark["--hubform-accent-fg"])
	}
	if len((&Theme{}).Properties(false)) != 0 || len((*Theme)(nil).Properties(true)) != 0 {
		t.Error("an empty theme sets properties")
	}
}
