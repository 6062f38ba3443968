package handlers

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// Config configures a Handler. The zero value works: the default hub, the
// default routes, no callbacks.
type Config struct {
	// HubURL is the hub's endpoint base; empty means hubclient.DefaultHubURL.
	HubURL string
	// Forms are the forms with settings of their own: their hub, states,
	// styling and callbacks, which hold on the page and on every route.
	// Forms not listed are served with the defaults.
	Forms map[Form]FormOptions
	// HTTPClient calls the hub; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Prefix is where the routes are mounted; empty means
	// components.DefaultPrefix ("/hubform").
	Prefix string
	// PageOrigin is the scheme and host visitors reach the app's pages at
	// ("https://example.com"), which the link to a saved draft opens; empty
	// means the request's own, which a proxy that rewrites the Host header
	// would make its internal address.
	PageOrigin string
	// CacheTTL is how long a fetched schema is used before it is fetched
	// again; zero means one minute. The page that finds it older still gets
	// it, at once, while the fetch runs behind: only a form's first page
	// waits for the hub. The fetch sends the schema's ETag, so a form the
	// hub has not changed costs a 304 and keeps what renders prepared.
	CacheTTL time.Duration
	// FetchTimeout bounds a schema fetch for a page; zero means 3 seconds.
	// A page whose fetch fails renders the loading state, which tries
	// again from the browser, or, without JavaScript, links to the load
	// route.
	FetchTimeout time.Duration
	// SubmitTimeout bounds a submission, uploads included; zero means 2
	// minutes.
	SubmitTimeout time.Duration
	// MaxPostBytes caps a post, files included; zero means 256 MiB.
	MaxPostBytes int64
	// MaxMemory is how much of a multipart post is held in memory; the
	// rest, files, is spooled to disk. Zero means 1 MiB.
	MaxMemory int64
	// PostFiles, when true, has files travel with the post even with
	// JavaScript, through the app, as without it: for a hub whose storage
	// visitors' browsers cannot reach, such as a bucket without CORS rules
	// for the app's origin. By default the browser sends each file
	// straight to the hub's storage (see the upload route).
	PostFiles bool
	// Counter counts the forms' funnels, what the hub's console shows: a
	// view when a form is shown, a start at a visitor's first change or
	// post, each step reached. Nil sends the counts to each form's hub,
	// every CountInterval, in batches (the protocol's events route); a hub
	// that answers 404 is not asked again. Counts only: no cookie, nothing
	// of the visitor; a visitor who reloads counts twice.
	Counter Counter
	// CountsToken is an API token of scope counts:write of the workspace
	// that owns the forms (hubform tokens create --scope counts:write, or
	// the console's Tokens page), which the counts sent to Config's hub
	// carry: with it the hub takes what the app aggregates from all its
	// visitors. Without it the hub takes from the app what it would from
	// one client, at most hubclient.MaxAnonymousCount of each event a
	// post and its rate limit's posts a minute: the app sends its counts
	// in posts that size, a few each CountInterval, and what a busy form
	// collects beyond waits for the next ones; what still waits when the
	// app closes is lost. A form of another hub takes its own token,
	// FormOptions.CountsToken: this one goes to Config's hub alone. Keep
	// it out of the pages: it is sent by the app, never by a browser.
	CountsToken string
	// CountInterval is how often counts go to the hubs; zero means
	// DefaultCountInterval.
	CountInterval time.Duration
	// NoCounts turns counting off.
	NoCounts bool
	// OnSuccess is called once per submission the hub accepted, with the
	// values sent, after the form's own FormOptions.OnSuccess. Each file
	// is a hubclient.Attachment, its key naming it in the hub's storage;
	// Bind fills a struct of yours from them.
	OnSuccess func(ctx context.Context, form Form, values map[string]any)
	// OnError is called once per submission that failed, after the form's
	// own FormOptions.OnError, with the whole error: what the visitor
	// reads is a short message without it.
	OnError func(ctx context.Context, form Form, err error)
	// Page renders a whole page around a state, for requests made without
	// htmx (JavaScript off, or the load route opened directly); nil means a
	// plain page with the form's styles.
	Page func(PageProps) templ.Component
	// CSRFField is the form field carrying a CSRF token; empty means
	// "_csrf", as Echo's CSRF middleware reads with TokenLookup
	// "form:_csrf".
	CSRFField string
	// TurnstileScript overrides the Turnstile script's URL.
	TurnstileScript string
	// Logger logs failures; nil means slog.Default().
	Logger *slog.Logger
	// VisitorAddr returns the IP address of the visitor who sent r, which
	// the submission names to the hub (X-Forwarded-For) so that the hub
	// limits, checks and records each visitor rather than the app. Set it
	// when the app is behind a proxy of its own and does not tell Echo
	// whom to believe. Nil means c.RealIP() when the Echo the routes are
	// mounted on has an IPExtractor, else the socket's address: never a
	// header the visitor could have set. An answer that is not an IP
	// address names no visitor.
	VisitorAddr func(r *http.Request) string
	// HTMXURL is the address of the host's own htmx 2 script, for Head to
	// load instead of the copy the module embeds; empty means that copy.
	HTMXURL string
	// StampKey signs the time each form is rendered, which its post carries
	// back, so that the hub learns how long the visitor had the form (the
	// time trap: a post within seconds of the page is a bot's) and a stamp
	// cannot be forged or moved to another form. Empty means a random key
	// made by New. Set the same key, 32 random bytes, on every instance of
	// an app behind a load balancer: a post landing on another instance
	// than the page's is otherwise flagged, its stamp not being that
	// instance's, and loses the files its browser uploaded, whose tickets
	// StampKey signs too.
	StampKey []byte
	// PlainFormPosts, when true, sends a post that carries no stamp with no
	// timing, so that the hub's time trap does not judge it: for an app
	// whose submit routes plain HTML forms on other sites post to, which
	// no page of the app rendered (the hub's own form pages). A stamp that
	// is there is still checked.
	PlainFormPosts bool
}

