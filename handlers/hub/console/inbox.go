package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/export"
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
	if con.cfg.Summaries != nil {
		g.GET(base+"/summary", con.summary)
	}
	g.GET(base+"/export/:format", con.export)
	g.POST(base+"/submissions/delete", con.deleteSubmissions)
	g.POST(base+"/submissions/undelete", con.undeleteSubmissions)
	g.POST(base+"/submissions/spam", con.markSpam)
	g.POST(base+"/submissions/columns", con.chooseColumns)
	g.GET(base+"/submissions/:id", con.submission)
	g.GET(base+"/submissions/:id/files/:n", con.download)
	g.GET(base+"/submissions/:id/pdf", con.pdf)
}

// inboxPath is the inbox of a form.
func inboxPath(site, slug string) string {
	return Path + "/forms/" + url.PathEscape(site) + "/" + url.PathEscape(slug) + "/submissions"
}

// Links are the console's addresses of submissions and their files, for
// the messages the hub sends elsewhere (delivery.Links). Base is the
// hub's public URL.
type Links struct{ Base string }

// Submission is the page of a submission.
func (l Links) Submission(site, slug, id string) string {
	return l.Base + inboxPath(site, slug) + "/" + url.PathEscape(id)
}

// File is the n-th file of a submission.
func (l Links) File(site, slug, id string, n int) string {
	return l.Submission(site, slug, id) + "/files/" + strconv.Itoa(n)
}

// Inbox is the inbox of a form.
func (l Links) Inbox(site, slug string) string { return l.Base + inboxPath(site, slug) }

// Account is the account page, where members ask for digests.
func (l Links) Account() string { return l.Base + accountPath }

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

// inboxRow is one submission in an inbox: its answers under the columns
// shown.
type inboxRow struct {
	ID, Created, Href string
	Answers           []inbox.Answer
	// SpamReasons say why the hub flagged it, shown in the spam view.
	SpamReasons []string
}

func (con *Console) inbox(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	q, f, problem := inbox.ParseQuery(form, c.QueryParams(), con.location(ctx))
	p := inboxProps{CSRF: con.csrfToken(c), Site: form.Site, Slug: form.Slug, Title: inbox.Title(form), Query: q, Error: problem,
		Path: inboxPath(form.Site, form.Slug), Return: q.Values().Encode()}
	p.Notice, p.Undo = con.popInboxNotice(c, form)
	if problem != "" {
		return con.render(c, http.StatusBadRequest, inboxPage(p))
	}
	loc := con.location(ctx)
	f.Limit = PageSize + 1
	var subs []hub.Submission
	err = con.cfg.Inbox.Store.ListSubmissions(ctx, f, func(s hub.Submission) error {
		subs = append(subs, s)
		return nil
	})
	if err != nil {
		return hub.Internal("listing submissions", err)
	}
	if len(subs) > PageSize {
		subs = subs[:PageSize]
		next := q.Values()
		next.Set("before", subs[PageSize-1].ID)
		p.Next = p.Path + "?" + next.Encode()
	}
	payloads := make([]json.RawMessage, len(subs))
	for i, s := range subs {
		payloads[i] = s.Payload
	}
	all := inbox.WithExtra(inbox.Columns(form.Schema), payloads...)
	hidden, err := con.hiddenColumns(c, form)
	if err != nil {
		return err
	}
	var shown []inbox.Column
	for _, col := range all {
		p.Choices = append(p.Choices, columnChoice{Name: col.Name, Label: col.Label, Shown: !hidden[col.Name]})
		if !hidden[col.Name] {
			shown = append(shown, col)
		}
	}
	p.Columns = shown
	for _, s := range subs {
		p.Rows = append(p.Rows, inboxRow{ID: s.ID, Created: formatTime(s.CreatedAt, loc), Href: submissionHref(p.Path, s.ID, p.Return),
			Answers: inbox.Answers(s, shown), SpamReasons: s.SpamReasons})
	}
	if q.Before != "" {
		p.First = p.Path + "?" + q.Values().Encode()
	}
	exp := q.Values().Encode()
	p.CSV = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/csv?" + exp
	p.JSON = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/json?" + exp
	return con.render(c, http.StatusOK, inboxPage(p))
}

