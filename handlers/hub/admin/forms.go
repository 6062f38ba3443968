package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
)

// FormStore reads the forms kept in the hub's database, as sqldb.DB keeps
// them; Config.FormChanges saves and publishes their versions. Errors
// wrap hub.ErrNotFound for a missing form or version.
type FormStore interface {
	FormRecord(ctx context.Context, site, slug string) (formsource.Record, error)
	FormRecords(ctx context.Context) ([]formsource.Record, error)
	FormVersion(ctx context.Context, site, slug string, version int64) (formsource.Version, error)
	FormVersions(ctx context.Context, site, slug string) ([]formsource.Version, error)
}

// Directory is the forms directory beside the database, as formsource.Layered
// sees it: its forms are read-only here, and a site and slug it holds
// cannot be saved to the database, since the directory's form would be
// served instead.
type Directory interface {
	InDirectory(site, slug string) bool
	// HoldsSite reports whether the directory holds site, which then
	// belongs to the workspace that serves the directory alone.
	HoldsSite(site string) bool
	Forms() ([]*hub.Form, []error)
}

// maxFormBody caps a saved form file, a little over what formsource.Parse
// accepts so that its own message names the limit.
const maxFormBody = 1<<20 + 1

func (a *API) registerForms(g *echo.Group) {
	g.GET("/forms", a.listForms)
	g.GET("/forms/:site/:slug", a.getForm)
	g.PUT("/forms/:site/:slug/version", a.putVersion)
	// The route's first name, kept for the clients that use it.
	g.PUT("/forms/:site/:slug/draft", a.putVersion)
	g.GET("/forms/:site/:slug/versions", a.listVersions)
	g.GET("/forms/:site/:slug/versions/:version", a.getVersion)
	g.POST("/forms/:site/:slug/versions/:version/publish", a.publish)
}

// FormList is the answer of GET /v1/admin/forms.
type FormList struct {
	OK bool `json:"ok"`
	// Forms are the forms in the database.
	Forms []formsource.Record `json:"forms"`
	// Directory lists the forms of the forms directory, served read-only.
	Directory []DirectoryForm `json:"directory"`
}

// DirectoryForm names a form of the forms directory.
type DirectoryForm struct {
	Site string `json:"site"`
	Slug string `json:"slug"`
}

// listForms lists the forms of the token's workspace's sites.
func (a *API) listForms(c echo.Context) error {
	ctx := c.Request().Context()
	sites, err := a.cfg.Sites.Sites(ctx, TokenOf(c).Workspace)
	if err != nil {
		return hub.Internal("listing forms", err)
	}
	recs, err := a.cfg.Forms.FormRecords(ctx)
	if err != nil {
		return hub.Internal("listing forms", err)
	}
	out := FormList{OK: true, Forms: []formsource.Record{}, Directory: []DirectoryForm{}}
	for _, r := range recs {
		if slices.Contains(sites, r.Site) {
			out.Forms = append(out.Forms, r)
		}
	}
	if a.cfg.Directory != nil {
		// Files that do not validate are logged by the directory.
		dir, _ := a.cfg.Directory.Forms()
		for _, f := range dir {
			if slices.Contains(sites, f.Site) {
				out.Directory = append(out.Directory, DirectoryForm{Site: f.Site, Slug: f.Slug})
			}
		}
	}
	return c.JSON(http.StatusOK, out)
}

// FormDetail is the answer of GET /v1/admin/forms/{site}/{slug}: the
// form, its live version's file, its newest version's file when that is
// newer and not published, and its versions, newest first.
type FormDetail struct {
	OK   bool              `json:"ok"`
	Form formsource.Record `json:"form"`
	Live jsonBody          `json:"live"`
	// Unpublished is the newest version's file when it is not live. Its
	// member keeps the name "draft" it was first given, for the clients
	// that read it.
	Unpublished jsonBody             `json:"draft"`
	Versions    []formsource.Version `json:"versions"`
}

// jsonBody is a stored form file, written into an answer as it is, or
// null when empty.
type jsonBody []byte

func (b jsonBody) MarshalJSON() ([]byte, error) {
	if len(b) == 0 {
		return []byte("null"), nil
	}
	return b, nil
}