// Handler serves HubForm's routes: the load route behind the loading state,
// the submit route, and the static assets. It is an http.Handler, and Mount
// adds the same routes to an Echo server.
type Handler struct {
	cfg Config
	// client calls Config.HubURL; registered forms may have their own.
	client *hubclient.Client
	forms  map[Form]registered
	cache  *schemaCache
	stamps stamper
	echo   *echo.Echo
	// counter is Config.Counter, or hubs when it is nil; nil when counting
	// is off.
	counter Counter
	hubs    *hubCounter
	posts   seenPosts
}

// New returns a Handler for cfg.
func New(cfg Config) *Handler {
	cfg.Prefix = "/" + strings.Trim(cfg.Prefix, "/")
	if cfg.Prefix == "/" {
		cfg.Prefix = components.DefaultPrefix
	}
	defaults := []struct {
		d   *time.Duration
		def time.Duration
	}{{&cfg.CacheTTL, time.Minute}, {&cfg.FetchTimeout, 3 * time.Second}, {&cfg.SubmitTimeout, 2 * time.Minute}}
	for _, d := range defaults {
		if *d.d <= 0 {
			*d.d = d.def
		}
	}
	if cfg.MaxPostBytes <= 0 {
		cfg.MaxPostBytes = 256 << 20
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = 1 << 20
	}
	if cfg.CSRFField == "" {
		cfg.CSRFField = "_csrf"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Page == nil {
		cfg.Page = Page
	}
	client := &hubclient.Client{HubURL: cfg.HubURL, HTTPClient: cfg.HTTPClient}
	h := &Handler{
		cfg:    cfg,
		client: client,
		cache:  &schemaCache{ttl: cfg.CacheTTL, timeout: cfg.FetchTimeout, logger: cfg.Logger, now: time.Now, entries: map[string]cached{}},
		stamps: newStamper(cfg.StampKey),
		echo:   echo.New(),
	}
	h.registerForms()
	switch {
	case cfg.NoCounts:
	case cfg.Counter != nil:
		h.counter = cfg.Counter
	default:
		h.hubs = newHubCounter(h, cmp.Or(cfg.CountInterval, DefaultCountInterval))
		h.counter = h.hubs
	}
	h.Mount(h.echo)
	return h
}

// Close sends the counts of the forms' funnels not sent yet to their hubs;
// call it when the app stops. Counting stops.
func (h *Handler) Close(ctx context.Context) {
	if h.hubs != nil {
		h.hubs.close(ctx)
	}
}

// Mount adds the routes under Prefix to e, where e's middleware (CSRF,
// logging, …) applies to them.
func (h *Handler) Mount(e *echo.Echo) { h.Register(e.Group(h.cfg.Prefix)) }

// Register adds the routes to g, which must be served at Prefix: a group
// lets the routes have middleware of their own.
//
//	h.Register(e.Group(h.Prefix(), middleware.CSRF()))
func (h *Handler) Register(g *echo.Group) {
	g.GET("/static/*", h.assets())
	g.GET("/:site/:slug", h.load, compressPages)
	g.POST("/:site/:slug/submit", h.submit, compressPages)
	g.POST("/:site/:slug/save", h.save, compressPages)
	g.POST("/:site/:slug/logic", h.logic, compressPages)
	g.POST("/:site/:slug/event", h.event)
	g.POST("/:site/:slug/upload-url", h.uploadURL)
	g.POST("/:site/:slug/upload-parts", h.uploadParts)
	g.POST("/:site/:slug/upload-complete", h.uploadComplete)
}

// Prefix is the path the routes are served under, and the forms point to.
func (h *Handler) Prefix() string { return h.cfg.Prefix }

// ServeHTTP serves the routes under the prefix, for apps without Echo.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.echo.ServeHTTP(w, r) }

// Props returns HubForm's props for a page, with the form's registered
// options: the schema is fetched now, through the cache and within
// FetchTimeout, so the form is in the page when it arrives. When the fetch
// fails the props carry no schema and HubForm renders its loading state,
// which tries again from the browser.
func (h *Handler) Props(ctx context.Context, site, slug, locale string) components.HubFormProps {
	f := Form{Site: site, Slug: slug}
	r := h.form(f)
	p := h.props(f, r, locale)
	if schema, err := h.Schema(ctx, site, slug); err == nil {
		p.InitialSchema = schema
		h.countView(f, schema)
	}
	return p
}

// Schema returns the form's schema, through the cache and within
// FetchTimeout, as Props does, for a page that lists forms rather than
// shows one: it counts no view.
func (h *Handler) Schema(ctx context.Context, site, slug string) (*hubclient.Schema, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.FetchTimeout)
	defer cancel()
	return h.cache.get(ctx, h.form(Form{Site: site, Slug: slug}).client, site, slug)
}

