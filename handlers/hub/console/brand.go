package console

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
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
	// Notice says what was just done.
	Notice string
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
	return con.renderBrand(c, http.StatusOK, t, nil, "")
}

// renderBrand shows the brand t, or the form typed whose save was refused,
// for the reason problem says when its colours do not say it.
func (con *Console) renderBrand(c echo.Context, status int, t *hubclient.Theme, typed url.Values, problem string) error {
	shown := t
	if typed != nil {
		shown = themeFromForm(typed)
	}
	p := brandProps{
		CSRF: con.csrfToken(c), Workspace: memberOf(c).Workspace, CanEdit: memberOf(c).Role.Allows(accounts.Admin),
		Form: newThemeForm(t, typed, brandPath+"/preview"), Preview: con.brandPreviewOf(c, shown),
		Notice: con.sessions.PopString(c.Request().Context(), sessionNotice),
	}
	p.Form.uploads = con.cfg.Images != nil
	if problem != "" {
		p.Form.refused = []string{problem}
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
	if err := con.takePictures(c, form); err != nil {
		var he *hub.Error
		if errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity {
			return con.renderBrand(c, http.StatusUnprocessableEntity, nil, form, he.Message)
		}
		return err
	}
	t := themeFromForm(form)
	if len(t.Check()) > 0 {
		return con.renderBrand(c, http.StatusUnprocessableEntity, nil, form, "")
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
	return fragment(c, previewPanel(con.brandPreviewOf(c, themeFromForm(form))))
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

// takePictures stores the logo and the cover uploaded with a theme's
// form, if any, and sets their addresses in form. A file that is not a
// picture the hub takes is refused with 422, saying which one.
func (con *Console) takePictures(c echo.Context, form url.Values) error {
	if con.cfg.Images == nil {
		return nil
	}
	mf := c.Request().MultipartForm
	if mf == nil {
		return nil
	}
	for _, pic := range []struct{ name, words string }{{"logo", "The logo"}, {"cover", "The cover"}} {
		files := mf.File[pic.name+".file"]
		if len(files) == 0 || files[0].Size == 0 {
			continue
		}
		fh := files[0]
		f, err := fh.Open()
		if err != nil {
			return hub.Internal("reading a picture sent", err)
		}
		address, err := con.cfg.Images.Add(c.Request().Context(), actorOf(c), f)
		f.Close()
		var he *hub.Error
		if errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity {
			return hub.Errorf(he.Status, "%s was not taken: %s", pic.words, uncapitalized(he.Message))
		}
		if err != nil {
			return err
		}
		form.Set(pic.name+".src", address)
	}
	return nil
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
