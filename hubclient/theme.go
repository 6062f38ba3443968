package hubclient

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Theme is how a form looks: its colours, corners, font, buttons and
// spacing. HubForm applies it over hubform.css's defaults, to the form
// alone; a zero Theme, or a member left empty, keeps the default.
//
// Colours are "#RRGGBB" (or "#RGB"). Text on the background needs a
// contrast of at least 4.5:1 and the accent, which fills buttons, ticks
// chosen options and rings the focus, 3:1 against the background
// (WCAG 2.2 AA): the hub refuses a theme below either (Theme.Check),
// proposing the nearest colour that passes.
type Theme struct {
	// Accent, Background and Text are the colours of the light scheme,
	// and of the dark one when Dark is nil: there the accent is the
	// nearest to this one that passes on the default dark background.
	Accent     string `json:"accent,omitempty"`
	Background string `json:"background,omitempty"`
	Text       string `json:"text,omitempty"`
	// Dark holds the colours when the visitor's system is dark.
	Dark *ThemeColors `json:"dark,omitempty"`
	// Mode is ThemeLight to keep the light colours whatever the system;
	// "" follows it.
	Mode string `json:"mode,omitempty"`
	// Radius is the corners' rounding: one of ThemeRadii.
	Radius string `json:"radius,omitempty"`
	// Font is a family of the visitor's own fonts: one of ThemeFonts.
	Font string `json:"font,omitempty"`
	// Buttons is "filled" (the default) or "outline".
	Buttons string `json:"buttons,omitempty"`
	// Density is the space between questions: one of ThemeDensities.
	Density string `json:"density,omitempty"`
	// Logo is shown above the form, Cover across its top; each an
	// absolute http or https address. Logo.Alt names the brand; a cover
	// is decoration, its Alt said only when it tells something.
	Logo  *ThemeImage `json:"logo,omitempty"`
	Cover *ThemeImage `json:"cover,omitempty"`
	Extra Extra       `json:"-"`
}

// ThemeImage is a picture of a Theme.
type ThemeImage struct {
	Src   string `json:"src"`
	Alt   string `json:"alt,omitempty"`
	Extra Extra  `json:"-"`
}

// WebAddress reports whether s is an absolute http or https address with
// a host and no user name or password: what a form may show a picture
// from, a script's or data's address never.
func WebAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		!strings.ContainsAny(s, " \t\r\n\\")
}

// ThemeColors are a scheme's colours of a Theme.
type ThemeColors struct {
	Accent     string `json:"accent,omitempty"`
	Background string `json:"background,omitempty"`
	Text       string `json:"text,omitempty"`
	Extra      Extra  `json:"-"`
}

// ThemeLight is the Theme.Mode that keeps the light colours.
const ThemeLight = "light"

// The values of a theme's choices, with the CSS each stands for.
var (
	ThemeRadii = []ThemeChoice{
		{"none", "0"}, {"small", "0.25rem"}, {"medium", "0.375rem"}, {"large", "0.75rem"}, {"full", "1.5rem"},
	}
	ThemeFonts = []ThemeChoice{
		{"system", `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`},
		{"humanist", `Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif`},
		{"rounded", `ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", Calibri, source-sans-pro, sans-serif`},
		{"serif", `Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, serif`},
		{"mono", `ui-monospace, "Cascadia Code", "Source Code Pro", Menlo, Consolas, "DejaVu Sans Mono", monospace`},
	}
	ThemeDensities = []ThemeChoice{{"compact", "0.75rem"}, {"comfortable", "1rem"}, {"spacious", "1.5rem"}}
	ThemeButtons   = []ThemeChoice{{"filled", ""}, {"outline", ""}}
)

// A ThemeChoice is a value of a theme's member and the CSS it stands for.
type ThemeChoice struct{ Name, CSS string }