// PropsFor is Props for an Echo request: the locale comes from the query
// parameter "locale", the CSRF token from Echo's CSRF middleware. A host
// may change the returned props' Locale (from a cookie, a path, …): the
// routes the form loads and posts to carry it.
//
// The page's query string prefills the form (State.Values): hidden fields
// and fields the schema marks "prefill" take the value of the parameter of
// their name ("?utm_source=newsletter"); other fields never do. A value
// that breaks its field's rules (an option that does not exist, a text too
// long) is dropped, and one that is shown is checked again when the form
// is sent, as a typed one.
//
// For a form the hub keeps drafts of, the page's address is the one the
// link to a saved draft opens, and a page opened with a draft's link
// ("?draft=…", hubclient.DraftParam) shows the draft: its values, its
// step and its files; one gone says so. The funnel counts the visitor
// once, when they began, not again when they come back to finish.
//
// Options add the app's own values: WithValues fills hidden fields, over
// the query's, and signs those the visitor may not change.
func (h *Handler) PropsFor(c echo.Context, site, slug string, opts ...PropsOption) components.HubFormProps {
	f := Form{Site: site, Slug: slug}
	reg := h.form(f)
	p := h.props(f, reg, c.QueryParam("locale"))
	h.addCSRF(&p, c)
	schema, err := h.Schema(c.Request().Context(), site, slug)
	if err != nil {
		return p
	}
	p.InitialSchema = schema
	p.State.Values = prefill(schema, c.QueryParams())
	h.withValues(&p, f, reg, schema, opts)
	if schema.Meta.Resume {
		p.Page = h.pageURL(c)
		if token := c.QueryParam(hubclient.DraftParam); token != "" {
			h.restore(c.Request().Context(), &p, f, token)
		}
	}
	if p.State.Draft == "" {
		// A visitor who continues a draft was counted when they began.
		h.countView(f, schema)
	}
	return p
}

// addCSRF adds the token Echo's CSRF middleware left in c, if any, so the
// form posts it back.
func (h *Handler) addCSRF(p *components.HubFormProps, c echo.Context) {
	if token, _ := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string); token != "" {
		p.Routes.CSRFField, p.Routes.CSRFToken = h.cfg.CSRFField, token
	}
}