// submissionHref is the page of submission id in the inbox at path, its
// previous and next those of the inbox's search in query.
func submissionHref(path, id, query string) string {
	if query == "" {
		return path + "/" + id
	}
	return path + "/" + id + "?" + query
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
	ctx := c.Request().Context()
	schema := con.cfg.Inbox.SchemaOf(ctx, form, s)
	q, f, _ := inbox.ParseQuery(form, c.QueryParams(), con.location(ctx))
	p := submissionProps{CSRF: con.csrfToken(c), Title: inbox.Title(form), Inbox: inboxPath(form.Site, form.Slug), Sub: s,
		Created: formatTime(s.CreatedAt, con.location(ctx)), Return: q.Values().Encode()}
	p.Back = p.Inbox
	if p.Return != "" {
		p.Back += "?" + p.Return
	}
	p.PDF = p.Inbox + "/" + s.ID + "/pdf"
	p.Ending = endingTitle(schema, s.Ending)
	cols := inbox.WithExtra(inbox.Columns(schema), s.Payload)
	for i, a := range inbox.Answers(s, cols) {
		p.Answers = append(p.Answers, labeledAnswer{Label: cols[i].Label, Answer: a})
	}
	p.FileHref = p.Inbox + "/" + s.ID + "/files/"
	if p.Previous, p.Next, err = con.neighbours(ctx, f, s.ID); err != nil {
		return err
	}
	if p.Previous != "" {
		p.Previous = submissionHref(p.Inbox, p.Previous, p.Return)
	}
	if p.Next != "" {
		p.Next = submissionHref(p.Inbox, p.Next, p.Return)
	}
	return con.render(c, http.StatusOK, submissionPage(p))
}

// neighbours returns the ids of the submissions listed just before and
// just after id in the inbox that f selects, newest first: the newer one
// and the older one, either empty at an end of the list.
func (con *Console) neighbours(ctx context.Context, f hub.Filter, id string) (newer, older string, err error) {
	f.Limit = 1
	f.Newest, f.Before, f.After = true, id, ""
	err = con.cfg.Inbox.Store.ListSubmissions(ctx, f, func(s hub.Submission) error { older = s.ID; return nil })
	if err != nil {
		return "", "", hub.Internal("listing submissions", err)
	}
	f.Newest, f.Before, f.After = false, "", id
	err = con.cfg.Inbox.Store.ListSubmissions(ctx, f, func(s hub.Submission) error { newer = s.ID; return nil })
	if err != nil {
		return "", "", hub.Internal("listing submissions", err)
	}
	return newer, older, nil
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
	// The deletion waits hub.UndoPeriod before it is done: the notice
	// offers to undo it, and nothing needs confirming first.
	d, err := con.cfg.SubmissionChanges.Trash(c.Request().Context(), actorOf(c), form, ids)
	if err != nil {
		return err
	}
	con.putDeleteUndo(c, form, ids, d)
	return c.Redirect(http.StatusSeeOther, back)
}

// undeleteSubmissions undoes a deletion within its period.
func (con *Console) undeleteSubmissions(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ids, back, err := selected(c, form)
	if err != nil || len(ids) == 0 {
		return c.String(http.StatusBadRequest, "Choose the submissions to restore first.")
	}
	n, err := con.cfg.SubmissionChanges.Undelete(c.Request().Context(), actorOf(c), form, ids)
	if err != nil {
		return err
	}
	if n == 0 {
		return con.noticeAndGo(c, back, "Those submissions are deleted for good: they can be restored only for "+undoPeriod+".")
	}
	s := submissionsCount(n)
	return con.noticeAndGo(c, back, strings.ToUpper(s[:1])+s[1:]+" restored.")
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
	con.putUndo(c, form, ids, spam)
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
	sh := export.Sheet{Title: inbox.Title(form), Location: con.location(c.Request().Context())}
	if form.Schema != nil && len(form.Schema.Endings) > 0 {
		sh.Endings = map[string]string{}
		for _, e := range form.Schema.Endings {
			sh.Endings[e.ID] = e.Title
		}
	}
	for _, col := range inbox.Columns(form.Schema) {
		sh.Columns = append(sh.Columns, col.Sheet()...)
	}
	links := Links{Base: con.publicURL(c)}
	sh.FileURL = func(id string, n int) string { return links.File(form.Site, form.Slug, id, n) }
	return con.cfg.SubmissionChanges.Export(c.Request().Context(), actorOf(c), form.Site, form.Slug, format, c.QueryParams(),
		func() error { return con.cfg.Inbox.ExportSheet(c.Response(), c.Request(), form, format, f, sh) })
}

// userEmail is the signed-in user's address, for the log.
func userEmail(c echo.Context) string {
	u, _ := c.Get(userKey).(accounts.User)
	return u.Email
}
