package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Paths of a user's own pages.
const (
	accountPath = Path + "/account"
	resetPath   = Path + "/reset"
)

// accountProps are what the account page shows: the user's sessions and
// the form that changes their password.
type accountProps struct {
	CSRF, Email     string
	Current         string
	Sessions        []accounts.Session
	Notice, Problem string
	// Zone is the time zone times are shown in; ZoneProblem what is wrong
	// with one typed.
	Zone, ZoneProblem string
	Digest            digestProps
}

func (con *Console) accountPage(c echo.Context) error {
	return con.renderAccount(c, http.StatusOK, accountProps{Notice: con.sessions.PopString(c.Request().Context(), sessionNotice)})
}

func (con *Console) renderAccount(c echo.Context, status int, p accountProps) error {
	ctx := c.Request().Context()
	p.CSRF, p.Email, p.Current = con.csrfToken(c), userEmail(c), con.sessions.GetString(ctx, sessionID)
	if p.Zone == "" {
		p.Zone = con.location(ctx).String()
	}
	var err error
	if p.Sessions, err = con.cfg.Users.UserSessions(ctx, p.Email); err != nil {
		return hub.Internal("listing sessions", err)
	}
	if err := con.loadDigest(c, &p.Digest); err != nil {
		return err
	}
	return con.render(c, status, accountPageView(p))
}

// endSessions ends the posted sessions of the user, or with all=1 every
// one but this.
func (con *Console) endSessions(c echo.Context) error {
	ctx := c.Request().Context()
	params, err := c.FormParams()
	if err != nil {
		return &hub.Error{Status: http.StatusBadRequest, Message: "The form could not be read."}
	}
	current := con.sessions.GetString(ctx, sessionID)
	ids := params["id"]
	if params.Get("all") != "1" && len(ids) == 0 {
		return &hub.Error{Status: http.StatusBadRequest, Message: "Choose the sessions to end."}
	}
	if params.Get("all") == "1" {
		ids = nil
	}
	n, err := con.cfg.Users.EndUserSessions(ctx, userEmail(c), current, ids...)
	if err != nil {
		return hub.Internal("ending sessions", err)
	}
	if n == 1 {
		return con.noticeAndGo(c, accountPath, "One session was ended.")
	}
	return con.noticeAndGo(c, accountPath, strconv.Itoa(n)+" sessions were ended.")
}

// setTimeZone keeps the time zone the user chose for the session.
func (con *Console) setTimeZone(c echo.Context) error {
	zone := strings.TrimSpace(c.FormValue(sessionTimeZone))
	if _, err := loadZone(zone); err != nil {
		return con.renderAccount(c, http.StatusUnprocessableEntity, accountProps{Zone: zone,
			ZoneProblem: "No time zone has this name: give one such as Europe/Paris, or UTC."})
	}
	con.sessions.Put(c.Request().Context(), sessionTimeZone, zone)
	return con.noticeAndGo(c, accountPath, "Times are now shown in "+zone+".")
}

// changePassword gives the user a new password, once they gave the one
// they have, ends their other sessions and retires their pending reset
// links.
func (con *Console) changePassword(c echo.Context) error {
	ctx := c.Request().Context()
	email := userEmail(c)
	ok, err := con.checkPassword(ctx, email, nil, c.FormValue("current"))
	if err != nil {
		return hub.Internal("checking a password", err)
	}
	if !ok {
		return con.renderAccount(c, http.StatusUnprocessableEntity, accountProps{Problem: "The current password is wrong."})
	}
	hash, problem, err := con.newPassword(c)
	if problem != "" || err != nil {
		if err != nil {
			return err
		}
		return con.renderAccount(c, http.StatusUnprocessableEntity, accountProps{Problem: problem})
	}
	if err := con.cfg.Users.SetPassword(ctx, email, hash, con.sessions.GetString(ctx, sessionID), con.cfg.Now()); err != nil {
		return hub.Internal("changing a password", err)
	}
	con.auditUser(c, email, accounts.ActionPasswordChanged)
	return con.noticeAndGo(c, accountPath, "Your password was changed, and your other sessions ended.")
}

// newPassword returns the hash of the posted new password, or says what
// is wrong with it.
func (con *Console) newPassword(c echo.Context) (hash, problem string, err error) {
	password := c.FormValue("password")
	if err := accounts.CheckPasswordRules(password); err != nil {
		return "", "Choose another password: " + err.Error() + ".", nil
	}
	if password != c.FormValue("confirm") {
		return "", "The two passwords differ: type the same one twice.", nil
	}
	if hash, err = accounts.HashPassword(password, con.cfg.PasswordParams); err != nil {
		return "", "", hub.Internal("hashing a password", err)
	}
	return hash, "", nil
}

