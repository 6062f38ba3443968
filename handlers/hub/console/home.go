package console

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// formRow is one form on the home page.
type formRow struct {
	Site, Slug, Title string
	// Deliveries is the page of its deliveries, empty without one.
	Deliveries string
}

func (con *Console) home(c echo.Context) error {
	u, _ := c.Get(userKey).(accounts.User)
	return render(c, http.StatusOK, homePage(homeProps{Email: u.Email, CSRF: csrfToken(c), Forms: con.forms(c), Stored: con.cfg.Store != nil}))
}

// formList is the home page's list of forms alone, which htmx reloads.
func (con *Console) formList(c echo.Context) error {
	return render(c, http.StatusOK, formList(con.forms(c)))
}

// forms lists the forms the hub serves; those it cannot serve go to the
// log, which names their files.
func (con *Console) forms(c echo.Context) []formRow {
	if con.cfg.Forms == nil {
		return nil
	}
	forms, errs := con.cfg.Forms.Forms()
	for _, err := range errs {
		con.cfg.Logger.WarnContext(c.Request().Context(), "form not served", slog.Any("error", err))
	}
	rows := make([]formRow, 0, len(forms))
	for _, f := range forms {
		row := formRow{Site: f.Site, Slug: f.Slug, Title: f.Schema.Title}
		if con.cfg.Deliveries != nil {
			row.Deliveries = deliveriesPath(f.Site, f.Slug)
		}
		rows = append(rows, row)
	}
	return rows
}
