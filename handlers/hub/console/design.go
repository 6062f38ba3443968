package console

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// designPath is the tab of a stored form's look.
func designPath(site, slug string) string { return formURL(site, slug) + "/design" }

// viewDesign is the Design tab: the form's theme beside its preview.
const viewDesign = "design"

// registerDesign adds the Design tab's page, its save and its preview.
func (con *Console) registerDesign(g *echo.Group) {
	g.GET("/forms/:site/:slug/design", con.designPage)
	g.POST("/forms/:site/:slug/design", con.builderAction(editDesign, viewDesign))
	g.POST("/forms/:site/:slug/design/preview", con.designPreview)
}

// designPage shows the newest version's theme in the Design tab's form,
// and the form in it.
func (con *Console) designPage(c echo.Context) error {
	p, err := con.loadNewest(c, viewDesign)
	if err != nil {
		return err
	}
	p.Preview = con.previewOf(c, p.Site, p.Slug, []byte(p.Body), "")
	return con.renderForm(c, http.StatusOK, p)
}

// The colours of the Design tab's form, by the name of their input: the
// light scheme's, then the dark one's ("dark.accent").
var designColors = []struct{ name, label, help, light, dark string }{
	{"accent", "Accent", "Buttons, chosen options and the focus ring.", "#2563eb", "#60a5fa"},
	{"background", "Background", "", "#ffffff", "#111827"},
	{"text", "Text", "", "#111827", "#f3f4f6"},
}

// editDesign sets the form's theme from the Design tab's form. A "use"
// button sets one colour to the one proposed ("text=#6e7788") and saves.
func editDesign(d *formFile, c echo.Context) error {
	form, _ := c.FormParams()
	if use := form.Get("use"); use != "" {
		name, color, _ := strings.Cut(use, "=")
		if isDesignColor(name) {
			form.Set(name, color)
		}
	}
	old := d.Schema.Theme
	d.Schema.Theme = themeFromForm(form)
	if old != nil && len(old.Extra) > 0 {
		// Members of the file the tab does not edit are kept.
		if d.Schema.Theme == nil {
			d.Schema.Theme = &hubclient.Theme{}
		}
		d.Schema.Theme.Extra = old.Extra
	}
	return nil
}

// isDesignColor reports whether name is one of the colours' inputs.
func isDesignColor(name string) bool {
	for _, c := range designColors {
		if name == c.name || name == "dark."+c.name {
			return true
		}
	}
	return false
}

// themeFromForm reads the Design tab's form: nil when it sets nothing,
// so that a form left as it was gets no theme.
func themeFromForm(form url.Values) *hubclient.Theme {
	get := func(name string) string { return strings.TrimSpace(form.Get(name)) }
	t := &hubclient.Theme{
		Accent: strings.ToLower(get("accent")), Background: strings.ToLower(get("background")), Text: strings.ToLower(get("text")),
		Radius: get("radius"), Font: get("font"), Buttons: get("buttons"), Density: get("density"),
	}
	if form.Get("mode") == hubclient.ThemeLight {
		t.Mode = hubclient.ThemeLight
	}
	if dark := (hubclient.ThemeColors{Accent: strings.ToLower(get("dark.accent")), Background: strings.ToLower(get("dark.background")), Text: strings.ToLower(get("dark.text"))}); dark.Accent != "" || dark.Background != "" || dark.Text != "" {
		t.Dark = &dark
	}
	if src := get("logo.src"); src != "" || get("logo.alt") != "" {
		t.Logo = &hubclient.ThemeImage{Src: src, Alt: get("logo.alt")}
	}
	if src := get("cover.src"); src != "" {
		t.Cover = &hubclient.ThemeImage{Src: src, Alt: get("cover.alt")}
	}
	// The defaults are no theme: the form follows hubform.css.
	for _, def := range []struct {
		member *string
		value  string
	}{{&t.Radius, "medium"}, {&t.Font, "system"}, {&t.Buttons, "filled"}, {&t.Density, "comfortable"}} {
		if *def.member == def.value {
			*def.member = ""
		}
	}
	if t.Accent+t.Background+t.Text+t.Mode+t.Radius+t.Font+t.Buttons+t.Density == "" && t.Dark == nil && t.Logo == nil && t.Cover == nil {
		return nil
	}
	return t
}

// designPreview renders the preview of the newest version with the theme
// the Design tab's form holds, saved or not: the owner sees a colour as
// they pick it. It stores nothing.
func (con *Console) designPreview(c echo.Context) error {
	p, err := con.loadNewest(c, viewDesign)
	if err != nil {
		return err
	}
	body := []byte(p.Body)
	if d := decodeFormFile(body); d != nil {
		form, _ := c.FormParams()
		d.Schema.Theme = themeFromForm(form)
		if b, err := d.encode(); err == nil {
			body = b
		}
	}
	var out bytes.Buffer
	if err := previewPanel(con.previewOf(c, p.Site, p.Slug, body, "")).Render(c.Request().Context(), &out); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, out.Bytes())
}

// designValue is what the Design tab's input name shows: what was posted
// when the save was refused, else the theme's.
func (p formProps) designValue(t *hubclient.Theme, name string) string {
	if p.TypedAt == designPath(p.Site, p.Slug) && p.Typed != nil {
		return p.Typed.Get(name)
	}
	if t == nil {
		return ""
	}
	var dark hubclient.ThemeColors
	if t.Dark != nil {
		dark = *t.Dark
	}
	var logo, cover hubclient.ThemeImage
	if t.Logo != nil {
		logo = *t.Logo
	}
	if t.Cover != nil {
		cover = *t.Cover
	}
	return map[string]string{
		"accent": t.Accent, "background": t.Background, "text": t.Text,
		"dark.accent": dark.Accent, "dark.background": dark.Background, "dark.text": dark.Text,
		"radius": t.Radius, "font": t.Font, "buttons": t.Buttons, "density": t.Density, "mode": t.Mode,
		"logo.src": logo.Src, "logo.alt": logo.Alt, "cover.src": cover.Src, "cover.alt": cover.Alt,
	}[name]
}

// designProblems are what is wrong with the theme the page shows, by the
// name of its input.
func (p formProps) designProblems(t *hubclient.Theme) map[string]hubclient.ThemeProblem {
	if p.TypedAt == designPath(p.Site, p.Slug) && p.Typed != nil {
		t = themeFromForm(p.Typed)
	}
	out := map[string]hubclient.ThemeProblem{}
	for _, pr := range t.Check() {
		if _, ok := out[pr.Path]; !ok {
			pr.Message = capitalized(pr.Message) + "."
			out[pr.Path] = pr
		}
	}
	return out
}

// safeDesignID is an input's name as an id: "dark.accent" is
// "dark-accent".
func safeDesignID(name string) string { return strings.ReplaceAll(name, ".", "-") }
