// Package admin is the hub's admin API, for automation: JSON under
// /v1/admin, each request carrying an API token as
// "Authorization: Bearer TOKEN" (see hubform tokens). Every route registered
// on the group that Register makes requires a valid token, so a route added
// later cannot be left open by mistake; without one the answer is 401 with
// a JSON error. A token acts for one workspace, on its sites alone, within
// its scope (see access.go): a route missing from routeAccess is refused.
//
// GET /v1/admin/audit is the token's workspace's audit log, newest first
// (before, limit), for a token of scope all.
//
// With a FormStore, it also manages the forms kept in the hub's database:
//
//	GET  /v1/admin/forms                                   the workspace's forms in the database and in the directory
//	GET  /v1/admin/forms/{site}/{slug}                     a form: the live file and the newest when not live ("draft"), versions
//	PUT  /v1/admin/forms/{site}/{slug}/version             save a form file as a new version, not yet live
//	PUT  /v1/admin/forms/{site}/{slug}/draft               the same, the route's first name
//	GET  /v1/admin/forms/{site}/{slug}/versions            its versions, newest first
//	GET  /v1/admin/forms/{site}/{slug}/versions/{v}        a version's file as saved ({v}: N, live, latest)
//	POST /v1/admin/forms/{site}/{slug}/versions/{v}/publish make a version live (an earlier one: a rollback)
//
// A form file is validated exactly as a file of the forms directory is
// (formsource.Parse); one that fails is answered 422 with every problem found.
//
// With an Inbox, it serves each form's submissions:
//
//	GET    /v1/admin/forms/{site}/{slug}/submissions              a page, newest first (q, from, to, spam=1, before, limit)
//	GET    /v1/admin/forms/{site}/{slug}/submissions/{id}         one, its values under their labels, its files
//	GET    /v1/admin/forms/{site}/{slug}/submissions/{id}/files/{n} a file (a redirect to a short-lived link in a bucket)
//	GET    /v1/admin/forms/{site}/{slug}/submissions/{id}/pdf     one as a PDF: the form's title, the time, the values under their labels, the file names
//	DELETE /v1/admin/forms/{site}/{slug}/submissions/{id}         delete it and its files
//	GET    /v1/admin/forms/{site}/{slug}/export/{format}          every submission selected, as csv or json
//	GET    /v1/admin/forms/{site}/{slug}/stats                    its funnel from and to two dates in UTC (from, to), with a Funnel
//
// With Privacy, it answers the requests of a person about their data, in
// every form of the token's workspace, for a token of scope all:
//
//	GET  /v1/admin/people?email=ADDR   the submissions that hold the address, as JSON
//	POST /v1/admin/people/erase        {"email": ADDR}: delete them, their files and pending deliveries; {"erased": n, …}
//
// API.md beside this package lists every route, with the scope it needs.
package admin

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// Prefix is where the admin API is served, below the protocol's version,
// in place of a site id: hub.ReservedSite, which no form can take.
const Prefix = "/v1/" + hub.ReservedSite

// Tokens finds API tokens by their hash.
type Tokens interface {
	// UseToken returns the token whose hash is given, recording its use,
	// or an error wrapping hub.ErrNotFound.
	UseToken(ctx context.Context, hash string, now time.Time) (accounts.Token, error)
}

