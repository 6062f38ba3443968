package admin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// Sites says which workspace owns a site, as sqldb.DB does.
type Sites interface {
	// SiteWorkspace returns the workspace that owns site, or an error
	// wrapping hub.ErrNotFound when none does.
	SiteWorkspace(ctx context.Context, site string) (string, error)
	// ClaimSite gives site to workspace unless another owns it, and
	// returns the owner.
	ClaimSite(ctx context.Context, site, workspace string, now time.Time) (string, error)
	// Sites returns the sites workspace owns.
	Sites(ctx context.Context, workspace string) ([]string, error)
}

// anyScope is the need of a route that every workspace token may use.
const anyScope accounts.Scope = ""

// access is what a route of the API needs of the token: its scope, and
// whether it may act on a site no workspace owns, which it then claims for
// the token's workspace with claimSite (the routes that create a form).
type access struct {
	scope accounts.Scope
	claim bool
}

// routeAccess holds, for each route, what it needs. A route missing here is
// refused to every token (see authorize): a route added later is closed
// until it is given its need. What changes owners' data goes through the
// services of package manage, which check the workspace and the scope
// again: the table answers early, the services keep one workspace from
// another.
var routeAccess = map[string]access{
	"GET " + Prefix + "/whoami":                                       {scope: anyScope},
	"GET " + Prefix + "/audit":                                        {scope: accounts.ScopeAll},
	"GET " + Prefix + "/forms":                                        {scope: accounts.ScopeForms},
	"GET " + Prefix + "/forms/:site/:slug":                            {scope: accounts.ScopeForms},
	"PUT " + Prefix + "/forms/:site/:slug/version":                    {scope: accounts.ScopeForms, claim: true},
	"PUT " + Prefix + "/forms/:site/:slug/draft":                      {scope: accounts.ScopeForms, claim: true},
	"GET " + Prefix + "/forms/:site/:slug/versions":                   {scope: accounts.ScopeForms},
	"GET " + Prefix + "/forms/:site/:slug/versions/:version":          {scope: accounts.ScopeForms},
	"POST " + Prefix + "/forms/:site/:slug/versions/:version/publish": {scope: accounts.ScopeForms},

	"GET " + Prefix + "/forms/:site/:slug/submissions":              {scope: accounts.ScopeSubmissionsRead},
	"GET " + Prefix + "/forms/:site/:slug/submissions/:id":          {scope: accounts.ScopeSubmissionsRead},
	"GET " + Prefix + "/forms/:site/:slug/submissions/:id/files/:n": {scope: accounts.ScopeSubmissionsRead},
	"GET " + Prefix + "/forms/:site/:slug/submissions/:id/pdf":      {scope: accounts.ScopeSubmissionsRead},
	"DELETE " + Prefix + "/forms/:site/:slug/submissions/:id":       {scope: accounts.ScopeAll},
	"GET " + Prefix + "/forms/:site/:slug/export/:format":           {scope: accounts.ScopeSubmissionsRead},
	"GET " + Prefix + "/forms/:site/:slug/stats":                    {scope: accounts.ScopeSubmissionsRead},

	// A person's data, across the workspace's forms: what an admin does.
	"GET " + Prefix + "/people":        {scope: accounts.ScopeAll},
	"POST " + Prefix + "/people/erase": {scope: accounts.ScopeAll},
}

// authorize lets a workspace's token through to the routes its scope
// allows, on its workspace's sites alone. A site of another workspace, or
// of none, is answered 404 as a missing form is, so that a token learns
// nothing of names it does not own; a route its scope does not allow is
// answered 403.
func (a *API) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		t := TokenOf(c)
		route := c.Request().Method + " " + c.Path()
		need, ok := routeAccess[route]
		switch {
		case t.Workspace == "":
			return &hub.Error{Status: http.StatusForbidden, Message: "a metrics token reads /metrics alone"}
		case !ok:
			a.cfg.Logger.ErrorContext(c.Request().Context(), "admin route with no access rule: refused", slog.String("route", route))
			return &hub.Error{Status: http.StatusForbidden, Message: "this route is closed"}
		}
		site := c.Param("site")
		owned := false
		if site != "" {
			owner, err := a.cfg.Sites.SiteWorkspace(c.Request().Context(), site)
			switch {
			case err == nil && owner != t.Workspace && need.claim && a.heldByDirectory(site):
				return errDirectorySite(site)
			case err == nil && owner != t.Workspace:
				return a.formError(c, site, c.Param("slug"), hub.ErrNotFound)
			case err != nil && !errors.Is(err, hub.ErrNotFound):
				return hub.Internal("finding the site's workspace", err)
			}
			owned = err == nil
		}
		if need.scope != anyScope && !t.Scope.Allows(need.scope) {
			return &hub.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("token %s has the scope %s, and this needs %s", t.Name, t.Scope, need.scope)}
		}
		if site != "" && !owned {
			if !need.claim {
				return a.formError(c, site, c.Param("slug"), hub.ErrNotFound)
			}
			// Claimed by the route once the request is found good, so
			// that a refused push leaves the site to whoever comes next.
			c.Set(unclaimedKey, true)
		}
		return next(c)
	}
}

