package console

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/hubclient"
)

// Submissions is what the inbox needs of the hub's database (sqldb.DB).
type Submissions interface {
	ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error
	Submission(ctx context.Context, id string) (hub.Submission, error)
	DeleteSubmissions(ctx context.Context, site, slug string, ids []string) (hub.Deleted, error)
	SetSpam(ctx context.Context, site, slug string, ids []string, spam bool) (int, error)
	// FormVersion returns a version of a database form, for the labels a
	// submission was sent with.
	FormVersion(ctx context.Context, site, slug string, version int64) (formsource.Version, error)
}

// Files is what the inbox needs of the hub's file storage.
type Files interface {
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// LinkSigner is implemented by Files kept in a bucket (s3blob.Bucket):
// downloads are redirected to a short-lived presigned link rather than
// passed through the hub.
type LinkSigner interface {
	SignedGetURL(ctx context.Context, key, filename string, expiry time.Duration) (string, error)
}

// Inbox settings.
const (
	// PageSize is how many submissions an inbox page lists.
	PageSize = 50
	// DownloadLinkExpiry is how long a presigned download link works.
	DownloadLinkExpiry = time.Minute
)

// inboxRoutes adds the inbox's routes to g, when the console has a store.
func (con *Console) inboxRoutes(g *echo.Group) {
	if con.cfg.Submissions == nil || con.cfg.Lookup == nil || con.cfg.Files == nil {
		return
	}
	base := "/forms/:site/:slug"
	g.GET(base+"/submissions", con.inbox)
	g.GET(base+"/export/:format", con.export)
	g.POST(base+"/submissions/delete", con.deleteSubmissions)
	g.POST(base+"/submissions/spam", con.markSpam)
	g.GET(base+"/submissions/:id", con.submission)
	g.GET(base+"/submissions/:id/files/:n", con.download)
}

// inboxPath is the inbox of a form.
func inboxPath(site, slug string) string {
	return Path + "/forms/" + url.PathEscape(site) + "/" + url.PathEscape(slug) + "/submissions"
}

// form returns the form the route names, or a 404: every inbox route
// serves the submissions of one form the hub knows, and of no other.
func (con *Console) form(c echo.Context) (*hub.Form, error) {
	site, slug := c.Param("site"), c.Param("slug")
	if !hub.ValidName(site) || !hub.ValidName(slug) {
		return nil, noSuchForm
	}
	f, err := con.cfg.Lookup.Lookup(site, slug)
	if errors.Is(err, hub.ErrNotFound) {
		return nil, noSuchForm
	}
	if err != nil {
		// Its submissions are still readable; labels are then the names.
		con.cfg.Logger.WarnContext(c.Request().Context(), "inbox of a form not served", slog.String("site", site), slog.String("form", slug), slog.Any("error", err))
		f = &hub.Form{Site: site, Slug: slug, Schema: &hubclient.Schema{}}
	}
	return f, nil
}

// noSuchForm answers a route that names a form the hub does not know.
var noSuchForm = &hub.Error{Status: http.StatusNotFound, Message: "No such form."}

// inboxQuery is an inbox's filter as its URL carries it.
type inboxQuery struct {
	Search, From, To string
	Spam             bool
	Before           string
}

// values is q as a URL query, without the cursor.
func (q inboxQuery) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"q": q.Search, "from": q.From, "to": q.To} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Spam {
		v.Set("spam", "1")
	}
	return v
}

// filter reads the inbox's query into a filter of the form, or says what
// is wrong with it.
func filter(form *hub.Form, v url.Values) (inboxQuery, hub.Filter, string) {
	q := inboxQuery{Search: strings.TrimSpace(v.Get("q")), From: v.Get("from"), To: v.Get("to"), Spam: v.Get("spam") == "1", Before: v.Get("before")}
	f := hub.Filter{Site: form.Site, Slug: form.Slug, Search: q.Search, Newest: true, Before: q.Before, Spam: hub.NotSpam}
	if q.Spam {
		f.Spam = hub.OnlySpam
	}
	day := func(s string) (time.Time, bool) {
		t, err := time.Parse(time.DateOnly, s)
		return t, err == nil
	}
	if q.From != "" {
		t, ok := day(q.From)
		if !ok {
			return q, f, "The date “from” must be a date such as 2026-11-23."
		}
		f.From = t
	}
	if q.To != "" {
		t, ok := day(q.To)
		if !ok {
			return q, f, "The date “to” must be a date such as 2026-11-23."
		}
		// The day itself is included.
		f.To = t.AddDate(0, 0, 1)
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return q, f, "The date “from” must not be after the date “to”."
	}
	return q, f, ""
}