// Config configures an API. Tokens, Sites and Audit are required.
type Config struct {
	Tokens Tokens
	// Audit is the audit log the token's workspace reads, where the
	// services record saved and published forms, deleted and exported
	// submissions, each with the token's name.
	Audit Auditor
	// Sites tells which workspace owns each site: a token acts on its
	// workspace's sites alone.
	Sites Sites
	// Forms, when set, adds the routes of the forms kept in the database
	// under /v1/admin/forms; FormChanges, then required, saves and
	// publishes their versions.
	Forms       FormStore
	FormChanges *manage.Forms
	// Directory, when set, is the forms directory served beside Forms.
	Directory Directory
	// Inbox, when set, adds the routes of each form's submissions, and
	// of its funnel, which answers 404 without Funnel.
	Inbox *inbox.Inbox
	// SubmissionChanges deletes and exports submissions: required with
	// Inbox.
	SubmissionChanges *manage.Submissions
	// Funnel, when set with Inbox, serves each form's funnel (package
	// funnel): sqldb.DB.
	Funnel FunnelStore
	// Privacy, when set, adds the routes of a person's data.
	Privacy *manage.Privacy
	Logger  *slog.Logger
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// API is the admin API.
type API struct{ cfg Config }

// New checks cfg and returns the API.
func New(cfg Config) (*API, error) {
	if cfg.Tokens == nil || cfg.Sites == nil || cfg.Audit == nil {
		return nil, errors.New("admin: Tokens, Sites and Audit are required")
	}
	if cfg.Forms != nil && cfg.FormChanges == nil {
		return nil, errors.New("admin: FormChanges is required with Forms")
	}
	if cfg.Inbox != nil && cfg.SubmissionChanges == nil {
		return nil, errors.New("admin: SubmissionChanges is required with Inbox")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &API{cfg: cfg}, nil
}

// Register adds the API's routes to e, on a group that requires a token.
func (a *API) Register(e *echo.Echo) {
	g := a.Group(e)
	g.GET("/whoami", a.whoami)
	g.GET("/audit", a.listEvents)
	if a.cfg.Forms != nil {
		a.registerForms(g)
	}
	if a.cfg.Inbox != nil {
		a.registerSubmissions(g)
		a.registerStats(g)
	}
	if a.cfg.Privacy != nil {
		a.registerPeople(g)
	}
}

// Group returns the group of Prefix on e with the token check in front;
// routes registered on it get the check.
func (a *API) Group(e *echo.Echo) *echo.Group {
	// Errors are answered in the protocol's JSON.
	answer := hubhttp.Answer(func(c echo.Context, err error) { hubhttp.WriteError(c, err, a.cfg.Logger) })
	return e.Group(Prefix, noStore, answer, a.requireToken, a.authorize)
}

// tokenKey is where requireToken leaves the token in the request's context.
const tokenKey = "hubform.admin.token"

// TokenOf returns the token of a request that requireToken let through.
func TokenOf(c echo.Context) accounts.Token {
	t, _ := c.Get(tokenKey).(accounts.Token)
	return t
}

// RequireMetricsToken lets through the requests that carry a hub-wide
// token of scope metrics, for /metrics: the counts are the whole hub's, so
// no workspace's token may read them. Others are answered 401 without a
// valid token and 403 with another.
func (a *API) RequireMetricsToken(next echo.HandlerFunc) echo.HandlerFunc {
	return a.requireToken(func(c echo.Context) error {
		if TokenOf(c).Scope != accounts.ScopeMetrics {
			return &hub.Error{Status: http.StatusForbidden, Message: "/metrics needs a token of scope metrics (hubform tokens create --scope metrics)"}
		}
		return next(c)
	})
}

// requireToken lets through requests that carry a valid API token, and
// answers others 401.
func (a *API) requireToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		token = strings.TrimSpace(token)
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			return unauthorized(c, "send an API token as Authorization: Bearer TOKEN")
		}
		t, err := a.cfg.Tokens.UseToken(c.Request().Context(), accounts.HashToken(token), a.cfg.Now())
		switch {
		case errors.Is(err, hub.ErrNotFound):
			return unauthorized(c, "the API token is not valid, or was revoked")
		case err != nil:
			return hub.Internal("checking the API token", err)
		}
		c.Set(tokenKey, t)
		return next(c)
	}
}

func unauthorized(c echo.Context, message string) error {
	c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="hubform"`)
	return &hub.Error{Status: http.StatusUnauthorized, Message: message}
}

func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// Whoami is the answer of GET /v1/admin/whoami.
type Whoami struct {
	OK bool `json:"ok"`
	// Token is the name of the token the request carried.
	Token string `json:"token"`
}

func (a *API) whoami(c echo.Context) error {
	return c.JSON(http.StatusOK, Whoami{OK: true, Token: TokenOf(c).Name})
}
