package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// Workspaces is what the console knows of workspaces: who is a member of
// which, and which workspace owns each site, as sqldb.DB keeps them.
type Workspaces interface {
	// Memberships returns the user's memberships, by workspace.
	Memberships(ctx context.Context, email string) ([]accounts.Member, error)
	// Invitation returns the invitation whose link's token has the hash,
	// when it can still be accepted at now; one that expired or was
	// accepted is hub.ErrNotFound.
	Invitation(ctx context.Context, tokenHash string, now time.Time) (accounts.Invitation, error)
	// SiteWorkspace returns the workspace that owns site, or an error
	// wrapping hub.ErrNotFound when none does.
	SiteWorkspace(ctx context.Context, site string) (string, error)
	// Sites returns the sites workspace owns.
	Sites(ctx context.Context, workspace string) ([]string, error)
	// Workspace returns a workspace with its quota; WorkspaceUsage what it
	// has taken since the month began.
	Workspace(ctx context.Context, name string) (accounts.Workspace, error)
	WorkspaceUsage(ctx context.Context, workspace string, monthStart time.Time) (accounts.Usage, error)
	// MailSent returns how many e-mails the hub sent on a workspace's
	// behalf on a day (sqldb.Day).
	MailSent(ctx context.Context, workspace string, day int64) (int64, error)
}

// signedIn is the need of the routes any signed-in user may use, member of
// a workspace or not.
const signedIn accounts.Role = ""

// routeRoles holds the role each route needs, in the workspace that owns
// the route's site, or else in the user's current workspace. A route
// missing here is refused to everyone (see authorize): a route added later
// is closed until it is given its role. What changes owners' data goes
// through the services of package manage, which check the workspace and
// the role again: the table answers early, the services keep one
// workspace from another.
var routeRoles = map[string]accounts.Role{
	"POST " + Path + "/sign-out":            signedIn,
	"GET " + Path:                           signedIn,
	"POST " + Path + "/workspace":           signedIn,
	"GET " + auditPath:                      accounts.Admin,
	"GET " + accountPath:                    signedIn,
	"POST " + accountPath + "/password":     signedIn,
	"POST " + accountPath + "/sessions":     signedIn,
	"POST " + accountPath + "/time-zone":    signedIn,
	"POST " + digestPath:                    accounts.Viewer,
	"GET " + membersPath:                    accounts.Admin,
	"POST " + membersPath:                   accounts.Admin,
	"POST " + membersPath + "/remove":       accounts.Admin,
	"GET " + tokensPath:                     accounts.Admin,
	"POST " + tokensPath:                    accounts.Admin,
	"POST " + tokensPath + "/revoke":        accounts.Admin,
	"POST " + invitationsPath:               accounts.Admin,
	"GET " + peoplePath:                     accounts.Admin,
	"POST " + peoplePath + "/export":        accounts.Admin,
	"POST " + peoplePath + "/erase":         accounts.Admin,
	"GET " + Path + "/forms":                accounts.Viewer,
	"GET " + brandPath:                      accounts.Viewer,
	"POST " + brandPath:                     accounts.Admin,
	"POST " + brandPath + "/preview":        accounts.Admin,
	"GET " + sitesPath:                      accounts.Viewer,
	"GET " + sitesPath + "/templates/:name": accounts.Viewer,
	// A template's preview answers its changes and its sending as a
	// form's preview does, storing nothing, for every member who may see
	// it (the gallery's previews and the brand's sample).
	"POST " + sitesPath + "/templates/:name/logic":  accounts.Viewer,
	"POST " + sitesPath + "/templates/:name/submit": accounts.Viewer,
	"POST " + sitesPath:                             accounts.Editor,

	"GET " + Path + "/forms/:site/:slug":                                accounts.Viewer,
	"POST " + Path + "/forms/:site/:slug":                               accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/preview":                       accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/preview/submit":                accounts.Editor,
	"GET " + Path + "/forms/:site/:slug/try":                            accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/preview/logic":                 accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/versions/:version/publish":     accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields":                        accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields/:n":                     accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields/:n/move":                accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields/:n/remove":              accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields/:n/text":                accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/fields/:n/break":               accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/steps/:n/title":                accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/steps/:n/join":                 accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/steps/:n/condition":            accounts.Editor,
	"GET " + Path + "/forms/:site/:slug/design":                         accounts.Viewer,
	"POST " + Path + "/forms/:site/:slug/design":                        accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/design/preview":                accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/calculations":                  accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/calculations/check":            accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/calculations/quiz":             accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/calculations/:n":               accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/calculations/:n/remove":        accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/endings":                       accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/endings/:n":                    accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/endings/:n/move":               accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/endings/:n/remove":             accounts.Editor,
	"GET " + Path + "/forms/:site/:slug/settings":                       accounts.Viewer,
	"POST " + Path + "/forms/:site/:slug/settings":                      accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/settings/destinations/:n/test": accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/translations":                  accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/translations/:locale":          accounts.Editor,
	"GET " + Path + "/forms/:site/:slug/publish":                        accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/publish":                       accounts.Editor,
	"GET " + Path + "/forms/:site/:slug/history":                        accounts.Viewer,

	"GET " + Path + "/forms/:site/:slug/overview":                 accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/share":                    accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/share/qr":                 accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/submissions":              accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/summary":                  accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/export/:format":           accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/submissions/:id":          accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/submissions/:id/files/:n": accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/submissions/:id/pdf":      accounts.Viewer,
	"POST " + Path + "/forms/:site/:slug/submissions/delete":      accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/submissions/spam":        accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/submissions/undelete":    accounts.Editor,
	"POST " + Path + "/forms/:site/:slug/submissions/columns":     accounts.Viewer,
	"GET " + Path + "/forms/:site/:slug/deliveries":               accounts.Viewer,
	"POST " + Path + "/forms/:site/:slug/deliveries/:id/retry":    accounts.Editor,
}

