package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// demoConfig configures the demo site.
type demoConfig struct {
	hubURL string
	logger *slog.Logger
	// submissions and files, when set, back the submissions page: they are
	// the demo's own hub's.
	submissions submissionLister
	files       fileOpener
	// onSuccess and onError, when set, also hear the forms' callbacks.
	onSuccess       func(ctx context.Context, f handlers.Form, values map[string]any)
	onError         func(ctx context.Context, f handlers.Form, err error)
	turnstileScript string
	// closed, when set, is told of what sends the counts of the forms'
	// funnels held when the demo stops.
	closed func(close func(context.Context))
}

type submissionLister interface {
	ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error
}

type fileOpener interface {
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
	Attributes(ctx context.Context, key string) (size int64, contentType string, err error)
}

// unreachableHub is where the demo's error page looks for a hub: a closed
// loopback port, so the fetch fails at once.
const unreachableHub = "http://127.0.0.1:9/v1"

// newDemoApp is the demo site: an Echo app with CSRF protection, as a host
// app would be, rendering forms of the hub at cfg.hubURL.
func newDemoApp(cfg demoConfig) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// Visitors reach the demo directly, so their address is the socket's.
	// An app behind a proxy would use echo.ExtractIPFromXFFHeader with the
	// proxy's networks instead. Either way the forms tell the hub the
	// visitor's address; Echo's default would believe any X-Forwarded-For
	// a visitor sends.
	e.IPExtractor = echo.ExtractIPDirect()
	e.Use(middleware.Recover())
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{MinLength: 1024, Skipper: func(c echo.Context) bool {
		return strings.Contains(c.Path(), "/static/") || strings.HasPrefix(c.Path(), "/submissions/files/")
	}}))
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{TokenLookup: "form:_csrf", CookieSameSite: http.SameSiteLaxMode, CookiePath: "/"}))
	forms := handlers.New(handlers.Config{
		HubURL: cfg.hubURL, Logger: cfg.logger, TurnstileScript: cfg.turnstileScript,
		// A second, not the default minute: the demo is where owners look
		// at a form they just published in the console.
		CacheTTL: time.Second,
		Page:     demoLayout,
		OnSuccess: func(ctx context.Context, f handlers.Form, values map[string]any) {
			cfg.logger.Info("submission accepted", "site", f.Site, "form", f.Slug)
			if cfg.onSuccess != nil {
				cfg.onSuccess(ctx, f, values)
			}
		},
		OnError: func(ctx context.Context, f handlers.Form, err error) {
			if cfg.onError != nil {
				cfg.onError(ctx, f, err)
			}
		},
	})
	forms.Mount(e)
	if cfg.closed != nil {
		cfg.closed(forms.Close)
	}
	down := handlers.New(handlers.Config{HubURL: unreachableHub, Prefix: "/hubform-unreachable", Logger: cfg.logger, Page: demoLayout, NoCounts: true})
	down.Mount(e)
	d := &demo{cfg: cfg, forms: forms}

	e.GET("/", func(c echo.Context) error {
		var list []demoForm
		for _, slug := range []string{"contact", "survey", "price", "quiz", "unconfigured"} {
			schema, _ := forms.Schema(c.Request().Context(), "demo", slug) // nil when it cannot be fetched
			list = append(list, demoForm{Site: "demo", Slug: slug, Schema: schema})
		}
		return render(c, http.StatusOK, demoIndex(forms.Head(), list))
	})
	e.GET("/f/:site/:slug", func(c echo.Context) error {
		p := forms.PropsFor(c, c.Param("site"), c.Param("slug"))
		var locales []string
		title := p.FormSlug
		if p.InitialSchema != nil {
			locales = slices.Sorted(maps.Keys(p.InitialSchema.I18n.Translations))
			title = cmp.Or(p.InitialSchema.Title, title)
		}
		return render(c, http.StatusOK, demoFormPage(title, forms.Head(), p, locales))
	})
	e.GET("/unreachable", func(c echo.Context) error {
		return render(c, http.StatusOK, demoUnreachable(forms.Head(), down.PropsFor(c, "demo", "contact"), unreachableHub))
	})
	pictures, _ := fs.Sub(demoPictures, "demo-pictures")
	e.GET("/pictures/*", echo.WrapHandler(http.StripPrefix("/pictures/", http.FileServerFS(pictures))))
	e.GET("/standalone", d.standalone)
	e.POST("/standalone", d.standalone)
	e.GET("/submissions", d.submissionsPage)
	e.GET("/submissions/files/*", d.download)
	return e
}

type demo struct {
	cfg   demoConfig
	forms *handlers.Handler
}

// standalone is the page whose markup is the app's own: it posts to the
// app, which hands the values to a hubclient.Submitter.
func (d *demo) standalone(c echo.Context) error {
	token, _ := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string)
	page := standaloneView{CSRF: token}
	if c.Request().Method == http.MethodPost {
		page.Result, page.Err = d.submitStandalone(c)
		page.Posted = true
	}
	status := http.StatusOK
	if page.Err != "" {
		status = http.StatusBadGateway
	}
	return render(c, status, demoStandalone(d.forms.Head(), page))
}

