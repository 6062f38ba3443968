// Package console is the hub's console at /console: the pages where owners
// sign in, with sessions kept in the hub's database so that every hub
// sharing it accepts them, and see what the hub serves.
//
// The console is closed by default: every route registered on the group
// that Register makes needs a signed-in user, except the sign-in page, its
// post and the static assets, named in public. Without a session a page
// is redirected to the sign-in page and any other request (htmx, a post)
// is answered 401. Every post must pass CSRF protection.
//
// A user sees the sites of the workspaces they are a member of (see
// access.go): each route needs the role routeRoles names, in the workspace
// that owns the route's site or else in the user's current one, and a
// route routeRoles does not name is refused.
//
// GUIDE.md beside this package is the owners' guide to the console.
package console

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// Paths of the console.
const (
	Path       = "/console"
	SignInPath = Path + "/sign-in"
	// staticPath serves hubform.css and htmx.min.js, which the sign-in
	// page needs before anyone is signed in.
	staticPath = Path + "/static"
)

// Users finds the users who may sign in, and keeps their sessions and
// passwords, as sqldb.DB does.
type Users interface {
	// User returns the user with the e-mail address, or an error wrapping
	// hub.ErrNotFound.
	User(ctx context.Context, email string) (accounts.User, error)
	// CreateUserSession records a session; TouchUserSession reports
	// whether it is still open (hub.ErrNotFound once ended);
	// UserSessions lists a user's; EndUserSessions ends those with the
	// ids, or with none every one but keep's.
	CreateUserSession(ctx context.Context, s accounts.Session) error
	TouchUserSession(ctx context.Context, id, email string, now time.Time) error
	UserSessions(ctx context.Context, email string) ([]accounts.Session, error)
	EndUserSessions(ctx context.Context, email, keep string, ids ...string) (int, error)
	// SetPassword gives a user a new password hash, ends their other
	// sessions and retires their pending reset links.
	SetPassword(ctx context.Context, email, passwordHash, keep string, now time.Time) error
	// ProveUser marks a user's address proved; when it was not, the
	// password (replaced by passwordHash, empty for none), sessions and
	// reset links of whoever made the account end.
	ProveUser(ctx context.Context, email, passwordHash string, now time.Time) (bool, error)
	// RetirePasswordResets retires every pending reset link of a user.
	RetirePasswordResets(ctx context.Context, email string, now time.Time) (int, error)
	// CreatePasswordReset, PasswordReset and ResetPassword keep password
	// resets by the hash of their link's token; one used or expired is
	// hub.ErrNotFound.
	CreatePasswordReset(ctx context.Context, tokenHash, email string, now, expires time.Time) error
	PasswordReset(ctx context.Context, tokenHash string, now time.Time) (string, error)
	ResetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time) (string, error)
	// CreateSignup, Signup and CompleteSignup keep sign-ups by the hash of
	// their link's token; completing one creates the user and their
	// workspace.
	CreateSignup(ctx context.Context, tokenHash, email string, now, expires time.Time) error
	Signup(ctx context.Context, tokenHash string, now time.Time) (string, error)
	CompleteSignup(ctx context.Context, tokenHash, passwordHash, workspace string, now time.Time) (string, error)
	// MailRecipientLink and ConfirmMailRecipient read and use the links
	// that ask an address to take a workspace's notifications, by the hash
	// of their token; one that expired or was used is hub.ErrNotFound.
	MailRecipientLink(ctx context.Context, tokenHash string, now time.Time) (string, error)
	ConfirmMailRecipient(ctx context.Context, tokenHash string, now time.Time) (string, error)
	// HiddenColumns and SetHiddenColumns keep the columns a user hid in
	// the table of a form's submissions: their own choice, kept with
	// their account so that it follows them to any browser; none hidden
	// forgets it.
	HiddenColumns(ctx context.Context, email, site, slug string) ([]string, error)
	SetHiddenColumns(ctx context.Context, email, site, slug string, hidden []string, at time.Time) error
}

