package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/inbox"
)

// Page sizes of the submissions list.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

func (a *API) registerSubmissions(g *echo.Group) {
	g.GET("/forms/:site/:slug/submissions", a.listSubmissions)
	g.GET("/forms/:site/:slug/submissions/:id", a.getSubmission)
	g.GET("/forms/:site/:slug/submissions/:id/files/:n", a.getFile)
	g.GET("/forms/:site/:slug/submissions/:id/pdf", a.getPDF)
	g.DELETE("/forms/:site/:slug/submissions/:id", a.deleteSubmission)
	g.GET("/forms/:site/:slug/export/:format", a.exportSubmissions)
}

// Submission is a submission as the API answers it: its values under the
// labels of the form version it was sent to, and its files with the route
// that downloads each (a redirect to a short-lived link when the files are
// in a bucket).
type Submission struct {
	ID          string    `json:"id"`
	CreatedAt   time.Time `json:"createdAt"`
	FormVersion int64     `json:"formVersion,omitempty"`
	Spam        bool      `json:"spam"`
	// SpamReasons say why the hub flagged it as spam, when it did.
	SpamReasons []string      `json:"spamReasons,omitempty"`
	Values      []inbox.Value `json:"values"`
	// Calculations are the form's calculations as the hub worked them out
	// and stored them, by name, numbers as numbers; absent for a form
	// without.
	Calculations map[string]any `json:"calculations,omitempty"`
	Files        []File         `json:"files"`
}

// File is one file of a Submission.
type File struct {
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	MIME     string `json:"mime"`
	URL      string `json:"url"`
}

// SubmissionList is the answer of GET …/submissions: a page, newest first.
type SubmissionList struct {
	OK          bool         `json:"ok"`
	Submissions []Submission `json:"submissions"`
	// Next is the cursor of the next page, to send as before=Next; empty
	// on the last page.
	Next string `json:"next,omitempty"`
}

// form returns the form the route names, or its 404.
func (a *API) form(c echo.Context) (*hub.Form, error) {
	f, err := a.cfg.Inbox.Form(c.Request().Context(), c.Param("site"), c.Param("slug"))
	if err != nil {
		return nil, a.formError(c, c.Param("site"), c.Param("slug"), err)
	}
	return f, nil
}

// submission renders s for an answer.
func (a *API) submission(c echo.Context, form *hub.Form, s hub.Submission) Submission {
	schema := a.cfg.Inbox.SchemaOf(c.Request().Context(), form, s)
	out := Submission{ID: s.ID, CreatedAt: s.CreatedAt, FormVersion: s.FormVersion, Spam: s.Spam,
		SpamReasons: s.SpamReasons, Values: inbox.Values(s.Payload, inbox.Labels(schema)), Calculations: s.Calculations, Files: []File{}}
	if out.Values == nil {
		out.Values = []inbox.Value{}
	}
	for i, f := range s.Attachments {
		out.Files = append(out.Files, File{Filename: f.Filename, Size: f.Size, MIME: f.MIME,
			URL: Prefix + "/forms/" + form.Site + "/" + form.Slug + "/submissions/" + s.ID + "/files/" + strconv.Itoa(i)})
	}
	return out
}

// listSubmissions answers a page of the form's submissions, newest first:
// q, from, to and spam=1 filter as the console's inbox does, before is the
// cursor and limit the page's size (at most MaxPageSize).
func (a *API) listSubmissions(c echo.Context) error {
	form, err := a.form(c)
	if err != nil {
		return err
	}
	_, f, problem := inbox.ParseQuery(form, c.QueryParams(), time.UTC)
	if problem != "" {
		return &hub.Error{Status: http.StatusBadRequest, Message: problem}
	}
	limit := DefaultPageSize
	if s := c.QueryParam("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > MaxPageSize {
			return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("limit %q: want a number from 1 to %d", s, MaxPageSize)}
		}
	}
	f.Limit = limit + 1
	out := SubmissionList{OK: true, Submissions: []Submission{}}
	err = a.cfg.Inbox.Store.ListSubmissions(c.Request().Context(), f, func(s hub.Submission) error {
		out.Submissions = append(out.Submissions, a.submission(c, form, s))
		return nil
	})
	if err != nil {
		return hub.Internal("listing submissions", err)
	}
	if len(out.Submissions) > limit {
		out.Submissions = out.Submissions[:limit]
		out.Next = out.Submissions[limit-1].ID
	}
	return c.JSON(http.StatusOK, out)
}

// submissionOf returns the form and the submission the route names, or
// the answer 404.
func (a *API) submissionOf(c echo.Context) (*hub.Form, hub.Submission, error) {
	form, err := a.form(c)
	if err != nil {
		return nil, hub.Submission{}, err
	}
	s, err := a.cfg.Inbox.Submission(c.Request().Context(), form, c.Param("id"))
	return form, s, err
}

func (a *API) getSubmission(c echo.Context) error {
	form, s, err := a.submissionOf(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, struct {
		OK         bool       `json:"ok"`
		Submission Submission `json:"submission"`
	}{true, a.submission(c, form, s)})
}

func (a *API) getFile(c echo.Context) error {
	_, s, err := a.submissionOf(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(s.Attachments) {
		return &hub.Error{Status: http.StatusNotFound, Message: "no such file in this submission"}
	}
	err = a.cfg.Inbox.ServeFile(c.Response(), c.Request(), s.Attachments[n])
	if errors.Is(err, hub.ErrNotFound) {
		return &hub.Error{Status: http.StatusNotFound, Message: "this file is no longer in the hub's storage"}
	}
	if err != nil {
		return hub.Internal("reading a file", err)
	}
	return nil
}

// getPDF answers the submission as a PDF document, its time in UTC: a
// token has no time zone.
func (a *API) getPDF(c echo.Context) error {
	form, s, err := a.submissionOf(c)
	if err != nil {
		return err
	}
	return a.cfg.Inbox.ServePDF(c.Response(), c.Request(), form, s, time.UTC)
}

// Deleted is the answer of a deleted submission.
type Deleted struct {
	OK    bool   `json:"ok"`
	ID    string `json:"id"`
	Files int    `json:"files"`
}

func (a *API) deleteSubmission(c echo.Context) error {
	form, s, err := a.submissionOf(c)
	if err != nil {
		return err
	}
	d, err := a.cfg.SubmissionChanges.DeleteOne(c.Request().Context(), actorOf(c), form, s.ID)
	if err != nil {
		return a.changeError(c, form.Site, form.Slug, err)
	}
	return c.JSON(http.StatusOK, Deleted{OK: true, ID: s.ID, Files: len(d.Files)})
}

// exportSubmissions answers every submission the query selects, oldest
// first, as CSV or JSON.
func (a *API) exportSubmissions(c echo.Context) error {
	form, err := a.form(c)
	if err != nil {
		return err
	}
	format := c.Param("format")
	if !inbox.ValidFormat(format) {
		return &hub.Error{Status: http.StatusNotFound, Message: "export as csv or json"}
	}
	_, f, problem := inbox.ParseQuery(form, c.QueryParams(), time.UTC)
	if problem != "" {
		return &hub.Error{Status: http.StatusBadRequest, Message: problem}
	}
	err = a.cfg.SubmissionChanges.Export(c.Request().Context(), actorOf(c), form.Site, form.Slug, format, c.QueryParams(),
		func() error { return a.cfg.Inbox.Export(c.Response(), c.Request(), form, format, f) })
	return a.changeError(c, form.Site, form.Slug, err)
}