// memberKey is where authorize leaves the user's membership of the
// workspace the request acts in: the site's, or the current one. Its zero
// value is no workspace.
const memberKey = "hubform.console.member"

// sessionWorkspace is the session key of the user's current workspace.
const sessionWorkspace = "workspace"

// authorize lets a signed-in user through to what their role allows: on a
// route of a site, in the workspace that owns the site, and else in their
// current workspace. A site of a workspace they are not a member of, or of
// none, is answered 404 as a missing form is; what their role does not
// allow, 403.
func (con *Console) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		route := c.Request().Method + " " + c.Path()
		if public[route] {
			return next(c)
		}
		need, ok := routeRoles[route]
		if !ok {
			con.cfg.Logger.ErrorContext(c.Request().Context(), "console route with no role: refused", slog.String("route", route))
			return &hub.Error{Status: http.StatusForbidden, Message: "This page is closed."}
		}
		ctx := c.Request().Context()
		ms, err := con.memberships(c)
		if err != nil {
			return err
		}
		var m accounts.Member
		if site := c.Param("site"); site != "" {
			owner, err := con.cfg.Workspaces.SiteWorkspace(ctx, site)
			if err != nil && !errors.Is(err, hub.ErrNotFound) {
				return hub.Internal("finding the site's workspace", err)
			}
			i := slices.IndexFunc(ms, func(m accounts.Member) bool { return m.Workspace == owner })
			if err != nil || i < 0 {
				return noSuchForm
			}
			m = ms[i]
		} else {
			m = current(ms, con.sessions.GetString(ctx, sessionWorkspace))
		}
		switch {
		case need == signedIn || m.Role.Allows(need):
		case m.Workspace == "":
			return &hub.Error{Status: http.StatusForbidden, Message: "You are in no workspace yet: ask an admin of a workspace to add you."}
		default:
			return &hub.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("Your role in workspace %s, %s, does not allow this.", m.Workspace, m.Role)}
		}
		c.Set(memberKey, m)
		return next(c)
	}
}

// membershipsKey is where memberships keeps the signed-in user's
// memberships for the rest of the request.
const membershipsKey = "hubform.console.memberships"

// memberships returns the signed-in user's memberships, read once a
// request.
func (con *Console) memberships(c echo.Context) ([]accounts.Member, error) {
	if ms, ok := c.Get(membershipsKey).([]accounts.Member); ok {
		return ms, nil
	}
	u, _ := c.Get(userKey).(accounts.User)
	ms, err := con.cfg.Workspaces.Memberships(c.Request().Context(), u.Email)
	if err != nil {
		return nil, hub.Internal("looking up the user's workspaces", err)
	}
	c.Set(membershipsKey, ms)
	return ms, nil
}

// current returns the membership of the workspace named chosen, or else
// the one the user joined first; the zero Member when there is none. The
// workspace a user works in changes only by their own choice: being added
// to another, earlier by name, never moves a new session there.
func current(ms []accounts.Member, chosen string) accounts.Member {
	if i := slices.IndexFunc(ms, func(m accounts.Member) bool { return m.Workspace == chosen }); i >= 0 {
		return ms[i]
	}
	if len(ms) == 0 {
		return accounts.Member{}
	}
	// ms is by name: the first of the earliest joined wins a tie.
	return slices.MinFunc(ms, func(a, b accounts.Member) int { return a.CreatedAt.Compare(b.CreatedAt) })
}

// memberOf returns the membership authorize found for the request.
func memberOf(c echo.Context) accounts.Member {
	m, _ := c.Get(memberKey).(accounts.Member)
	return m
}

// actorOf returns who acts in the request, for the services of package
// manage, which check the membership again: authorize answers early, the
// services keep one workspace from another.
func actorOf(c echo.Context) manage.Actor { return manage.Member(memberOf(c), c.RealIP()) }

// switchWorkspace makes the posted workspace the user's current one, when
// they are a member of it.
func (con *Console) switchWorkspace(c echo.Context) error {
	ms, err := con.memberships(c)
	if err != nil {
		return err
	}
	name := c.FormValue("workspace")
	if !slices.ContainsFunc(ms, func(m accounts.Member) bool { return m.Workspace == name }) {
		return &hub.Error{Status: http.StatusNotFound, Message: "No such workspace."}
	}
	con.sessions.Put(c.Request().Context(), sessionWorkspace, name)
	return c.Redirect(http.StatusSeeOther, Path)
}

// workspaceSites returns the sites of the request's workspace, read once
// a request: the page and its navigation both list them.
func (con *Console) workspaceSites(c echo.Context) ([]string, error) {
	if sites, ok := c.Get(sitesKey).([]string); ok {
		return sites, nil
	}
	m := memberOf(c)
	if m.Workspace == "" {
		return nil, nil
	}
	sites, err := con.cfg.Workspaces.Sites(c.Request().Context(), m.Workspace)
	if err != nil {
		return nil, hub.Internal("listing the workspace's sites", err)
	}
	c.Set(sitesKey, sites)
	return sites, nil
}

// sitesKey is where workspaceSites keeps the sites for the request.
const sitesKey = "hubform.console.sites"