// actorOf returns who acts in the request, for the services of package
// manage, which check the token again: authorize answers early, the
// services keep one workspace from another.
func actorOf(c echo.Context) manage.Actor { return manage.Token(TokenOf(c), c.RealIP()) }

// changeError is the answer to err, which a change returned: a missing
// form or version, or a site not the token's, as formError answers it; a
// refusal or a failure as the service said it.
func (a *API) changeError(c echo.Context, site, slug string, err error) error {
	if errors.Is(err, hub.ErrNotFound) {
		return a.formError(c, site, slug, err)
	}
	return err
}

// unclaimedKey marks, in a request's context, a site that no workspace
// owns yet, for a route that creates forms.
const unclaimedKey = "hubform.admin.unclaimed"

// claimSite gives the request's site to the token's workspace when no
// workspace owns it: a route that creates a form calls it before it stores
// anything. It answers 404, as for a missing form, when another workspace
// claimed the site in the meantime.
func (a *API) claimSite(c echo.Context) error {
	if unclaimed, _ := c.Get(unclaimedKey).(bool); !unclaimed {
		return nil
	}
	t, site := TokenOf(c), c.Param("site")
	owner, err := a.cfg.Sites.ClaimSite(c.Request().Context(), site, t.Workspace, a.cfg.Now())
	switch {
	case err != nil:
		return hub.Internal("claiming the site", err)
	case owner != t.Workspace && a.heldByDirectory(site):
		return errDirectorySite(site)
	case owner != t.Workspace:
		return a.formError(c, site, c.Param("slug"), hub.ErrNotFound)
	}
	return nil
}

// AllowCounts lets a token of scope counts:write (or all) send the counts
// of its workspace's forms on the hub's events route (hub.CountTokens),
// which an app aggregates from its visitors. A site of another workspace,
// or of none, is hub.ErrNotFound, as on the API's routes.
func (a *API) AllowCounts(ctx context.Context, token, site string) error {
	t, err := a.cfg.Tokens.UseToken(ctx, accounts.HashToken(token), a.cfg.Now())
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return &hub.Error{Status: http.StatusUnauthorized, Message: "the API token is not valid, or was revoked"}
	case err != nil:
		return hub.Internal("checking the API token", err)
	case t.Workspace == "":
		return &hub.Error{Status: http.StatusForbidden, Message: "a metrics token reads /metrics alone"}
	}
	switch owner, err := a.cfg.Sites.SiteWorkspace(ctx, site); {
	case errors.Is(err, hub.ErrNotFound) || err == nil && owner != t.Workspace:
		return hub.ErrNotFound
	case err != nil:
		return hub.Internal("finding the site's workspace", err)
	}
	if !t.Scope.Allows(accounts.ScopeCounts) {
		return &hub.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("token %s has the scope %s, and sending counts needs %s", t.Name, t.Scope, accounts.ScopeCounts)}
	}
	return nil
}

// heldByDirectory reports whether the hub's forms directory holds site.
func (a *API) heldByDirectory(site string) bool {
	return a.cfg.Directory != nil && a.cfg.Directory.HoldsSite(site)
}

// errDirectorySite refuses a site of the forms directory to a workspace
// other than the one that serves the directory. Its forms are served to
// anyone: naming the site tells nothing a visitor could not learn.
func errDirectorySite(site string) error {
	return &hub.Error{Status: http.StatusConflict, Message: fmt.Sprintf("site %s is served from the hub's forms directory and belongs to the workspace that serves it: choose another site name", site)}
}
