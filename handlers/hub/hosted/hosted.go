package hosted

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
)

// Path is where the pages are served: Path/{site}/{slug}.
const Path = "/f"

// Prefix is where the routes of package handlers that the pages load from
// and post to are mounted, as in an app: Prefix/{site}/{slug}/submit, its
// logic route beside it, and the scripts under Prefix/static/.
const Prefix = components.DefaultPrefix

// Config configures the pages. HubURL and Forms are required.
type Config struct {
	// HubURL is the hub URL clients are given, the public URL ending in
	// /v1. The pages call it as an app would, but in process: requests to
	// its host never leave the hub.
	HubURL string
	// Forms finds the forms, as the hub's routes do: a form it does not
	// find, or whose settings turn the page off, has no page.
	Forms hub.FormSource
	// Transport carries the requests for other hosts, the PUT of a file
	// to a bucket's presigned URL; nil means http.DefaultTransport.
	Transport http.RoundTripper
	// UploadOrigins are the origins, other than the hub's own, that
	// visitors' browsers send files to: a bucket's, whose presigned URLs
	// the hub answers (s3blob.Bucket.UploadOrigin). The pages' policy lets
	// scripts connect to them.
	UploadOrigins []string
	// TurnstileScript replaces Cloudflare's Turnstile script, for tests
	// and stand-ins; the pages' policy allows its origin.
	TurnstileScript string
	// StampKey signs the time each page is shown (handlers.Config.StampKey):
	// the same key on every hub, so that a post reaching another hub than
	// the page's is not taken for a bot's. Empty means a key of this
	// process.
	StampKey []byte
	// Counter counts the pages' funnels (views, starts, steps reached):
	// the hub's funnel.Counter, so that they are counted on the hub
	// directly. Nil counts nothing.
	Counter handlers.Counter
	// Logger logs what visitors are not told; nil means slog.Default().
	Logger *slog.Logger
}

// Pages serves a page for each form of the hub.
type Pages struct {
	cfg   Config
	forms *handlers.Handler
	// transport is the forms' client's, which reaches the hub's router
	// once Mount has it.
	transport       *inProcess
	turnstileOrigin string
}

// New returns the pages of the hub at cfg.HubURL.
func New(cfg Config) (*Pages, error) {
	base, err := url.Parse(cfg.HubURL)
	if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("hosted: hub URL %q is not an absolute http or https URL", cfg.HubURL)
	}
	if cfg.Forms == nil {
		return nil, errors.New("hosted: Forms is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	base.Path = strings.TrimSuffix(strings.TrimRight(base.Path, "/"), "/v1")
	base.RawPath = ""
	p := &Pages{
		cfg:             cfg,
		transport:       &inProcess{base: base, next: cfg.Transport},
		turnstileOrigin: origin(cmp.Or(cfg.TurnstileScript, components.TurnstileScript)),
	}
	p.forms = handlers.New(handlers.Config{
		HubURL:     cfg.HubURL,
		HTTPClient: &http.Client{Transport: p.transport},
		Prefix:     Prefix,
		// Behind a proxy, the request's Host may be the hub's own address:
		// a draft's link opens the page at the public URL.
		PageOrigin: base.Scheme + "://" + base.Host,
		// The hub answers in process, and an unchanged form costs it a
		// 304: a version published in the console shows within a second.
		CacheTTL:        time.Second,
		Page:            p.wholePage,
		TurnstileScript: cfg.TurnstileScript,
		// The Share tab gives a plain HTML form of the page for sites
		// without Go, whose posts carry no stamp.
		PlainFormPosts: true,
		StampKey:       cfg.StampKey,
		Counter:        cfg.Counter,
		NoCounts:       cfg.Counter == nil,
		Logger:         cfg.Logger,
	})
	return p, nil
}

// Mount adds the pages, their icon, the scripts that frame them on other
// sites (embed.js) and the routes they post to, to e, the
// hub's router (protocol.Config.Mount), which also serves the pages' calls to
// the hub. The routes take no CSRF token: a form's page is public, and so
// are the protocol's routes it posts to; its policy lets it post to the
// hub only.
func (p *Pages) Mount(e *echo.Echo) {
	p.transport.handler = e
	e.GET(FaviconPath, favicon)
	e.GET(EmbedPath, serveEmbed)
	e.GET(frameScriptPath, serveFrameScript)
	e.GET(Path+"/:site/:slug", p.page, compress, p.guard)
	p.forms.Register(e.Group(Prefix, p.guard))
}

// compress gzips the pages for browsers that accept it, as the handlers'
// routes gzip their answers: a page's inline styles and form shrink to
// about a fifth.
var compress = middleware.GzipWithConfig(middleware.GzipConfig{MinLength: 1024})

// formKey is where guard leaves the form in a request's context.
type formKey struct{}

// formFrom returns the form guard found for the request of ctx, or nil.
func formFrom(ctx context.Context) *hub.Form {
	f, _ := ctx.Value(formKey{}).(*hub.Form)
	return f
}

// The slowest post the routes wait for, as the hub waits for an upload:
// bodyTimeout, and a second more for every minTransferRate bytes.
const (
	bodyTimeout     = 30 * time.Second
	minTransferRate = 64 << 10
)

// guard stands before every page and route: it answers 404 for a form
// the hub does not serve or whose page is off, sets the headers that keep
// the page to itself (a policy with a fresh nonce, which the request's
// context carries to the page's inline elements), and lets a post with
// files take the time its length needs, not the 30 seconds the hub gives
// a JSON body.
func (p *Pages) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		site, slug := c.Param("site"), c.Param("slug")
		if site == "" && slug == "" {
			return next(c) // the scripts, served as they are to apps
		}
		r := c.Request()
		nonce := newNonce()
		ctx := templ.WithNonce(r.Context(), nonce)
		form, err := p.lookup(site, slug)
		h.Set("Content-Security-Policy", p.policy(nonce, form))
		if err != nil {
			c.SetRequest(r.WithContext(ctx))
			return p.refuse(c, err)
		}
		if r.Method == http.MethodPost {
			limit := bodyTimeout
			if r.ContentLength > 0 {
				limit += time.Duration(r.ContentLength/minTransferRate) * time.Second
			}
			// An error means the connection takes no deadlines; the
			// server's own timeouts still apply.
			_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(limit))
			// The answer names the submission the post stored, for the
			// frame script to tell the site around the frame.
			box := &submissionBox{}
			ctx = context.WithValue(ctx, submissionKey{}, box)
			c.Response().Before(func() {
				if id := box.get(); id != "" {
					h.Set(submissionHeader, id)
				}
			})
		}
		c.SetRequest(r.WithContext(context.WithValue(ctx, formKey{}, form)))
		return next(c)
	}
}

