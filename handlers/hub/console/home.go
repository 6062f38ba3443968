package console

import (
	"log/slog"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
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
	ms, err := con.cfg.Workspaces.Memberships(c.Request().Context(), u.Email)
	if err != nil {
		return hub.Internal("looking up the user's workspaces", err)
	}
	forms, err := con.forms(c)
	if err != nil {
		return err
	}
	p := homeProps{Email: u.Email, CSRF: csrfToken(c), Forms: forms, Stored: con.cfg.Store != nil, Member: memberOf(c), Workspaces: ms}
	if ws := p.Member.Workspace; ws != "" {
		ctx := c.Request().Context()
		w, err := con.cfg.Workspaces.Workspace(ctx, ws)
		if err != nil {
			return hub.Internal("reading the workspace", err)
		}
		usage, err := con.cfg.Workspaces.WorkspaceUsage(ctx, ws, accounts.MonthStart(con.cfg.Now()))
		if err != nil {
			return hub.Internal("counting the workspace's usage", err)
		}
		p.Quota, p.Usage = w.Quota, usage
	}
	return con.render(c, http.StatusOK, homePage(p))
}

// formList is the home page's list of forms alone, which htmx reloads.
func (con *Console) formList(c echo.Context) error {
	forms, err := con.forms(c)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, formList(forms))
}

// forms lists the forms the hub serves on the sites of the request's
// workspace; those it cannot serve go to the log, which names their files.
func (con *Console) forms(c echo.Context) ([]formRow, error) {
	if con.cfg.Forms == nil {
		return nil, nil
	}
	sites, err := con.workspaceSites(c)
	if err != nil {
		return nil, err
	}
	forms, errs := con.cfg.Forms.Forms()
	for _, err := range errs {
		con.cfg.Logger.WarnContext(c.Request().Context(), "form not served", slog.Any("error", err))
	}
	rows := make([]formRow, 0, len(forms))
	for _, f := range forms {
		if !slices.Contains(sites, f.Site) {
			continue
		}
		row := formRow{Site: f.Site, Slug: f.Slug, Title: f.Schema.Title}
		if con.cfg.Deliveries != nil {
			row.Deliveries = deliveriesPath(f.Site, f.Slug)
		}
		rows = append(rows, row)
	}
	return rows, nil
}