// submitStandalone hands the post to a hubclient.Submitter and returns the
// submission's id, or a message for the visitor; the error itself, which
// names the hub, goes to the log.
func (d *demo) submitStandalone(c echo.Context) (string, string) {
	r := c.Request()
	r.Body = http.MaxBytesReader(c.Response(), r.Body, 64<<20)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		d.cfg.logger.Info("standalone post refused", "error", err)
		return "", "Your message could not be read (at most 64 MiB with its files). Please try again."
	}
	defer r.MultipartForm.RemoveAll()
	values := map[string]any{}
	for _, name := range []string{"name", "email", "message", "_hp"} {
		values[name] = r.PostFormValue(name)
	}
	if files := nonEmpty(r.MultipartForm.File["files"]); len(files) > 0 {
		values["files"] = files
	}
	s := hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: d.cfg.hubURL, SiteID: "demo", FormSlug: "contact"})
	// The hub counts and records the visitor, not the demo (c.RealIP with
	// the demo's ExtractIPDirect is the socket's address).
	res, err := s.Submit(r.Context(), hubclient.Submission{Values: values, Visitor: c.RealIP()})
	if err != nil {
		d.cfg.logger.Warn("standalone submission failed", "error", err)
		return "", "Your message could not be sent. Please try again in a moment."
	}
	return cmp.Or(res.SubmissionID, "ok"), ""
}

func nonEmpty(files []*multipart.FileHeader) []*multipart.FileHeader {
	var out []*multipart.FileHeader
	for _, f := range files {
		if f.Filename != "" {
			out = append(out, f)
		}
	}
	return out
}

// submissionsPageSize is how many submissions the submissions page shows
// at once; older ones are a link away.
const submissionsPageSize = 50

// submissionsPage lists what the demo's own hub stored, newest first, a
// page at a time: ?before=ID shows the page after the one that ended
// with ID.
func (d *demo) submissionsPage(c echo.Context) error {
	if d.cfg.submissions == nil {
		return render(c, http.StatusOK, demoSubmissions(d.forms.Head(), submissionsView{}))
	}
	before := c.QueryParam("before")
	if !validCursor(before) {
		return render(c, http.StatusBadRequest, demoSubmissions(d.forms.Head(), submissionsView{Available: true, BadCursor: true}))
	}
	v := submissionsView{Available: true, Paged: before != ""}
	// One more than a page, to know whether there is an older page.
	f := hub.Filter{Before: before, Newest: true, Limit: submissionsPageSize + 1}
	err := d.cfg.submissions.ListSubmissions(c.Request().Context(), f, func(s hub.Submission) error {
		v.Subs = append(v.Subs, s)
		return nil
	})
	if err != nil {
		d.cfg.logger.Error("listing submissions", "error", err)
		return echo.ErrInternalServerError
	}
	if len(v.Subs) > submissionsPageSize {
		v.Subs = v.Subs[:submissionsPageSize]
		v.Older = v.Subs[len(v.Subs)-1].ID
	}
	return render(c, http.StatusOK, demoSubmissions(d.forms.Head(), v))
}

// validCursor reports whether s can be a submission id, as the page's own
// links give them, or is empty.
func validCursor(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z') {
			return false
		}
	}
	return true
}

// download serves an attachment from the demo's own hub's storage.
func (d *demo) download(c echo.Context) error {
	key := c.Param("*")
	if d.cfg.files == nil || !uploadKey(key) {
		return echo.ErrNotFound
	}
	ctx := c.Request().Context()
	size, contentType, err := d.cfg.files.Attributes(ctx, key)
	if errors.Is(err, hub.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		d.cfg.logger.Error("download", "key", key, "error", err)
		return echo.ErrInternalServerError
	}
	body, err := d.cfg.files.NewReader(ctx, key)
	if errors.Is(err, hub.ErrNotFound) {
		// Deleted since Attributes.
		return echo.ErrNotFound
	}
	if err != nil {
		d.cfg.logger.Error("download", "key", key, "error", err)
		return echo.ErrInternalServerError
	}
	defer body.Close()
	allowDownload(c.Response(), c.Request(), size)
	h := c.Response().Header()
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", path.Base(key)))
	h.Set("Content-Length", fmt.Sprint(size))
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Stream(http.StatusOK, contentType, body)
}

// uploadKey reports whether key has the shape of the keys the hub gives
// uploads (hub.NewUploadKey): uploads/SITE/FORM/RANDOM/NAME, RANDOM in
// hex, NAME as hub.SafeFilename leaves it, which never ends in the
// storage's own ".attrs" or ".tmp". Other keys are no file of a
// submission, whatever the storage would make of them: a storage's own
// files, a directory, a name it refuses.
func uploadKey(key string) bool {
	parts := strings.Split(key, "/")
	if len(parts) != 5 || parts[0] != "uploads" || !hub.ValidName(parts[1]) || !hub.ValidName(parts[2]) {
		return false
	}
	random, name := parts[3], parts[4]
	if random == "" || strings.Trim(random, "0123456789abcdef") != "" {
		return false
	}
	return name == hub.SafeFilename(name)
}

func render(c echo.Context, status int, page templ.Component) error {
	c.Response().Header().Set("Content-Type", "text/html; charset=utf-8")
	c.Response().WriteHeader(status)
	return page.Render(c.Request().Context(), c.Response())
}

// fmtSize writes a size in bytes for people.
func fmtSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
