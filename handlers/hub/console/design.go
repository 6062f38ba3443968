package console

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"

	"github.com/hubform/hubform/hubclient"
)

// designPath is the tab of a stored form's look.
func designPath(site, slug string) string { return formURL(site, slug) + "/design" }

// viewDesign is the Design tab: the form's theme beside its preview.
const viewDesign = "design"

// registerDesign adds the Design tab's page, its save and its preview.
func (con *Console) registerDesign(g *echo.Group) {
	g.GET("/forms/:site/:slug/design", con.designPage)
	g.POST("/forms/:site/:slug/design", con.builderAction(con.editDesign, viewDesign))
	g.POST("/forms/:site/:slug/design/preview", con.designPreview)
}

// designPage shows the newest version's theme in the Design tab's form,
// and the form in it.
func (con *Console) designPage(c echo.Context) error {
	p, err := con.loadNewest(c, viewDesign)
	if err != nil {
		return err
	}
	return con.renderForm(c, http.StatusOK, p)
}

// renderDesign shows the Design tab of p, its preview in the theme the
// form inherits from the workspace's brand.
func (con *Console) renderDesign(c echo.Context, status int, p formProps) error {
	brand := con.brandOf(c)
	p.Branded, p.Uploads = brand != nil, con.cfg.Images != nil
	body := []byte(p.Body)
	if d := decodeFormFile(body); d != nil && brand != nil {
		d.Schema.Theme = d.Schema.Theme.Inherit(brand)
		if b, err := d.encode(); err == nil {
			body = b
		}
	}
	p.Preview = con.previewOf(c, p.Site, p.Slug, body, "")
	return con.render(c, status, designPage(p))
}

// brandOf returns the brand of the workspace the request acts in, which
// its forms inherit: nil for none, and when it cannot be read, which the
// log tells.
func (con *Console) brandOf(c echo.Context) *hubclient.Theme {
	if con.cfg.Brands == nil {
		return nil
	}
	t, err := con.cfg.Brands.Brand(c.Request().Context(), actorOf(c))
	if err != nil {
		con.cfg.Logger.ErrorContext(c.Request().Context(), "brand not read", slog.String("workspace", memberOf(c).Workspace), slog.Any("err", err))
	}
	return t
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
func (con *Console) editDesign(d *formFile, c echo.Context) error {
	form, _ := c.FormParams()
	useSuggested(form)
	if err := con.takePictures(c, form); err != nil {
		if he := (*hub.Error)(nil); errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity {
			return problem("theme", "%s", he.Message)
		}
		return err
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
	form, _ := c.FormParams()
	body := withTheme([]byte(p.Body), themeFromForm(form).Inherit(con.brandOf(c)))
	return fragment(c, previewPanel(con.previewOf(c, p.Site, p.Slug, body, "")))
}

// fragment answers component alone, a part of a page that htmx swaps in,
// rendered whole before it is sent: it needs no shell.
func fragment(c echo.Context, component templ.Component) error {
	var out bytes.Buffer
	if err := component.Render(c.Request().Context(), &out); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, out.Bytes())
}

// themeForm is what the inputs of a theme show, on the Design tab and the
// brand's page: what was posted when a save was refused, else the theme
// saved; what is wrong with it, by input name; where its changes are
// posted for the preview.
type themeForm struct {
	values   map[string]string
	problems map[string]hubclient.ThemeProblem
	preview  string
	// uploads is whether the hub takes pictures for the logo and cover,
	// beside their addresses.
	uploads bool
	// refused says why a save was refused, beside the inputs' problems.
	refused []string
}

// newThemeForm returns the form of the theme t, or of typed when a save
// of it was refused.
func newThemeForm(t *hubclient.Theme, typed url.Values, preview string) themeForm {
	f := themeForm{values: themeValues(t), problems: map[string]hubclient.ThemeProblem{}, preview: preview}
	if typed != nil {
		t = themeFromForm(typed)
		f.values = map[string]string{}
		for name := range themeValues(nil) {
			f.values[name] = typed.Get(name)
		}
	}
	for _, pr := range t.Check() {
		if _, ok := f.problems[pr.Path]; !ok {
			pr.Message = capitalized(pr.Message) + "."
			f.problems[pr.Path] = pr
		}
	}
	return f
}

// formAttrs are the attributes of the theme's form: one that sends
// pictures is multipart.
func (f themeForm) formAttrs() templ.Attributes {
	if !f.uploads {
		return nil
	}
	return templ.Attributes{"enctype": "multipart/form-data"}
}

// themeValues are the theme's members by the name of their input.
func themeValues(t *hubclient.Theme) map[string]string {
	var th hubclient.Theme
	if t != nil {
		th = *t
	}
	var dark hubclient.ThemeColors
	if th.Dark != nil {
		dark = *th.Dark
	}
	var logo, cover hubclient.ThemeImage
	if th.Logo != nil {
		logo = *th.Logo
	}
	if th.Cover != nil {
		cover = *th.Cover
	}
	return map[string]string{
		"accent": th.Accent, "background": th.Background, "text": th.Text,
		"dark.accent": dark.Accent, "dark.background": dark.Background, "dark.text": dark.Text,
		"radius": th.Radius, "font": th.Font, "buttons": th.Buttons, "density": th.Density, "mode": th.Mode,
		"logo.src": logo.Src, "logo.alt": logo.Alt, "cover.src": cover.Src, "cover.alt": cover.Alt,
	}
}

// designForm is the Design tab's theme form.
func (p formProps) designForm(t *hubclient.Theme) themeForm {
	var typed url.Values
	if p.TypedAt == designPath(p.Site, p.Slug) {
		typed = p.Typed
	}
	f := newThemeForm(t, typed, designPath(p.Site, p.Slug)+"/preview")
	f.uploads = p.Uploads
	for _, pr := range p.Problems {
		f.refused = append(f.refused, capitalized(strings.TrimSuffix(pr.Err.Error(), "."))+".")
	}
	return f
}

// safeDesignID is an input's name as an id: "dark.accent" is
// "dark-accent".
func safeDesignID(name string) string { return strings.ReplaceAll(name, ".", "-") }