// inboxRow is one submission in an inbox.
type inboxRow struct {
	ID, Created, Summary string
	Files                int
}

func (con *Console) inbox(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	q, f, problem := filter(form, c.QueryParams())
	p := inboxProps{CSRF: csrfToken(c), Site: form.Site, Slug: form.Slug, Title: formTitle(form), Query: q, Error: problem,
		Path: inboxPath(form.Site, form.Slug), Return: q.values().Encode()}
	if problem != "" {
		return render(c, http.StatusBadRequest, inboxPage(p))
	}
	labels := fieldLabels(form.Schema)
	f.Limit = PageSize + 1
	err = con.cfg.Submissions.ListSubmissions(c.Request().Context(), f, func(s hub.Submission) error {
		p.Rows = append(p.Rows, inboxRow{ID: s.ID, Created: s.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"),
			Summary: summary(s.Payload, labels), Files: len(s.Attachments)})
		return nil
	})
	if err != nil {
		return hub.Internal("listing submissions", err)
	}
	if len(p.Rows) > PageSize {
		p.Rows = p.Rows[:PageSize]
		next := q.values()
		next.Set("before", p.Rows[PageSize-1].ID)
		p.Next = p.Path + "?" + next.Encode()
	}
	if q.Before != "" {
		p.First = p.Path + "?" + q.values().Encode()
	}
	exp := q.values().Encode()
	p.CSV = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/csv?" + exp
	p.JSON = Path + "/forms/" + form.Site + "/" + form.Slug + "/export/json?" + exp
	return render(c, http.StatusOK, inboxPage(p))
}

func formTitle(f *hub.Form) string {
	if f.Schema != nil && f.Schema.Title != "" {
		return f.Schema.Title
	}
	return f.Site + "/" + f.Slug
}

// fieldLabels maps the schema's field names to their labels, in the
// schema's order.
type labeled struct{ Name, Label string }

func fieldLabels(s *hubclient.Schema) []labeled {
	if s == nil {
		return nil
	}
	out := make([]labeled, 0, len(s.Fields))
	for _, f := range s.Fields {
		if f.Type == hubclient.FieldFile || hubclient.IsHoneypot(f.Name) {
			continue
		}
		label := f.Label
		if label == "" {
			label = f.Name
		}
		out = append(out, labeled{f.Name, label})
	}
	return out
}

