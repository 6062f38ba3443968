package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// SetupPath is the page that sets up a hub without a user: it creates the
// first admin and names their workspace, given the one-time code the hub
// printed when it started.
const SetupPath = Path + "/setup"

// FirstAdmins makes a hub's first user, as sqldb.DB does.
type FirstAdmins interface {
	// HasUsers reports whether the hub has a user.
	HasUsers(ctx context.Context) (bool, error)
	// CreateFirstAdmin makes u the first user and the admin of workspace,
	// created unless it exists; the error wraps accounts.ErrExists when a
	// user exists by then.
	CreateFirstAdmin(ctx context.Context, u accounts.User, workspace string, now time.Time) error
}

// Setup is the setup page of a hub that started without a user.
type Setup struct {
	// Code is the one-time code the hub printed at start (NewSetupCode).
	Code string
	// Store makes the first admin.
	Store FirstAdmins
	// Workspace is the name the page suggests: the workspace that owns
	// the forms directory's sites, whose forms the admin then sees.
	Workspace string
	// closed is set once the code made the first admin, or the hub was
	// found to have a user: the page is gone for good, even if every user
	// is removed later.
	closed atomic.Bool
}

// setupCodeAlphabet is Crockford's base 32: no I, L, O or U to misread.
const setupCodeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewSetupCode returns a one-time setup code: 20 characters of base 32
// (100 bits, which no rate of guessing exhausts), in groups of four to be
// copied from a log.
func NewSetupCode() string {
	b := make([]byte, 20)
	rand.Read(b)
	var s strings.Builder
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(setupCodeAlphabet[int(c)%len(setupCodeAlphabet)])
	}
	return s.String()
}

// normalSetupCode is code as typed, without spaces or dashes, in capitals.
func normalSetupCode(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			return -1
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		}
		return r
	}, code)
}

// noSetup answers the setup page of a hub that has a user, or was never
// offered one: as a page that does not exist.
var noSetup = &hub.Error{Status: http.StatusNotFound, Message: "Not found."}

// setupProps are what the setup page shows.
type setupProps struct {
	CSRF, Email, Workspace string
	Problem                string
}

// setupOpen reports whether the setup page is offered: the hub printed a
// code, it made no admin yet, and the hub has no user.
func (con *Console) setupOpen(ctx context.Context) (bool, error) {
	s := con.cfg.Setup
	if s == nil || s.Code == "" || s.closed.Load() {
		return false, nil
	}
	users, err := s.Store.HasUsers(ctx)
	if err != nil {
		return false, hub.Internal("looking for users", err)
	}
	if users {
		s.closed.Store(true)
	}
	return !users, nil
}

func (con *Console) setupPage(c echo.Context) error {
	if open, err := con.setupOpen(c.Request().Context()); err != nil || !open {
		return cmpError(err, noSetup)
	}
	return con.render(c, http.StatusOK, setupPageView(setupProps{CSRF: con.csrfToken(c), Workspace: con.cfg.Setup.Workspace}))
}

// setUp checks the code, creates the first admin and their workspace, and
// signs them in. Attempts are limited per client address as sign-ins are,
// before the code is compared.
func (con *Console) setUp(c echo.Context) error {
	ctx := c.Request().Context()
	if open, err := con.setupOpen(ctx); err != nil || !open {
		return cmpError(err, noSetup)
	}
	p := setupProps{CSRF: con.csrfToken(c), Email: c.FormValue("email"), Workspace: c.FormValue("workspace")}
	if retry, err := con.limit(c, "console-setup", ""); err != nil {
		return err
	} else if retry > 0 {
		p.Problem = "Too many attempts. Try again in " + minutes(retry) + "."
		return con.render(c, http.StatusTooManyRequests, setupPageView(p))
	}
	want := normalSetupCode(con.cfg.Setup.Code)
	if subtle.ConstantTimeCompare([]byte(normalSetupCode(c.FormValue("code"))), []byte(want)) != 1 {
		p.Problem = "This setup code is wrong. Copy the code the hub printed when it started, from its log or its terminal."
		return con.render(c, http.StatusUnprocessableEntity, setupPageView(p))
	}
	email, err := accounts.NormalizeEmail(p.Email)
	if err != nil {
		p.Problem = "Give your e-mail address, such as ann@example.com."
		return con.render(c, http.StatusUnprocessableEntity, setupPageView(p))
	}
	if !accounts.ValidWorkspaceName(p.Workspace) {
		p.Problem = "Name your workspace with 1 to 64 letters, digits, '.', '_' or '-'."
		return con.render(c, http.StatusUnprocessableEntity, setupPageView(p))
	}
	hash, problem, err := con.newPassword(c)
	if err != nil {
		return err
	}
	if problem != "" {
		p.Problem = problem
		return con.render(c, http.StatusUnprocessableEntity, setupPageView(p))
	}
	// One post at a time takes the code: a second one finds it used.
	if !con.cfg.Setup.closed.CompareAndSwap(false, true) {
		return noSetup
	}
	now := con.cfg.Now()
	err = con.cfg.Setup.Store.CreateFirstAdmin(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: now, ProvedAt: now}, p.Workspace, now)
	switch {
	case errors.Is(err, accounts.ErrExists):
		return noSetup
	case err != nil:
		con.cfg.Setup.closed.Store(false)
		return hub.Internal("creating the first admin", err)
	}
	con.record(ctx, accounts.Event{Workspace: p.Workspace, At: now, Actor: email, Action: accounts.ActionSetUp, Target: p.Workspace, Client: c.RealIP()})
	if err := con.startSession(c, email, p.Workspace); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}

// cmpError returns err when it is set, else otherwise.
func cmpError(err error, otherwise *hub.Error) error {
	if err != nil {
		return err
	}
	return otherwise
}
