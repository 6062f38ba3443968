package console

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"

	"github.com/hubform/hubform/handlers/hub"
)

// signInFailed is what a wrong address or password is told, alike, so that
// the answer does not say which addresses have accounts.
const signInFailed = "The e-mail address or the password is wrong."

func (con *Console) signInPage(c echo.Context) error {
	if con.sessions.GetString(c.Request().Context(), sessionUser) != "" {
		return c.Redirect(http.StatusSeeOther, Path)
	}
	setup, err := con.setupOpen(c.Request().Context())
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, signInPage(signInProps{CSRF: con.csrfToken(c), SSO: con.cfg.OIDC != nil, Signup: con.cfg.Signup == SignupOpen, Setup: setup}))
}

// signIn checks the posted e-mail address and password. Attempts are
// counted per client address and per e-mail address before the password
// is checked, so that guessing is slow whichever one an attacker varies;
// the price is that someone who knows an address can keep its owner from
// signing in for a window.
func (con *Console) signIn(c echo.Context) error {
	ctx := c.Request().Context()
	p := signInProps{CSRF: con.csrfToken(c), Email: c.FormValue("email"), SSO: con.cfg.OIDC != nil, Signup: con.cfg.Signup == SignupOpen}
	email, emailErr := accounts.NormalizeEmail(p.Email)
	password := c.FormValue("password")

	// An address that is not one counts against the client alone.
	counted := email
	if emailErr != nil {
		counted = ""
	}
	if retry, err := con.limit(c, "console-sign-in", counted); err != nil {
		return err
	} else if retry > 0 {
		con.cfg.Logger.WarnContext(ctx, "console sign-in attempts over the limit", slog.String("client", c.RealIP()), slog.String("email", email))
		p.Error = "Too many attempts to sign in. Try again in " + minutes(retry) + "."
		return con.render(c, http.StatusTooManyRequests, signInPage(p))
	}

	ok, err := con.checkPassword(ctx, email, emailErr, password)
	if err != nil {
		return hub.Internal("checking a password", err)
	}
	if !ok {
		con.cfg.Logger.InfoContext(ctx, "console sign-in failed", slog.String("client", c.RealIP()), slog.String("email", email))
		if emailErr == nil {
			con.auditUser(c, email, accounts.ActionSignInFailed)
		}
		p.Error = signInFailed
		return con.render(c, http.StatusUnauthorized, signInPage(p))
	}
	if err := con.startSession(c, email, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}

// startSession signs email in, in a new session with a record of its own,
// and in workspace when it is set.
func (con *Console) startSession(c echo.Context, email, workspace string) error {
	ctx := c.Request().Context()
	// A new token on sign-in: a session token planted before cannot be
	// carried into the signed-in session.
	if err := con.sessions.RenewToken(ctx); err != nil {
		return hub.Internal("renewing a session", err)
	}
	// Nor its CSRF token: the next page makes the session a new one.
	con.sessions.Remove(ctx, sessionCSRF)
	now := con.cfg.Now()
	s := accounts.Session{ID: accounts.NewLinkToken(), Email: email, CreatedAt: now, LastSeenAt: now, Client: c.RealIP(), UserAgent: c.Request().UserAgent()}
	if err := con.cfg.Users.CreateUserSession(ctx, s); err != nil {
		return hub.Internal("recording a session", err)
	}
	con.sessions.Put(ctx, sessionUser, email)
	con.sessions.Put(ctx, sessionID, s.ID)
	if workspace != "" {
		con.sessions.Put(ctx, sessionWorkspace, workspace)
	}
	// The browser's time zone, which console.js adds to the form.
	if tz := c.FormValue(sessionTimeZone); tz != "" {
		if _, err := loadZone(tz); err == nil {
			con.sessions.Put(ctx, sessionTimeZone, tz)
		}
	}
	con.cfg.Logger.InfoContext(ctx, "console sign-in", slog.String("client", c.RealIP()), slog.String("email", email))
	con.auditUser(c, email, accounts.ActionSignIn)
	return nil
}

// checkPassword reports whether password is the user's. Every failure
// takes the time of an argon2id check.
func (con *Console) checkPassword(ctx context.Context, email string, emailErr error, password string) (bool, error) {
	if emailErr != nil {
		return accounts.CheckNoPassword(password), nil
	}
	u, err := con.cfg.Users.User(ctx, email)
	if errors.Is(err, hub.ErrNotFound) {
		return accounts.CheckNoPassword(password), nil
	}
	if err != nil {
		return false, err
	}
	if u.PasswordHash == "" {
		// None: the address was proved by someone other than whoever set
		// the one it had, who sets one by a reset link.
		return accounts.CheckNoPassword(password), nil
	}
	return accounts.CheckPassword(u.PasswordHash, password)
}

func (con *Console) signOut(c echo.Context) error {
	ctx := c.Request().Context()
	if _, err := con.cfg.Users.EndUserSessions(ctx, userEmail(c), "", con.sessions.GetString(ctx, sessionID)); err != nil {
		return hub.Internal("ending a session", err)
	}
	if err := con.sessions.Destroy(ctx); err != nil {
		return hub.Internal("ending a session", err)
	}
	return c.Redirect(http.StatusSeeOther, SignInPath)
}