func (a *API) getForm(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	rec, err := a.cfg.Forms.FormRecord(ctx, site, slug)
	if err != nil {
		return a.formError(c, site, slug, err)
	}
	out := FormDetail{OK: true, Form: rec}
	body := func(n int64) (jsonBody, error) {
		if n == 0 {
			return nil, nil
		}
		v, err := a.cfg.Forms.FormVersion(ctx, site, slug, n)
		return jsonBody(v.Body), err
	}
	if out.Live, err = body(rec.LiveVersion); err != nil {
		return a.formError(c, site, slug, err)
	}
	if rec.LastVersion != rec.LiveVersion {
		if out.Unpublished, err = body(rec.LastVersion); err != nil {
			return a.formError(c, site, slug, err)
		}
	}
	if out.Versions, err = a.cfg.Forms.FormVersions(ctx, site, slug); err != nil {
		return a.formError(c, site, slug, err)
	}
	return c.JSON(http.StatusOK, out)
}

// VersionList is the answer of GET /v1/admin/forms/{site}/{slug}/versions.
type VersionList struct {
	OK          bool                 `json:"ok"`
	LiveVersion int64                `json:"liveVersion"`
	Versions    []formsource.Version `json:"versions"`
}

func (a *API) listVersions(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	rec, err := a.cfg.Forms.FormRecord(ctx, site, slug)
	if err != nil {
		return a.formError(c, site, slug, err)
	}
	vs, err := a.cfg.Forms.FormVersions(ctx, site, slug)
	if err != nil {
		return a.formError(c, site, slug, err)
	}
	return c.JSON(http.StatusOK, VersionList{OK: true, LiveVersion: rec.LiveVersion, Versions: vs})
}

// getVersion answers one version's form file exactly as it was saved, so
// that what is pulled is what was pushed. The version is a number, "live"
// or "latest". The header Hubform-Version carries its number.
func (a *API) getVersion(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	n, err := a.versionParam(ctx, c)
	if err != nil {
		return err
	}
	v, err := a.cfg.Forms.FormVersion(ctx, site, slug, n)
	if err != nil {
		return a.formError(c, site, slug, err)
	}
	c.Response().Header().Set("Hubform-Version", strconv.FormatInt(v.Version, 10))
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, v.Body)
}

// versionParam reads the version of the path, resolving "live" and
// "latest", or answers and returns the answer's error.
func (a *API) versionParam(ctx context.Context, c echo.Context) (int64, error) {
	site, slug, p := c.Param("site"), c.Param("slug"), c.Param("version")
	if p != "live" && p != "latest" {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 1 {
			return 0, &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("version %q: want a number from 1, live or latest", p)}
		}
		return n, nil
	}
	rec, err := a.cfg.Forms.FormRecord(ctx, site, slug)
	if err != nil {
		return 0, a.formError(c, site, slug, err)
	}
	if p == "latest" {
		return rec.LastVersion, nil
	}
	if rec.LiveVersion == 0 {
		return 0, &hub.Error{Status: http.StatusNotFound, Message: fmt.Sprintf("form %s/%s has no published version", site, slug)}
	}
	return rec.LiveVersion, nil
}

// Saved is the answer of a saved version and of a publish.
type Saved struct {
	OK      bool   `json:"ok"`
	Site    string `json:"site"`
	Slug    string `json:"slug"`
	Version int64  `json:"version"`
	// Live is whether Version is the live version.
	Live bool `json:"live"`
}

// Invalid is the answer 422 of a form file that does not validate: every
// problem found, each naming the member or field it is about.
type Invalid struct {
	OK       bool     `json:"ok"`
	Error    string   `json:"error"`
	Problems []string `json:"problems"`
	// Errors are the same problems with the JSON path of each member,
	// for programs that point at it.
	Errors []Problem `json:"errors"`
}

// Problem is one problem of an Invalid answer.
type Problem struct {
	// Path is the member's JSON path, such as "fields[2].name"; empty
	// for the file as a whole.
	Path    string `json:"path"`
	Message string `json:"message"`
}

// invalid returns the answer 422 of err, an error of formsource.Parse.
func invalid(message string, err error) Invalid {
	out := Invalid{Error: message, Problems: problems(err), Errors: []Problem{}}
	for _, p := range formsource.Problems(err) {
		out.Errors = append(out.Errors, Problem{Path: p.Path, Message: strings.ReplaceAll(p.Error(), "\n", "; ")})
	}
	return out
}