// themeCSS returns the CSS of name among choices, "" for none.
func themeCSS(choices []ThemeChoice, name string) string {
	if i := slices.IndexFunc(choices, func(c ThemeChoice) bool { return c.Name == name }); i >= 0 {
		return choices[i].CSS
	}
	return ""
}

// The contrasts a theme needs (WCAG 2.2, 1.4.3 and 1.4.11).
const (
	TextContrast    = 4.5
	ControlContrast = 3.0
)

// The default colours a theme's own are checked against and fall back
// to: hubform.css's.
const (
	defaultBackground     = "#ffffff"
	defaultText           = "#111827"
	defaultAccent         = "#2563eb"
	defaultDarkBackground = "#111827"
	defaultDarkText       = "#f3f4f6"
)

// A ThemeProblem is what is wrong with a member of a theme: Path is its
// JSON path under the theme ("text", "dark.accent"); Suggest, for a
// colour that does not read well, the nearest that does.
type ThemeProblem struct {
	Path    string
	Message string
	Suggest string
}

// Check returns what is wrong with the theme, none for a zero one: a
// colour that does not read as "#RRGGBB", a choice that is not one of
// its list, a contrast below what text and controls need, said with the
// ratio and the nearest colour that passes.
func (t *Theme) Check() []ThemeProblem {
	if t == nil {
		return nil
	}
	var ps []ThemeProblem
	add := func(path, format string, args ...any) {
		ps = append(ps, ThemeProblem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	for _, c := range []struct {
		path    string
		choices []ThemeChoice
		value   string
	}{{"radius", ThemeRadii, t.Radius}, {"font", ThemeFonts, t.Font}, {"density", ThemeDensities, t.Density}, {"buttons", ThemeButtons, t.Buttons}} {
		if c.value != "" && !slices.ContainsFunc(c.choices, func(ch ThemeChoice) bool { return ch.Name == c.value }) {
			names := make([]string, len(c.choices))
			for i, ch := range c.choices {
				names[i] = ch.Name
			}
			add(c.path, "%q is not one of %s", c.value, strings.Join(names, ", "))
		}
	}
	if t.Logo != nil {
		if !WebAddress(t.Logo.Src) {
			add("logo.src", "%q is not the logo's http or https address", t.Logo.Src)
		}
		if strings.TrimSpace(t.Logo.Alt) == "" {
			add("logo.alt", "the logo needs its alt: the name it shows, read out to those who cannot see it")
		}
	}
	if t.Cover != nil && !WebAddress(t.Cover.Src) {
		add("cover.src", "%q is not the cover's http or https address", t.Cover.Src)
	}
	if t.Mode != "" && t.Mode != ThemeLight {
		add("mode", "%q is not %q; leave it out to follow the visitor's system", t.Mode, ThemeLight)
	}
	checkColors := func(prefix string, c ThemeColors, bg, fg string) {
		ok := true
		for _, m := range []struct{ name, value string }{{"accent", c.Accent}, {"background", c.Background}, {"text", c.Text}} {
			if m.value != "" {
				if _, err := parseColor(m.value); err != nil {
					add(prefix+m.name, "%v", err)
					ok = false
				}
			}
		}
		if !ok || c.Accent == "" && c.Background == "" && c.Text == "" {
			return
		}
		bg, fg = cmp.Or(c.Background, bg), cmp.Or(c.Text, fg)
		if c.Background != "" || c.Text != "" {
			if r := Contrast(fg, bg); r < TextContrast {
				at := "text"
				if c.Text == "" {
					at = "background"
				}
				near := NearestPassing(fg, bg, TextContrast)
				add(prefix+at, "the text %s on the background %s has a contrast of %s; text needs %s: %s is the nearest text colour that passes",
					fg, bg, ratio(r), ratio(TextContrast), near)
				if at == "text" {
					ps[len(ps)-1].Suggest = near
				}
			}
		}
		if c.Accent != "" {
			if r := Contrast(c.Accent, bg); r < ControlContrast {
				near := nearestButton(c.Accent, bg)
				add(prefix+"accent", "the accent %s on the background %s has a contrast of %s; buttons and chosen options need %s: %s is the nearest accent that passes",
					c.Accent, bg, ratio(r), ratio(ControlContrast), near)
				ps[len(ps)-1].Suggest = near
			} else if r := Contrast(c.Accent, OnAccent(c.Accent)); r < TextContrast {
				near := nearestButton(c.Accent, bg)
				add(prefix+"accent", "no text reads on the accent %s: white or black on it reaches %s, a button's words need %s; %s is the nearest accent that passes",
					c.Accent, ratio(r), ratio(TextContrast), near)
				ps[len(ps)-1].Suggest = near
			}
		}
	}
	checkColors("", ThemeColors{Accent: t.Accent, Background: t.Background, Text: t.Text}, defaultBackground, defaultText)
	if t.Dark != nil {
		checkColors("dark.", *t.Dark, defaultDarkBackground, defaultDarkText)
	}
	return ps
}

// ratio formats a contrast ratio as people read it, "4.5:1", rounded
// down so that a ratio short of a need never reads as meeting it.
func ratio(r float64) string {
	return strconv.FormatFloat(math.Floor(r*100)/100, 'f', -1, 64) + ":1"
}

// color is an sRGB colour, each channel 0 to 255.
type color [3]uint8

// parseColor reads "#RRGGBB" or "#RGB".
func parseColor(s string) (color, error) {
	hex := strings.TrimPrefix(s, "#")
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	n, err := strconv.ParseUint(hex, 16, 32)
	if !strings.HasPrefix(s, "#") || len(hex) != 6 || err != nil {
		return color{}, fmt.Errorf("%q is not a colour written #RRGGBB", s)
	}
	return color{uint8(n >> 16), uint8(n >> 8), uint8(n)}, nil
}

func (c color) String() string { return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2]) }

