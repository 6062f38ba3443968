package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/hubclient"
)

// PageSize is how many submissions an inbox page lists.
const PageSize = 50

// inboxRoutes adds the inbox's routes to g, when the console has a store.
func (con *Console) inboxRoutes(g *echo.Group) {
	if con.cfg.Inbox == nil {
		return
	}
	base := "/forms/:site/:slug"
	g.GET(base+"/overview", con.overview)
	g.GET(base+"/share", con.share)
	g.GET(base+"/share/qr", con.shareQR)
	g.GET(base+"/submissions", con.inbox)
	g.GET(base+"/export/:format", con.export)
	g.POST(base+"/submissions/delete", con.deleteSubmissions)
	g.POST(base+"/submissions/spam", con.markSpam)
	g.GET(base+"/submissions/:id", con.submission)
	g.GET(base+"/submissions/:id/files/:n", con.download)
	g.GET(base+"/submissions/:id/pdf", con.pdf)
}

// inboxPath is the inbox of a form.
func inboxPath(site, slug string) string {
	return Path + "/forms/" + url.PathEscape(site) + "/" + url.PathEscape(slug) + "/submissions"
}

// form returns the form the route names, or a 404: every inbox route
// serves the submissions of one form the hub knows, and of no other. A
// database form not yet published is known by its newest version.
func (con *Console) form(c echo.Context) (*hub.Form, error) {
	ctx, site, slug := c.Request().Context(), c.Param("site"), c.Param("slug")
	f, err := con.cfg.Inbox.Form(ctx, site, slug)
	if errors.Is(err, hub.ErrNotFound) && con.cfg.Store != nil {
		f, err = con.newestForm(ctx, site, slug)
	}
	if errors.Is(err, hub.ErrNotFound) {
		return nil, noSuchForm
	}
	return f, err
}

// newestForm returns the newest version of a database form, with an empty
// schema when it does not validate.
func (con *Console) newestForm(ctx context.Context, site, slug string) (*hub.Form, error) {
	rec, err := con.cfg.Store.FormRecord(ctx, site, slug)
	if err != nil {
		return nil, err
	}
	v, err := con.cfg.Store.FormVersion(ctx, site, slug, rec.LastVersion)
	if err != nil {
		return nil, err
	}
	if f, err := formsource.Parse(site, slug, v.Body); err == nil {
		return f, nil
	}
	return &hub.Form{Site: site, Slug: slug, Schema: &hubclient.Schema{}}, nil
}

// noSuchForm answers a route that names a form the hub does not know.
var noSuchForm = &hub.Error{Status: http.StatusNotFound, Message: "No such form."}

// inboxRow is one submission in an inbox.
type inboxRow struct {
	ID, Created, Summary string
	Files                int
	// SpamReasons say why the hub flagged it, shown in the spam view.
	SpamReasons []string
}

func (con *Console) inbox(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	q, f, problem := inbox.ParseQuery(form, c.QueryParams(), con.location(c.Request().Context()))
	p := inboxProps{CSRF: con.csrfToken(c), Site: form.Site, Slug: form.Slug, Title: inbox.Title(form), Query: q, Error: problem,
		Path: inboxPath(form.Site, form.Slug), Return: q.Values().Encode()}
	if problem != "" {
		return con.render(c, http.StatusBadRequest, inboxPage(p))
	}
	labels, loc := inbox.Labels(form.Schema), con.location(c.Request().Context())
	f.Limit = PageSize + 1
	err = con.cfg.Inbox.Store.ListSubmissions(c.Request().Context(), f, func(s hub.Submission) error {
		p.Rows = append(p.Rows, inboxRow{ID: s.ID, Created: formatTime(s.CreatedAt, loc),
			Summary: inbox.Summary(s.Payload, labels), Files: len(s.Attachments), SpamReasons: s.SpamReasons})
		return nil
	})
	if err != nil {
		return hub.Internal("listing submissions", err)
	}
	if len(p.Rows) > PageSize {
		p.Rows = p.Rows[:PageSize]
		next := q.Values()
		next.Set("before", p.Rows[PageSize-1].ID)
		p.Next = p.Path + "?" + next.Encode()
	}
	if q.Before != "" {
		p.First = p.Path + "?" + q.Values().Encode()
	}
	exp := q.Values().Encode()
	p.CSV = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/csv?" + exp
	p.JSON = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/json?" + exp
	return con.render(c, http.StatusOK, inboxPage(p))
}