// summary is the start of a submission's values, for a list.
func summary(payload json.RawMessage, labels []labeled) string {
	var parts []string
	for _, v := range values(payload, labels) {
		if v.Value != "" {
			parts = append(parts, v.Value)
		}
		if len(parts) == 3 {
			break
		}
	}
	s := strings.Join(parts, " · ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// value is one value of a submission under its label.
type value struct{ Label, Value string }

// values returns the submission's values under the labels, in the
// schema's order, then those the schema does not name, by name.
func values(payload json.RawMessage, labels []labeled) []value {
	var m map[string]any
	json.Unmarshal(payload, &m)
	var out []value
	for _, l := range labels {
		if v, ok := m[l.Name]; ok {
			out = append(out, value{l.Label, export.Cell(v)})
			delete(m, l.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, value{k, export.Cell(m[k])})
	}
	return out
}

// submissionOf returns the submission the route names, or a 404 when
// there is none of this form.
func (con *Console) submissionOf(c echo.Context, form *hub.Form) (hub.Submission, error) {
	s, err := con.cfg.Submissions.Submission(c.Request().Context(), c.Param("id"))
	if errors.Is(err, hub.ErrNotFound) || err == nil && (s.Site != form.Site || s.Slug != form.Slug) {
		return s, &hub.Error{Status: http.StatusNotFound, Message: "No such submission of this form."}
	}
	if err != nil {
		return s, hub.Internal("reading a submission", err)
	}
	return s, nil
}

func (con *Console) submission(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	s, err := con.submissionOf(c, form)
	if err != nil {
		return err
	}
	schema := con.schemaOf(c, form, s)
	p := submissionProps{CSRF: csrfToken(c), Title: formTitle(form), Inbox: inboxPath(form.Site, form.Slug), Sub: s,
		Created: s.CreatedAt.UTC().Format("2006-01-02 15:04:05 UTC"), Values: values(s.Payload, fieldLabels(schema))}
	for i, a := range s.Attachments {
		p.Files = append(p.Files, fileLink{Name: a.Filename, Size: a.Size, Href: p.Inbox + "/" + s.ID + "/files/" + strconv.Itoa(i)})
	}
	return render(c, http.StatusOK, submissionPage(p))
}

// schemaOf returns the schema s was sent to: its form version when it
// recorded one that can still be read, else the form's current schema.
func (con *Console) schemaOf(c echo.Context, form *hub.Form, s hub.Submission) *hubclient.Schema {
	if s.FormVersion == 0 || s.FormVersion == form.Version {
		return form.Schema
	}
	ctx := c.Request().Context()
	v, err := con.cfg.Submissions.FormVersion(ctx, s.Site, s.Slug, s.FormVersion)
	if err == nil {
		var f *hub.Form
		if f, err = formsource.Parse(s.Site, s.Slug, v.Body); err == nil {
			return f.Schema
		}
	}
	con.cfg.Logger.WarnContext(ctx, "labels of the current form shown for a submission to another version",
		slog.String("submission", s.ID), slog.Int64("version", s.FormVersion), slog.Any("error", err))
	return form.Schema
}

func (con *Console) download(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	s, err := con.submissionOf(c, form)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(s.Attachments) {
		return c.String(http.StatusNotFound, "No such file in this submission.")
	}
	a := s.Attachments[n]
	ctx := c.Request().Context()
	if signer, ok := con.cfg.Files.(LinkSigner); ok {
		link, err := signer.SignedGetURL(ctx, a.Key, a.Filename, DownloadLinkExpiry)
		if err != nil {
			return hub.Internal("signing a download link", err)
		}
		return c.Redirect(http.StatusSeeOther, link)
	}
	r, err := con.cfg.Files.NewReader(ctx, a.Key)
	if errors.Is(err, hub.ErrNotFound) {
		return c.String(http.StatusNotFound, "This file is no longer in the hub's storage.")
	}
	if err != nil {
		return hub.Internal("reading a file", err)
	}
	defer r.Close()
	h := c.Response().Header()
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename})
	if disposition == "" {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", disposition)
	h.Set("Content-Length", strconv.FormatInt(a.Size, 10))
	// Never the type the visitor claimed: nothing they sent is shown. The
	// console's security headers add X-Content-Type-Options: nosniff.
	return c.Stream(http.StatusOK, "application/octet-stream", r)
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
	ctx := c.Request().Context()
	d, err := con.cfg.Submissions.DeleteSubmissions(ctx, form.Site, form.Slug, ids)
	if err != nil {
		return hub.Internal("deleting submissions", err)
	}
	hub.DeleteFiles(ctx, con.cfg.Files, d.Files, con.cfg.Logger)
	con.cfg.Logger.InfoContext(ctx, "submissions deleted", slog.String("site", form.Site), slog.String("form", form.Slug),
		slog.Int("count", d.Submissions), slog.Int("files", len(d.Files)), slog.String("by", userEmail(c)))
	return c.Redirect(http.StatusSeeOther, back)
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
	if _, err := con.cfg.Submissions.SetSpam(c.Request().Context(), form.Site, form.Slug, ids, spam); err != nil {
		return hub.Internal("marking submissions as spam", err)
	}
	return c.Redirect(http.StatusSeeOther, back)
}

func (con *Console) export(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	format := c.Param("format")
	write := map[string]func(context.Context, export.Lister, hub.Filter, io.Writer) error{"csv": export.CSV, "json": export.JSON}[format]
	if write == nil {
		return c.String(http.StatusNotFound, "Export as csv or json.")
	}
	_, f, problem := filter(form, c.QueryParams())
	if problem != "" {
		return c.String(http.StatusBadRequest, problem)
	}
	f.Before, f.Newest = "", false
	h := c.Response().Header()
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": form.Site + "-" + form.Slug + "." + format}))
	h.Set("Content-Type", map[string]string{"csv": "text/csv; charset=utf-8", "json": "application/json"}[format])
	c.Response().WriteHeader(http.StatusOK)
	if err := write(c.Request().Context(), con.cfg.Submissions, f, c.Response()); err != nil {
		// The status is sent; the download ends short, and the log says why.
		con.cfg.Logger.ErrorContext(c.Request().Context(), "export cut short", slog.String("site", form.Site), slog.String("form", form.Slug), slog.Any("error", err))
	}
	return nil
}

// userEmail is the signed-in user's address, for the log.
func userEmail(c echo.Context) string {
	u, _ := c.Get(userKey).(accounts.User)
	return u.Email
}