// errNoPage means the form's settings turn its page off.
var errNoPage = errors.New("the form's page is turned off (hub.hostedPage)")

// lookup returns the form of site and slug if it has a page.
func (p *Pages) lookup(site, slug string) (*hub.Form, error) {
	if !hub.ValidName(site) || !hub.ValidName(slug) {
		return nil, hub.ErrNotFound
	}
	form, err := p.cfg.Forms.Lookup(site, slug)
	if err != nil {
		return nil, err
	}
	if !form.Settings.Hosted() {
		return nil, errNoPage
	}
	return form, nil
}

// refuse answers a request for a form without a page: 404 whether the
// form is missing, unpublished or its page turned off, so that the answer
// tells no one which; 500 for a form that cannot be served, whose cause
// goes to the log alone.
func (p *Pages) refuse(c echo.Context, err error) error {
	status, title, message := http.StatusNotFound, "Form not found", "There is no form at this address. It may have been taken down, or the link may be mistyped."
	if !errors.Is(err, hub.ErrNotFound) && !errors.Is(err, errNoPage) {
		p.cfg.Logger.Error("a form's page cannot be shown", slog.String("path", hubhttp.LogPath(c)), slog.Any("error", err))
		status, title, message = http.StatusInternalServerError, "Form unavailable", "This form cannot be shown right now. Please try again later."
	}
	return render(c, status, messagePage(title, message))
}

// page renders a form's page: the schema fetched from the hub through the
// handlers, in the visitor's language, rendered with HubForm, and
// prefilled from the page's query string as in an app (PropsFor).
func (p *Pages) page(c echo.Context) error {
	r := c.Request()
	form := formFrom(r.Context())
	if c.QueryParam("embed") == "1" {
		// The page in a frame of another site (embed.js): its context
		// says so to wholePage, with the site's origin.
		r = r.WithContext(context.WithValue(r.Context(), frameKey{}, &frame{origin: hostOrigin(c.QueryParam("origin"))}))
		c.SetRequest(r)
	}
	props := p.forms.PropsFor(c, form.Site, form.Slug)
	props.Locale = chooseLocale(r, form.Schema)
	title := form.Slug
	if props.InitialSchema != nil {
		title = cmp.Or(components.Title(props.InitialSchema, props.Locale), title)
	}
	c.Response().Header().Add("Vary", "Accept-Language")
	return render(c, http.StatusOK, p.wholePage(handlers.PageProps{
		Title: title, Lang: props.Locale, Head: p.forms.Head(), Body: components.HubForm(props),
	}))
}

// wholePage is the page around a form's state, for the page itself and
// for the handlers' answers to a post without JavaScript: the thank-you
// page, the form with its errors. The form guard found gives its
// description and language.
func (p *Pages) wholePage(pp handlers.PageProps) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		v := pageView{Title: pp.Title, Lang: "en", Head: pp.Head, Body: pp.Body}
		if f, ok := ctx.Value(frameKey{}).(*frame); ok {
			v.Frame, v.HostOrigin, v.FrameScript = true, f.origin, frameScriptURL()
		}
		if form := formFrom(ctx); form != nil {
			l := components.Localize(form.Schema, pp.Lang)
			v.Lang = cmp.Or(l.Locale, v.Lang)
			v.Description = l.Schema.Description
			v.ThemeCSS = themePageCSS(form.Schema.Theme)
		}
		if v.Description == "" {
			v.Description = fmt.Sprintf("Fill in and send the form “%s”.", pp.Title)
		}
		return page(v).Render(ctx, w)
	})
}

// render answers a whole page that no cache may keep: a form's page
// carries a key for one submission.
func render(c echo.Context, status int, page templ.Component) error {
	h := c.Response().Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(status)
	return page.Render(c.Request().Context(), c.Response())
}