// putVersion saves the body, a form file, as the form's newest version,
// not yet live, once it validates exactly as a file of the forms
// directory must.
func (a *API) putVersion(c echo.Context) error {
	r := c.Request()
	site, slug := c.Param("site"), c.Param("slug")
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != echo.MIMEApplicationJSON {
		return &hub.Error{Status: http.StatusUnsupportedMediaType, Message: "send the form file as application/json"}
	}
	if hubhttp.OverLimit(c, maxFormBody) {
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the form file is larger than %d bytes", maxFormBody-1)}
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, maxFormBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the form file is larger than %d bytes", maxFormBody-1)}
	case err != nil:
		a.cfg.Logger.InfoContext(r.Context(), "form body not read", "error", err)
		return &hub.Error{Status: http.StatusBadRequest, Message: "the request body could not be read"}
	}
	// A file copied from a console page that hides its secrets keeps the
	// stored ones.
	if formsource.HasHidden(body) {
		var stored []byte
		if rec, err := a.cfg.Forms.FormRecord(r.Context(), site, slug); err == nil {
			v, err := a.cfg.Forms.FormVersion(r.Context(), site, slug, rec.LastVersion)
			if err != nil {
				return hub.Internal("reading a form", err)
			}
			stored = v.Body
		} else if !errors.Is(err, hub.ErrNotFound) {
			return hub.Internal("reading a form", err)
		}
		if body, err = formsource.KeepSecrets(body, stored); err != nil {
			return c.JSON(http.StatusUnprocessableEntity, invalid(fmt.Sprintf("form %s/%s is not valid; nothing was saved", site, slug), err))
		}
	}
	if _, err := formsource.Parse(site, slug, body); err != nil {
		return c.JSON(http.StatusUnprocessableEntity, invalid(fmt.Sprintf("form %s/%s is not valid; nothing was saved", site, slug), err))
	}
	if a.cfg.Directory != nil && a.cfg.Directory.InDirectory(site, slug) {
		return &hub.Error{Status: http.StatusConflict, Message: fmt.Sprintf("form %s/%s is in the hub's forms directory, which wins over the database: rename it, or change its file", site, slug)}
	}
	if err := a.claimSite(c); err != nil {
		return err
	}
	n, err := a.cfg.FormChanges.Save(r.Context(), actorOf(c), site, slug, body)
	if err != nil {
		return a.changeError(c, site, slug, err)
	}
	return c.JSON(http.StatusCreated, Saved{OK: true, Site: site, Slug: slug, Version: n})
}

// problems splits the joined errors of formsource.Parse.
func problems(err error) []string {
	var out []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, problems(e)...)
		}
		return out
	}
	return append(out, strings.ReplaceAll(err.Error(), "\n", "; "))
}

// publish makes a version live: a newer one, or an earlier one again.
func (a *API) publish(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	n, err := a.versionParam(ctx, c)
	if err != nil {
		return err
	}
	if a.cfg.Directory != nil && a.cfg.Directory.InDirectory(site, slug) {
		return &hub.Error{Status: http.StatusConflict, Message: fmt.Sprintf("form %s/%s is in the hub's forms directory, which wins over the database: its database versions cannot be served", site, slug)}
	}
	// Checked again: a version saved by an older hub may not pass today's
	// rules, and would then not be served.
	v, err := a.cfg.Forms.FormVersion(ctx, site, slug, n)
	if err != nil {
		return a.formError(c, site, slug, err)
	}
	if _, err := formsource.Parse(site, slug, v.Body); err != nil {
		return c.JSON(http.StatusUnprocessableEntity, invalid(fmt.Sprintf("version %d of form %s/%s is not valid; it was not published", n, site, slug), err))
	}
	if err := a.cfg.FormChanges.Publish(ctx, actorOf(c), site, slug, n); err != nil {
		return a.changeError(c, site, slug, err)
	}
	return c.JSON(http.StatusOK, Saved{OK: true, Site: site, Slug: slug, Version: n, Live: true})
}

// formError answers 404 for a missing form or version, else 500.
func (a *API) formError(c echo.Context, site, slug string, err error) error {
	if errors.Is(err, hub.ErrNotFound) {
		return &hub.Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no such form or version: %s/%s", site, slug)}
	}
	return hub.Internal("reading a form", err)
}