// FormLister lists the forms the hub serves, as formsource.Dir does.
type FormLister interface {
	Forms() ([]*hub.Form, []error)
}

// Defaults of Config.
const (
	DefaultLifetime     = 12 * time.Hour
	DefaultIdleTimeout  = 2 * time.Hour
	DefaultAddressLimit = 20
	DefaultAccountLimit = 10
	// LimitWindow is the window the sign-in limits count attempts in.
	LimitWindow = 15 * time.Minute
)

// Config configures a Console. Users, Workspaces, Audit, Sessions,
// Limiter, Members, Invitations and Sites are required.
type Config struct {
	Users Users
	// Audit keeps the audit log, which the audit page reads: the console
	// records sign-ins, and the services of package manage the changes
	// they make.
	Audit Auditor
	// Tokens, when set, lets a workspace's admins make and revoke its API
	// tokens.
	Tokens *manage.Tokens
	// Workspaces tells who is a member of which workspace, and which
	// workspace owns each site: a user sees their workspaces' sites alone.
	Workspaces Workspaces
	// Members and Invitations change who is a member of a workspace, and
	// Sites gives a workspace the sites its editors create forms in: each
	// refuses what is not the acting member's and records what they did.
	Members     *manage.Members
	Invitations *manage.Invitations
	Sites       *manage.Workspaces
	// Brands keeps the workspace's brand, which its forms inherit; nil
	// leaves the brand's page out.
	Brands *manage.Brands
	// Backups, when set, tells the last scheduled backup's result and the
	// last success's, which the home page shows the hub's own admins (of
	// the workspace default).
	Backups BackupSchedule
	// Images takes the pictures uploaded for themes; nil leaves the
	// Design tab and the brand's page to addresses alone.
	Images *manage.Images
	// Sessions stores the sessions: sqldb.DB.Sessions, shared by every
	// hub on the database.
	Sessions scs.Store
	// Limiter counts sign-in attempts, per client address and per e-mail
	// address, in the database that hubs share.
	Limiter hub.Limiter
	// Forms, when set, is listed on the home page.
	Forms FormLister
	// Inbox, when set, gives each form an inbox (see inbox.go).
	Inbox *inbox.Inbox
	// Store, when set, adds the pages of the forms kept in the hub's
	// database: the admin API's store, sqldb.DB. FormChanges, then
	// required, saves and publishes their versions.
	Store       admin.FormStore
	FormChanges *manage.Forms
	// SubmissionChanges deletes, marks and exports submissions and has
	// deliveries made again: required with Inbox or Deliveries.
	SubmissionChanges *manage.Submissions
	// Deliveries, when set, adds the pages of each form's deliveries.
	Deliveries Deliveries
	// Digests, when set, has the account page keep members' daily
	// digests, which the delivery queue sends.
	Digests Digests
	// ChatTester, when set, has the Settings tab send a form's chats a
	// test message.
	ChatTester ChatTester
	// Summaries, when set with Inbox, adds each form's Summary tab: the
	// results of each question, from the counts of answers the store
	// keeps (sqldb.DB).
	Summaries hub.Summaries
	// Funnel, when set with Inbox, adds a form's funnel to its overview:
	// its views, starts, steps reached and submissions (package funnel),
	// sqldb.DB.
	Funnel FunnelStore
	// Privacy, when set, lets a workspace's admins export or erase the
	// data of one person, known by their e-mail address.
	Privacy *manage.Privacy
	// Secure marks the cookies Secure: set it when browsers reach the hub
	// over HTTPS (its public URL is https://).
	Secure bool
	// PublicURL is where people reach the hub, such as
	// https://forms.example.com: the links sent by e-mail start with it.
	PublicURL string
	// Mailer, when set, sends invitations from MailFrom; without one the
	// console shows an invitation's link to copy.
	Mailer   Mailer
	MailFrom string
	// PasswordParams hash the passwords people choose; zero means
	// accounts.DefaultParams.
	PasswordParams accounts.Params
	// OIDC, when set, offers single sign-on with an OpenID Connect
	// provider beside passwords.
	OIDC *OIDC
	// Signup is who may join; empty means SignupInvite.
	Signup Signup
	// Setup, when set, offers the setup page (SetupPath) of a hub that
	// started without a user, for as long as it has none.
	Setup  *Setup
	Logger *slog.Logger
	// Lifetime is how long a session lasts at most, and IdleTimeout how
	// long it lasts unused; zero means the defaults.
	Lifetime, IdleTimeout time.Duration
	// AddressLimit and AccountLimit are how many sign-in attempts one
	// client address, and one e-mail address, may make in LimitWindow;
	// zero means the defaults.
	AddressLimit, AccountLimit int
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// Console serves the console's pages.
type Console struct {
	cfg      Config
	sessions *scs.SessionManager
}

// Session keys: the signed-in user's address, and the id of the session's
// record (accounts.Session), which ends the session when it is deleted.
const (
	sessionUser = "user"
	sessionID   = "id"
)

// New checks cfg and returns the console.
func New(cfg Config) (*Console, error) {
	if cfg.Users == nil || cfg.Workspaces == nil || cfg.Audit == nil || cfg.Sessions == nil || cfg.Limiter == nil ||
		cfg.Members == nil || cfg.Invitations == nil || cfg.Sites == nil {
		return nil, errors.New("console: Users, Workspaces, Audit, Sessions, Limiter, Members, Invitations and Sites are required")
	}
	if cfg.Setup != nil && (cfg.Setup.Store == nil || cfg.Setup.Code == "") {
		return nil, errors.New("console: Setup needs a Code and a Store")
	}
	if cfg.Store != nil && cfg.FormChanges == nil {
		return nil, errors.New("console: FormChanges is required with Store")
	}
	if (cfg.Inbox != nil || cfg.Deliveries != nil) && cfg.SubmissionChanges == nil {
		return nil, errors.New("console: SubmissionChanges is required with Inbox or Deliveries")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Lifetime = cmp.Or(cfg.Lifetime, DefaultLifetime)
	cfg.IdleTimeout = cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.AddressLimit = cmp.Or(cfg.AddressLimit, DefaultAddressLimit)
	cfg.AccountLimit = cmp.Or(cfg.AccountLimit, DefaultAccountLimit)
	cfg.PasswordParams = cmp.Or(cfg.PasswordParams, accounts.DefaultParams)
	cfg.Signup = cmp.Or(cfg.Signup, SignupInvite)

	sm := scs.New()
	sm.Store = cfg.Sessions
	sm.Lifetime, sm.IdleTimeout = cfg.Lifetime, cfg.IdleTimeout
	// The store is keyed by a hash of the cookie's token: the table holds
	// nothing a browser could present.
	sm.HashTokenInStore = true
	sm.Cookie = scs.SessionCookie{
		Name: SessionCookie, Path: Path, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: cfg.Secure, Persist: true,
	}
	if cfg.Secure {
		// Over HTTPS the cookie takes the __Host- prefix, which browsers
		// accept only from the hub itself, Secure, for the whole host
		// (Path=/) and without Domain: a sibling subdomain or a page over
		// plain HTTP cannot plant a session, nor its CSRF token, in a
		// browser.
		sm.Cookie.Name, sm.Cookie.Path = SecureSessionCookie, "/"
	}
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		cfg.Logger.ErrorContext(r.Context(), "console session", slog.String("path", hub.MaskPath(r.URL.Path)), slog.Any("error", err))
		http.Error(w, "The console cannot serve this request right now; try again later.", http.StatusInternalServerError)
	}
	return &Console{cfg: cfg, sessions: sm}, nil
}

// BackupSchedule tells how the hub's scheduled backups went, as
// backup.Schedule does.
type BackupSchedule interface {
	Last() (last, success backup.Result)
}

// Names of the session's cookie: over HTTPS (Config.Secure) the second.
const (
	SessionCookie       = "hubform_console"
	SecureSessionCookie = "__Host-hubform_console"
)

// maxBody caps every console request body. It comes before the CSRF check,
// which parses a posted form whole. A form file may be 1 MiB, which
// URL-encoding can make three times as long.
const maxBody = 3 << 20

// bodyTooLarge answers a request whose body is over maxBody.
var bodyTooLarge = &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: "This request is larger than the console accepts (3 MiB)."}

