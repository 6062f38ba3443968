package console

import (
	"cmp"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// backupCard is the home page's card of the hub's scheduled backups.
type backupCard struct {
	Last, Success backup.Result
}

// failed reports whether the last backup failed.
func (b *backupCard) failed() bool { return b.Last.Err != nil }

// formRow is one form on the home page.
type formRow struct {
	Site, Slug, Title string
	// State says whether the hub serves it, and which version.
	State string
	// Stored is whether the hub's database keeps it, which the console
	// edits; else it comes from the forms directory.
	Stored bool
	// newest is a stored form's newest version.
	newest int64
}

func (con *Console) home(c echo.Context) error {
	u, _ := c.Get(userKey).(accounts.User)
	forms, err := con.titledForms(c)
	if err != nil {
		return err
	}
	p := homeProps{Email: u.Email, Forms: forms, Stored: con.cfg.Store != nil, Member: memberOf(c)}
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
		mail, err := con.cfg.Workspaces.MailSent(ctx, ws, sqldb.Day(con.cfg.Now()))
		if err != nil {
			return hub.Internal("counting the workspace's e-mails", err)
		}
		p.Quota, p.Usage, p.MailToday = w.Quota, usage, mail
		if con.cfg.Backups != nil && ws == accounts.DefaultWorkspace && p.Member.Role == accounts.Admin {
			last, success := con.cfg.Backups.Last()
			p.Backup = &backupCard{Last: last, Success: success}
		}
	}
	return con.render(c, http.StatusOK, homePage(p))
}

// formList is the home page's list of forms alone, which htmx reloads.
func (con *Console) formList(c echo.Context) error {
	forms, err := con.titledForms(c)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, formList(forms, con.cfg.Store != nil && memberOf(c).Role.Allows(accounts.Editor)))
}

// forms lists the forms of the sites of the request's workspace, from the
// forms directory and the hub's database, by site and slug. Directory
// forms the hub cannot serve go to the log, which names their files.
func (con *Console) forms(c echo.Context) ([]formRow, error) {
	if rows, ok := c.Get(formsKey).([]formRow); ok {
		return rows, nil
	}
	sites, err := con.workspaceSites(c)
	if err != nil || len(sites) == 0 {
		return nil, err
	}
	var rows []formRow
	if con.cfg.Forms != nil {
		forms, errs := con.cfg.Forms.Forms()
		for _, err := range errs {
			con.cfg.Logger.WarnContext(c.Request().Context(), "form not served", slog.Any("error", err))
		}
		for _, f := range forms {
			if slices.Contains(sites, f.Site) {
				rows = append(rows, formRow{Site: f.Site, Slug: f.Slug, Title: f.Schema.Title, State: "served from the forms directory"})
			}
		}
	}
	if con.cfg.Store != nil {
		recs, err := con.cfg.Store.FormRecords(c.Request().Context())
		if err != nil {
			return nil, hub.Internal("listing forms", err)
		}
		for _, r := range recs {
			if !slices.Contains(sites, r.Site) {
				continue
			}
			row := formRow{Site: r.Site, Slug: r.Slug, State: "not published", Stored: true, newest: r.LastVersion}
			if r.LiveVersion != 0 {
				row.State = "version " + strconv.FormatInt(r.LiveVersion, 10) + " live"
			}
			if r.LastVersion > r.LiveVersion && r.LiveVersion != 0 {
				row.State += ", a newer version not published"
			}
			rows = append(rows, row)
		}
	}
	slices.SortFunc(rows, func(a, b formRow) int { return cmp.Or(cmp.Compare(a.Site, b.Site), cmp.Compare(a.Slug, b.Slug)) })
	c.Set(formsKey, rows)
	return rows, nil
}

// formsKey is where forms keeps its list for the rest of the request: the
// page and its navigation both show it.
const formsKey = "hubform.console.forms"

// titledForms returns forms with the titles of the stored ones, which
// the home page alone shows: one query each.
func (con *Console) titledForms(c echo.Context) ([]formRow, error) {
	forms, err := con.forms(c)
	if err != nil {
		return nil, err
	}
	forms = slices.Clone(forms)
	for i, f := range forms {
		if f.Stored {
			forms[i].Title = con.newestTitle(c, f)
		}
	}
	return forms, nil
}

// newestTitle returns the title of a stored form's newest version, or ""
// when it cannot be read, which the log tells.
func (con *Console) newestTitle(c echo.Context, r formRow) string {
	ctx := c.Request().Context()
	v, err := con.cfg.Store.FormVersion(ctx, r.Site, r.Slug, r.newest)
	if err != nil {
		con.cfg.Logger.WarnContext(ctx, "reading a form's newest version", slog.String("site", r.Site), slog.String("form", r.Slug), slog.Any("error", err))
		return ""
	}
	var doc struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(v.Body, &doc)
	return doc.Title
}