// luminance is the colour's relative luminance (WCAG 2.2).
func (c color) luminance() float64 {
	var l [3]float64
	for i, v := range c {
		s := float64(v) / 255
		if s <= 0.04045 {
			l[i] = s / 12.92
		} else {
			l[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

func contrast(a, b color) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Contrast returns the contrast ratio of two colours, from 1 to 21; 0
// when one does not read as a colour.
func Contrast(a, b string) float64 {
	ca, errA := parseColor(a)
	cb, errB := parseColor(b)
	if errA != nil || errB != nil {
		return 0
	}
	return contrast(ca, cb)
}

// OnAccent returns the colour of words on a button of accent: white or
// the default text colour, whichever contrasts more.
func OnAccent(accent string) string {
	if Contrast(accent, "#ffffff") >= Contrast(accent, defaultText) {
		return "#ffffff"
	}
	return defaultText
}

// NearestPassing returns the colour nearest to fg, of its hue, darker or
// lighter, whose contrast with bg is at least need; fg itself when it
// passes, and black or white when none of its hue does.
func NearestPassing(fg, bg string, need float64) string {
	return nearest(fg, func(c color) bool { return contrast(c, mustColor(bg)) >= need })
}

// nearestButton returns the accent nearest to accent that passes on bg
// and has words that read on it.
func nearestButton(accent, bg string) string {
	b := mustColor(bg)
	return nearest(accent, func(c color) bool {
		on, _ := parseColor(OnAccent(c.String()))
		return contrast(c, b) >= ControlContrast && contrast(c, on) >= TextContrast
	})
}

func mustColor(s string) color {
	c, _ := parseColor(s)
	return c
}

// nearest returns the colour of fg's hue and saturation whose lightness
// is the nearest to fg's for which passes holds.
func nearest(fg string, passes func(color) bool) string {
	c, err := parseColor(fg)
	if err != nil || passes(c) {
		return fg
	}
	h, s, l := c.hsl()
	for step := 1; step <= 1000; step++ {
		d := float64(step) / 1000
		for _, nl := range []float64{l - d, l + d} {
			if nl < 0 || nl > 1 {
				continue
			}
			if n := fromHSL(h, s, nl); passes(n) {
				return n.String()
			}
		}
	}
	if passes(color{}) {
		return "#000000"
	}
	return "#ffffff"
}

// hsl returns the colour's hue (0 to 6), saturation and lightness (0 to 1).
func (c color) hsl() (h, s, l float64) {
	r, g, b := float64(c[0])/255, float64(c[1])/255, float64(c[2])/255
	hi, lo := max(r, g, b), min(r, g, b)
	l = (hi + lo) / 2
	d := hi - lo
	if d == 0 {
		return 0, 0, l
	}
	s = d / (1 - math.Abs(2*l-1))
	switch hi {
	case r:
		h = math.Mod((g-b)/d+6, 6)
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return h, s, l
}

func fromHSL(h, s, l float64) color {
	ch := (1 - math.Abs(2*l-1)) * s
	x := ch * (1 - math.Abs(math.Mod(h, 2)-1))
	var r, g, b float64
	switch {
	case h < 1:
		r, g = ch, x
	case h < 2:
		r, g = x, ch
	case h < 3:
		g, b = ch, x
	case h < 4:
		g, b = x, ch
	case h < 5:
		r, b = x, ch
	default:
		r, b = ch, x
	}
	m := l - ch/2
	to := func(v float64) uint8 { return uint8(math.Round(min(max(v+m, 0), 1) * 255)) }
	return color{to(r), to(g), to(b)}
}

// mix returns the colour a share of the way from a to b.
func mix(a, b color, share float64) color {
	var out color
	for i := range out {
		out[i] = uint8(math.Round(float64(a[i]) + (float64(b[i])-float64(a[i]))*share))
	}
	return out
}

// ThemeProperty is a CSS custom property of hubform.css and its value.
type ThemeProperty struct{ Name, Value string }

// Properties returns the custom properties that give the form the
// theme's look in the light scheme, dark whether in the dark one: the
// colours (the ones derived from them too: words on the accent, muted
// text and borders, mixed from text and background so that muted text
// still reads), the radius, font and spacing. A member left empty sets
// nothing, hubform.css's default holds. Theme.Check must pass first.
func (t *Theme) Properties(dark bool) []ThemeProperty {
	if t == nil {
		return nil
	}
	var ps []ThemeProperty
	add := func(name, value string) {
		if value != "" {
			ps = append(ps, ThemeProperty{name, value})
		}
	}
	c := ThemeColors{Accent: t.Accent, Background: t.Background, Text: t.Text}
	bg, fg := defaultBackground, defaultText
	if dark {
		bg, fg = defaultDarkBackground, defaultDarkText
		if t.Dark != nil {
			c = *t.Dark
		} else {
			// The light scheme's background and text are not the dark
			// one's; its accent is, made to pass on the dark background.
			c = ThemeColors{}
			if t.Accent != "" {
				c.Accent = nearestButton(t.Accent, bg)
			}
		}
	}
	if c.Accent != "" {
		add("--hubform-accent", c.Accent)
		add("--hubform-accent-fg", OnAccent(c.Accent))
	}
	if c.Background != "" || c.Text != "" {
		bg, fg = cmp.Or(c.Background, bg), cmp.Or(c.Text, fg)
		add("--hubform-bg", bg)
		add("--hubform-input-bg", bg)
		add("--hubform-fg", fg)
		b, f := mustColor(bg), mustColor(fg)
		muted := NearestPassing(mix(f, b, 0.35).String(), bg, TextContrast)
		add("--hubform-muted", muted)
		add("--hubform-border", mix(f, b, 0.7).String())
	}
	add("--hubform-radius", themeCSS(ThemeRadii, t.Radius))
	add("--hubform-font", themeCSS(ThemeFonts, t.Font))
	add("--hubform-gap", themeCSS(ThemeDensities, t.Density))
	return ps
}