// Register adds the console's routes to e, on a group that requires a
// signed-in user except for the routes in public. The session is checked
// before the CSRF token, so that a post without a session is answered 401
// whatever it carries.
func (con *Console) Register(e *echo.Echo) {
	g := e.Group(Path, securityHeaders, hubhttp.Answer(con.writeError), hubhttp.LimitBody(maxBody, bodyTooLarge.Message), con.loadSession, con.requireUser, con.authorize, con.checkCSRF)
	g.GET("/static/*", serveStatic)
	g.GET("/sign-in", con.signInPage)
	g.GET("/setup", con.setupPage)
	g.POST("/setup", con.setUp)
	g.POST("/sign-in", con.signIn)
	g.POST("/sign-out", con.signOut)
	g.GET("", con.home)
	g.POST("/workspace", con.switchWorkspace)
	g.GET("/audit", con.auditPage)
	g.GET("/signup", con.signupPage)
	g.POST("/signup", con.requestSignup)
	g.GET("/signup/:token", con.signupLinkPage)
	g.POST("/signup/:token", con.completeSignup)
	g.GET("/sso", con.ssoStart)
	g.GET("/sso/callback", con.ssoCallback)
	g.GET("/account", con.accountPage)
	g.POST("/account/password", con.changePassword)
	g.POST("/account/sessions", con.endSessions)
	g.POST("/account/time-zone", con.setTimeZone)
	if con.cfg.Digests != nil {
		g.POST("/account/digest", con.setDigest)
	}
	g.GET("/reset", con.resetPage)
	g.POST("/reset", con.requestReset)
	g.GET("/mail-recipients/:token", con.recipientPage)
	g.POST("/mail-recipients/:token", con.confirmRecipient)
	g.GET("/reset/:token", con.resetLinkPage)
	g.POST("/reset/:token", con.resetPassword)
	if con.cfg.Tokens != nil {
		g.GET("/tokens", con.tokensPage)
		g.POST("/tokens", con.createToken)
		g.POST("/tokens/revoke", con.revokeToken)
	}
	g.GET("/members", con.membersPage)
	g.POST("/members", con.setRole)
	g.POST("/members/remove", con.removeMember)
	g.POST("/invitations", con.invite)
	g.GET("/invitations/:token", con.invitationPage)
	g.POST("/invitations/:token", con.acceptInvitation)
	g.GET("/forms", con.formList)
	con.inboxRoutes(g)
	if con.cfg.Store != nil {
		con.registerStored(g)
	}
	if con.cfg.Deliveries != nil {
		con.registerDeliveries(g)
	}
	if con.cfg.Privacy != nil {
		con.registerPeople(g)
	}
	if con.cfg.Brands != nil {
		con.registerBrand(g)
	}
}

