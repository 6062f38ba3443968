package console

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
)

// Signup is who may join a hub's console.
type Signup string

// Sign-up modes.
const (
	// SignupClosed: the operator adds people from the command line alone.
	SignupClosed Signup = "closed"
	// SignupInvite: admins of a workspace also invite people to it. The
	// default.
	SignupInvite Signup = "invite"
	// SignupOpen: anyone may also create an account, once they confirm
	// their address, with a workspace of their own.
	SignupOpen Signup = "open"
)

// ParseSignup returns the mode s names.
func ParseSignup(s string) (Signup, error) {
	switch m := Signup(s); m {
	case SignupClosed, SignupInvite, SignupOpen:
		return m, nil
	}
	return "", fmt.Errorf("%q: want closed, invite or open", s)
}

// SignupTTL is how long a sign-up's link works.
const SignupTTL = 24 * time.Hour

const signupPath = Path + "/signup"

// signupProps are what the pages of a sign-up show.
type signupProps struct {
	CSRF, Path, Email, Workspace string
	Sent                         bool
	Problem                      string
}

// noSignup answers the sign-up routes of a hub not open to sign-ups.
var noSignup = &hub.Error{Status: http.StatusNotFound, Message: "This hub takes no sign-ups: ask an admin of a workspace to invite you."}

func (con *Console) signupPage(c echo.Context) error {
	if con.cfg.Signup != SignupOpen {
		return noSignup
	}
	return con.render(c, http.StatusOK, signupPageView(signupProps{CSRF: con.csrfToken(c), Path: signupPath}))
}

// requestSignup sends a link that confirms the address. It answers the
// same whether a user has the address or not, and sends in the
// background; requests are limited as sign-ins are.
func (con *Console) requestSignup(c echo.Context) error {
	if con.cfg.Signup != SignupOpen {
		return noSignup
	}
	ctx := c.Request().Context()
	p := signupProps{CSRF: con.csrfToken(c), Path: signupPath, Email: c.FormValue("email")}
	email, err := accounts.NormalizeEmail(p.Email)
	if err != nil {
		p.Problem = "Give your e-mail address, such as ann@example.com."
		return con.render(c, http.StatusUnprocessableEntity, signupPageView(p))
	}
	if retry, err := con.limit(c, "console-signup", email); err != nil {
		return err
	} else if retry > 0 {
		p.Problem = "Too many requests. Try again in " + minutes(retry) + "."
		return con.render(c, http.StatusTooManyRequests, signupPageView(p))
	}
	p.Sent = true
	now, token := con.cfg.Now(), accounts.NewLinkToken()
	err = con.cfg.Users.CreateSignup(ctx, accounts.HashToken(token), email, now, now.Add(SignupTTL))
	switch {
	case errors.Is(err, accounts.ErrExists):
		con.cfg.Logger.InfoContext(ctx, "sign-up asked for an address a user has", slog.String("client", c.RealIP()))
	case err != nil:
		return hub.Internal("creating a sign-up", err)
	default:
		link := con.cfg.PublicURL + signupPath + "/" + token
		go con.sendLater(context.WithoutCancel(ctx), email, "Confirm your address", fmt.Sprintf(`Someone, perhaps you, asked to sign up to a form hub's console with %s.

Confirm your address and choose your password and workspace here:

%s

The link works once, until %s. If you did not ask, ignore this e-mail.
`, email, link, now.Add(SignupTTL).UTC().Format("2006-01-02 15:04 UTC")))
	}
	return con.render(c, http.StatusOK, signupPageView(p))
}

var invalidSignup = &hub.Error{Status: http.StatusNotFound,
	Message: "This link is not valid: it may have expired or been used already. Sign up again at " + signupPath + "."}

func (con *Console) signupLinkPage(c echo.Context) error {
	if con.cfg.Signup != SignupOpen {
		return noSignup
	}
	email, err := con.linkEmail(c, con.cfg.Users.Signup, invalidSignup)
	if err != nil {
		return err
	}
	return con.render(c, http.StatusOK, signupLinkPageView(signupProps{CSRF: con.csrfToken(c), Path: signupPath + "/" + c.Param("token"), Email: email}))
}

// completeSignup creates the account and its workspace, and signs in.
func (con *Console) completeSignup(c echo.Context) error {
	if con.cfg.Signup != SignupOpen {
		return noSignup
	}
	ctx := c.Request().Context()
	hashed := accounts.HashToken(c.Param("token"))
	email, err := con.linkEmail(c, con.cfg.Users.Signup, invalidSignup)
	if err != nil {
		return err
	}
	p := signupProps{CSRF: con.csrfToken(c), Path: signupPath + "/" + c.Param("token"), Email: email, Workspace: c.FormValue("workspace")}
	if !accounts.ValidWorkspaceName(p.Workspace) {
		p.Problem = "Name your workspace with 1 to 64 letters, digits, '.', '_' or '-'."
		return con.render(c, http.StatusUnprocessableEntity, signupLinkPageView(p))
	}
	hash, problem, err := con.newPassword(c)
	if err != nil {
		return err
	}
	if problem != "" {
		p.Problem = problem
		return con.render(c, http.StatusUnprocessableEntity, signupLinkPageView(p))
	}
	_, err = con.cfg.Users.CompleteSignup(ctx, hashed, hash, p.Workspace, con.cfg.Now())
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return invalidSignup
	case errors.Is(err, accounts.ErrExists):
		p.Problem = "The workspace name " + p.Workspace + " is taken: choose another."
		return con.render(c, http.StatusUnprocessableEntity, signupLinkPageView(p))
	case err != nil:
		return hub.Internal("completing a sign-up", err)
	}
	con.record(ctx, accounts.Event{Workspace: p.Workspace, At: con.cfg.Now(), Actor: email, Action: accounts.ActionSignedUp, Target: p.Workspace, Client: c.RealIP()})
	if err := con.startSession(c, email, p.Workspace); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}