// submissionOf returns the form and the submission the route names, or a
// 404 when there is no such form or no such submission of it.
func (con *Console) submissionOf(c echo.Context) (*hub.Form, hub.Submission, error) {
	form, err := con.form(c)
	if err != nil {
		return nil, hub.Submission{}, err
	}
	s, err := con.cfg.Inbox.Submission(c.Request().Context(), form, c.Param("id"))
	return form, s, err
}

func (con *Console) submission(c echo.Context) error {
	form, s, err := con.submissionOf(c)
	if err != nil {
		return err
	}
	schema := con.cfg.Inbox.SchemaOf(c.Request().Context(), form, s)
	p := submissionProps{CSRF: con.csrfToken(c), Title: inbox.Title(form), Inbox: inboxPath(form.Site, form.Slug), Sub: s,
		Created: formatTime(s.CreatedAt, con.location(c.Request().Context())), Values: inbox.Values(s.Payload, inbox.Labels(schema))}
	p.PDF = p.Inbox + "/" + s.ID + "/pdf"
	for i, a := range s.Attachments {
		p.Files = append(p.Files, fileLink{Name: a.Filename, Size: a.Size, Href: p.Inbox + "/" + s.ID + "/files/" + strconv.Itoa(i)})
	}
	return con.render(c, http.StatusOK, submissionPage(p))
}

// pdf answers the submission as a PDF document to download, its time in
// the session's time zone as on its page.
func (con *Console) pdf(c echo.Context) error {
	form, s, err := con.submissionOf(c)
	if err != nil {
		return err
	}
	return con.cfg.Inbox.ServePDF(c.Response(), c.Request(), form, s, con.location(c.Request().Context()))
}

func (con *Console) download(c echo.Context) error {
	_, s, err := con.submissionOf(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(s.Attachments) {
		return c.String(http.StatusNotFound, "No such file in this submission.")
	}
	err = con.cfg.Inbox.ServeFile(c.Response(), c.Request(), s.Attachments[n])
	if errors.Is(err, hub.ErrNotFound) {
		return c.String(http.StatusNotFound, "This file is no longer in the hub's storage.")
	}
	if err != nil {
		return hub.Internal("reading a file", err)
	}
	return nil
}

// selected returns the ids a post names, and where to go back to.
func selected(c echo.Context, form *hub.Form) ([]string, string, error) {
	params, err := c.FormParams()
	if err != nil {
		return nil, "", err
	}
	back := inboxPath(form.Site, form.Slug)
	if ret, err := url.ParseQuery(params.Get("return")); err == nil && len(ret) > 0 {
		back += "?" + ret.Encode()
	}
	return params["id"], back, nil
}

func (con *Console) deleteSubmissions(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ids, back, err := selected(c, form)
	if err != nil || len(ids) == 0 {
		return c.String(http.StatusBadRequest, "Choose the submissions to delete first.")
	}
	if ok, err := con.confirmed(c, confirmation{
		Question: "Delete " + submissionsCount(len(ids)) + "?", Detail: "Their files are deleted with them. This cannot be undone.",
		Action: "Delete", Cancel: back,
	}); !ok {
		return err
	}
	if _, err := con.cfg.SubmissionChanges.Delete(c.Request().Context(), actorOf(c), form, ids); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// submissionsCount says "one submission" or "3 submissions".
func submissionsCount(n int) string {
	if n == 1 {
		return "one submission"
	}
	return number(n) + " submissions"
}

func (con *Console) markSpam(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ids, back, err := selected(c, form)
	if err != nil || len(ids) == 0 {
		return c.String(http.StatusBadRequest, "Choose the submissions to mark first.")
	}
	spam := c.FormValue("spam") == "1"
	if err := con.cfg.SubmissionChanges.MarkSpam(c.Request().Context(), actorOf(c), form.Site, form.Slug, ids, spam); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, back)
}

func (con *Console) export(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	format := c.Param("format")
	if !inbox.ValidFormat(format) {
		return c.String(http.StatusNotFound, "Export as csv or json.")
	}
	_, f, problem := inbox.ParseQuery(form, c.QueryParams(), con.location(c.Request().Context()))
	if problem != "" {
		return c.String(http.StatusBadRequest, problem)
	}
	return con.cfg.SubmissionChanges.Export(c.Request().Context(), actorOf(c), form.Site, form.Slug, format, c.QueryParams(),
		func() error { return con.cfg.Inbox.Export(c.Response(), c.Request(), form, format, f) })
}

// userEmail is the signed-in user's address, for the log.
func userEmail(c echo.Context) string {
	u, _ := c.Get(userKey).(accounts.User)
	return u.Email
}