// loadSession loads the request's session and saves it once answered,
// for every route but the static assets: with an idle timeout each save
// is a write, which a stylesheet need not cost.
func (con *Console) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	withSession := echo.WrapMiddleware(con.sessions.LoadAndSave)(next)
	return func(c echo.Context) error {
		if c.Path() == staticPath+"/*" {
			return next(c)
		}
		return withSession(c)
	}
}

// public are the routes, method and pattern, that need no session.
var public = map[string]bool{
	http.MethodGet + " " + SignInPath:        true,
	http.MethodPost + " " + SignInPath:       true,
	http.MethodGet + " " + staticPath + "/*": true,
	// The setup page, which answers 404 once the hub has a user, and
	// needs the code the hub printed at start.
	http.MethodGet + " " + SetupPath:  true,
	http.MethodPost + " " + SetupPath: true,
	// Asking for a password reset, and its link, which is its own proof.
	http.MethodGet + " " + resetPath:              true,
	http.MethodPost + " " + resetPath:             true,
	http.MethodGet + " " + resetPath + "/:token":  true,
	http.MethodPost + " " + resetPath + "/:token": true,
	// Signing up, and the link that confirms the address.
	http.MethodGet + " " + signupPath:              true,
	http.MethodPost + " " + signupPath:             true,
	http.MethodGet + " " + signupPath + "/:token":  true,
	http.MethodPost + " " + signupPath + "/:token": true,
	// Single sign-on, whose answer the provider vouches for.
	http.MethodGet + " " + ssoPath:         true,
	http.MethodGet + " " + ssoCallbackPath: true,
	// A link that asks an address to take notifications is its own proof.
	http.MethodGet + " " + RecipientsPath + "/:token":  true,
	http.MethodPost + " " + RecipientsPath + "/:token": true,
	// An invitation's link is its own proof.
	http.MethodGet + " " + invitationsPath + "/:token":  true,
	http.MethodPost + " " + invitationsPath + "/:token": true,
}