// resetProps are what the pages of a password reset show.
type resetProps struct {
	CSRF, Path, Email string
	// Sent is whether the request was taken: the page then says the same
	// whether a user has the address or not.
	Sent    bool
	Problem string
}

func (con *Console) resetPage(c echo.Context) error {
	return con.render(c, http.StatusOK, resetPageView(resetProps{CSRF: con.csrfToken(c), Path: resetPath}))
}

// requestReset takes a request for a reset link. It answers the same
// whether a user has the address or not, and sends the e-mail in the
// background, so that neither the page nor its timing tells. Requests are
// limited per client address and per e-mail address, as sign-ins are.
func (con *Console) requestReset(c echo.Context) error {
	ctx := c.Request().Context()
	p := resetProps{CSRF: con.csrfToken(c), Path: resetPath, Email: c.FormValue("email")}
	email, err := accounts.NormalizeEmail(p.Email)
	if err != nil {
		p.Problem = "Give the e-mail address you sign in with, such as ann@example.com."
		return con.render(c, http.StatusUnprocessableEntity, resetPageView(p))
	}
	if retry, err := con.limit(c, "console-reset", email); err != nil {
		return err
	} else if retry > 0 {
		p.Problem = "Too many requests. Try again in " + minutes(retry) + "."
		return con.render(c, http.StatusTooManyRequests, resetPageView(p))
	}
	now := con.cfg.Now()
	p.Sent = true
	if con.cfg.Mailer == nil {
		con.cfg.Logger.WarnContext(ctx, "password reset asked for, but the hub sends no e-mail (--smtp-url)", slog.String("client", c.RealIP()))
		return con.render(c, http.StatusOK, resetPageView(p))
	}
	token := accounts.NewLinkToken()
	err = con.cfg.Users.CreatePasswordReset(ctx, accounts.HashToken(token), email, now, now.Add(accounts.ResetTTL))
	switch {
	case errors.Is(err, hub.ErrNotFound):
		con.cfg.Logger.InfoContext(ctx, "password reset asked for an address no user has", slog.String("client", c.RealIP()))
	case err != nil:
		return hub.Internal("creating a password reset", err)
	default:
		con.auditUser(c, email, accounts.ActionResetRequested)
		link := con.cfg.PublicURL + resetPath + "/" + token
		go con.sendLater(context.WithoutCancel(ctx), email, "Choose a new password", fmt.Sprintf(`Someone, perhaps you, asked for a new password for %s on a form hub's console.

Choose one here:

%s

The link works once, until %s. If you did not ask, ignore this e-mail: your password stays as it is.
`, email, link, now.Add(accounts.ResetTTL).UTC().Format("2006-01-02 15:04 UTC")))
	}
	return con.render(c, http.StatusOK, resetPageView(p))
}

// invalidReset answers a reset link that cannot be used.
var invalidReset = &hub.Error{Status: http.StatusNotFound,
	Message: "This link is not valid: it may have expired or been used already. Ask for a new one at " + resetPath + "."}

// linkEmail returns the address of the request's link, which lookup finds
// by the hash of its token, or invalid when it cannot be used.
func (con *Console) linkEmail(c echo.Context, lookup func(ctx context.Context, tokenHash string, now time.Time) (string, error), invalid error) (string, error) {
	email, err := lookup(c.Request().Context(), accounts.HashToken(c.Param("token")), con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return "", invalid
	}
	if err != nil {
		return "", hub.Internal("reading a link", err)
	}
	return email, nil
}

func (con *Console) resetLinkPage(c echo.Context) error {
	email, err := con.linkEmail(c, con.cfg.Users.PasswordReset, invalidReset)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, resetLinkPageView(resetProps{CSRF: con.csrfToken(c), Path: resetPath + "/" + c.Param("token"), Email: email}))
}

// resetPassword uses a reset link: the user takes the new password, every
// session and every other reset link of theirs ends, their address is
// proved (the link was mailed to it), and they are signed in afresh.
func (con *Console) resetPassword(c echo.Context) error {
	ctx := c.Request().Context()
	hashed := accounts.HashToken(c.Param("token"))
	email, err := con.linkEmail(c, con.cfg.Users.PasswordReset, invalidReset)
	if err != nil {
		return err
	}
	hash, problem, err := con.newPassword(c)
	if err != nil {
		return err
	}
	if problem != "" {
		return con.render(c, http.StatusUnprocessableEntity, resetLinkPageView(resetProps{CSRF: con.csrfToken(c), Path: resetPath + "/" + c.Param("token"), Email: email, Problem: problem}))
	}
	if email, err = con.cfg.Users.ResetPassword(ctx, hashed, hash, con.cfg.Now()); errors.Is(err, hub.ErrNotFound) {
		return invalidReset
	} else if err != nil {
		return hub.Internal("resetting a password", err)
	}
	con.auditUser(c, email, accounts.ActionPasswordReset)
	if err := con.startSession(c, email, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}
