package console

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/templates"
	"github.com/hubform/hubform/hubclient"
)

// brandPath is the page of the workspace's brand.
const brandPath = Path + "/brand"

// brandSample is the template the brand's page shows in its preview.
const brandSample = "contact"

// brandProps are what the brand's page shows.
type brandProps struct {
	CSRF, Workspace string
	// CanEdit is whether the member may change the brand: admins.
	CanEdit bool
	Form    themeForm
	Preview previewProps
	Notice  string
}

// registerBrand adds the brand's page, its save and its preview.
func (con *Console) registerBrand(g *echo.Group) {
	g.GET("/brand", con.brandPage)
	g.POST("/brand", con.saveBrand)
	g.POST("/brand/preview", con.brandPreview)
}

func (con *Console) brandPage(c echo.Context) error {
	t, err := con.cfg.Brands.Brand(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return con.renderBrand(c, http.StatusOK, t, nil)
}

// renderBrand shows the brand t, or the form typed whose save was refused.
func (con *Console) renderBrand(c echo.Context, status int, t *hubclient.Theme, typed url.Values) error {
	shown := t
	if typed != nil {
		shown = themeFromForm(typed)
	}
	p := brandProps{
		CSRF: con.csrfToken(c), Workspace: memberOf(c).Workspace, CanEdit: memberOf(c).Role.Allows(accounts.Admin),
		Form: newThemeForm(t, typed, brandPath+"/preview"), Preview: con.brandPreviewOf(c, shown),
		Notice: con.sessions.PopString(c.Request().Context(), sessionNotice),
	}
	return con.render(c, status, brandPage(p))
}

// saveBrand sets the brand from its page's form; one whose colours do not
// read well comes back as typed, saying why.
func (con *Console) saveBrand(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	useSuggested(form)
	t := themeFromForm(form)
	if len(t.Check()) > 0 {
		return con.renderBrand(c, http.StatusUnprocessableEntity, nil, form)
	}
	if err := con.cfg.Brands.SetBrand(c.Request().Context(), actorOf(c), t); err != nil {
		return err
	}
	notice := "Saved: the workspace's forms start from this look."
	if t == nil {
		notice = "Saved: the workspace has no brand, its forms the default look."
	}
	return con.noticeAndGo(c, brandPath, notice)
}

// brandPreview answers the preview of the brand the page's form holds,
// saved or not. It stores nothing.
func (con *Console) brandPreview(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := previewPanel(con.brandPreviewOf(c, themeFromForm(form))).Render(c.Request().Context(), &out); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, out.Bytes())
}

// brandPreviewOf is the sample template in the brand t.
func (con *Console) brandPreviewOf(c echo.Context, t *hubclient.Theme) previewProps {
	body, err := templates.Get(brandSample)
	if err == nil {
		body = withTheme(body, t)
	}
	pv := con.previewOf(c, templateSite, brandSample, body, "")
	if pv.Form != nil {
		pv.Form.Routes = templateRoutes(brandSample, con.csrfToken(c))
	}
	return pv
}

// withTheme returns the form file body with the theme t, or body itself
// when it cannot be read.
func withTheme(body []byte, t *hubclient.Theme) []byte {
	d := decodeFormFile(body)
	if d == nil {
		return body
	}
	d.Schema.Theme = t
	if b, err := d.encode(); err == nil {
		return b
	}
	return body
}

// useSuggested sets the colour a "use" button names ("text=#6e7788") to
// the one it proposes.
func useSuggested(form url.Values) {
	if use := form.Get("use"); use != "" {
		name, color, _ := strings.Cut(use, "=")
		if isDesignColor(name) {
			form.Set(name, color)
		}
	}
}