// userKey is where requireUser leaves the user in the request's context.
const userKey = "hubform.console.user"

// requireUser lets through requests of a signed-in user whose account
// still exists, and the public routes; it refuses the others.
func (con *Console) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if public[c.Request().Method+" "+c.Path()] {
			return next(c)
		}
		ctx := c.Request().Context()
		email := con.sessions.GetString(ctx, sessionUser)
		if email == "" {
			return con.refuse(c)
		}
		u, err := con.cfg.Users.User(ctx, email)
		if errors.Is(err, hub.ErrNotFound) {
			// Removed since signing in: the session ends with the account.
			if err := con.sessions.Destroy(ctx); err != nil {
				return hub.Internal("ending a session", err)
			}
			return con.refuse(c)
		}
		if err != nil {
			return hub.Internal("looking up the signed-in user", err)
		}
		err = con.cfg.Users.TouchUserSession(ctx, con.sessions.GetString(ctx, sessionID), email, con.cfg.Now())
		if errors.Is(err, hub.ErrNotFound) {
			// Ended from another session, or by a new password.
			if err := con.sessions.Destroy(ctx); err != nil {
				return hub.Internal("ending a session", err)
			}
			return con.refuse(c)
		}
		if err != nil {
			return hub.Internal("looking up the session", err)
		}
		c.Set(userKey, u)
		return next(c)
	}
}

// refuse answers a request without a session: a page is redirected to the
// sign-in page; anything else, an htmx request or a post, is answered 401,
// with HX-Redirect for htmx to go to the sign-in page.
func (con *Console) refuse(c echo.Context) error {
	r := c.Request()
	if r.Method == http.MethodGet && r.Header.Get("HX-Request") == "" {
		return c.Redirect(http.StatusSeeOther, SignInPath)
	}
	c.Response().Header().Set("HX-Redirect", SignInPath)
	return c.String(http.StatusUnauthorized, "Sign in first.")
}

// writeError answers the error a handler returned with a short text for
// people: an *hub.Error with its status and message, and any failure of
// the hub's own as 500 with the same sentence whatever the cause, which
// goes to the log.
func (con *Console) writeError(c echo.Context, err error) {
	e := hub.AsError(err)
	if e.Status >= http.StatusInternalServerError {
		con.cfg.Logger.ErrorContext(c.Request().Context(), e.Message, slog.String("path", hubhttp.LogPath(c)), slog.Any("error", err))
		c.String(e.Status, "The console cannot serve this request right now; try again later.")
		return
	}
	c.String(e.Status, e.Message)
}

// securityHeaders keeps console pages out of caches and frames.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		return next(c)
	}
}

// minutes describes d in whole minutes, rounded up, for people.
func minutes(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	if m <= 1 {
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", m)
}
