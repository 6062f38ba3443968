package console

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// tryPath is the page where the owner fills in the newest version of a
// form as a visitor would, its conditions, calculations and recalls
// working as they type; it sends nothing (the preview's routes).
func tryPath(site, slug string) string { return formURL(site, slug) + "/try" }

// tryPage shows the newest version, draft or live, to be filled in.
func (con *Console) tryPage(c echo.Context) error {
	p, err := con.loadNewest(c, viewFields)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, tryForm(p, con.previewOf(c, p.Site, p.Slug, []byte(p.Body), c.QueryParam("locale"))))
}
