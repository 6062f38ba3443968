package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Paths of single sign-on.
const (
	ssoPath         = Path + "/sso"
	ssoCallbackPath = ssoPath + "/callback"
)

// OIDC signs people in with an OpenID Connect provider, by the
// authorization code flow with PKCE, state and nonce. A person is matched
// to a user by their e-mail address, which the provider must have
// verified.
type OIDC struct {
	oauth    oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// NewOIDC discovers the provider at issuer and returns its sign-in for a
// client of the id and secret, whose redirect URL is the console's
// callback under publicURL.
func NewOIDC(ctx context.Context, issuer, clientID, clientSecret, publicURL string) (*OIDC, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	provider, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect provider %s: %w", issuer, err)
	}
	return &OIDC{
		oauth: oauth2.Config{ClientID: clientID, ClientSecret: clientSecret, Endpoint: provider.Endpoint(),
			RedirectURL: publicURL + ssoCallbackPath, Scopes: []string{oidc.ScopeOpenID, "email"}},
		verifier: provider.Verifier(&oidc.Config{ClientID: clientID}),
	}, nil
}

// Session keys of a sign-in under way with the provider.
const (
	sessionOIDCState    = "oidc-state"
	sessionOIDCNonce    = "oidc-nonce"
	sessionOIDCVerifier = "oidc-verifier"
)

// ssoStart sends the browser to the provider, with a state, a nonce and a
// PKCE challenge whose secrets stay in the session.
func (con *Console) ssoStart(c echo.Context) error {
	if con.cfg.OIDC == nil {
		return &hub.Error{Status: http.StatusNotFound, Message: "This hub has no single sign-on."}
	}
	ctx := c.Request().Context()
	state, nonce, verifier := accounts.NewLinkToken(), accounts.NewLinkToken(), oauth2.GenerateVerifier()
	con.sessions.Put(ctx, sessionOIDCState, state)
	con.sessions.Put(ctx, sessionOIDCNonce, nonce)
	con.sessions.Put(ctx, sessionOIDCVerifier, verifier)
	return c.Redirect(http.StatusSeeOther, con.cfg.OIDC.oauth.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)))
}

// ssoCallback takes the provider's answer: the code is exchanged with the
// PKCE verifier, the ID token checked with its nonce, and the verified
// address signed in when a user has it, which proves the address and
// retires every pending reset link of the user.
func (con *Console) ssoCallback(c echo.Context) error {
	if con.cfg.OIDC == nil {
		return &hub.Error{Status: http.StatusNotFound, Message: "This hub has no single sign-on."}
	}
	ctx := c.Request().Context()
	state := con.sessions.PopString(ctx, sessionOIDCState)
	nonce := con.sessions.PopString(ctx, sessionOIDCNonce)
	verifier := con.sessions.PopString(ctx, sessionOIDCVerifier)
	if state == "" || c.QueryParam("state") != state {
		return &hub.Error{Status: http.StatusBadRequest, Message: "This sign-in did not start here, or took too long: sign in again."}
	}
	fail := func(why string, err error) error {
		con.cfg.Logger.WarnContext(ctx, "single sign-on refused", slog.String("why", why), slog.Any("error", err), slog.String("client", c.RealIP()))
		return con.render(c, http.StatusUnauthorized, signInPage(signInProps{CSRF: con.csrfToken(c), SSO: true, Signup: con.cfg.Signup == SignupOpen, Error: "Single sign-on did not work: " + why + "."}))
	}
	if e := c.QueryParam("error"); e != "" {
		// The provider's code goes to the log: a link could put any words
		// in it, and the page shows none of them.
		return fail("the provider refused", errors.New(e))
	}
	exchange, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	token, err := con.cfg.OIDC.oauth.Exchange(exchange, c.QueryParam("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return fail("the provider's answer could not be checked", err)
	}
	raw, ok := token.Extra("id_token").(string)
	if !ok {
		return fail("the provider sent no ID token", nil)
	}
	id, err := con.cfg.OIDC.verifier.Verify(exchange, raw)
	if err != nil || id.Nonce != nonce {
		return fail("the provider's ID token is not valid", errors.Join(err, errors.New("nonce")))
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified bool   `json:"email_verified"`
	}
	if err := id.Claims(&claims); err != nil {
		return fail("the provider's ID token is not valid", err)
	}
	email, err := accounts.NormalizeEmail(claims.Email)
	if err != nil || !claims.EmailVerified {
		return fail("the provider gave no verified e-mail address", err)
	}
	// The provider vouches for the address: it is proved, and an account
	// whose address nobody had proved is taken from whoever set its
	// password (see sqldb.DB.ProveUser).
	unproved, err := con.cfg.Users.ProveUser(ctx, email, "", con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		con.auditUser(c, email, accounts.ActionSignInFailed)
		return fail("no account has the address "+email+": ask an admin of a workspace to invite you", nil)
	} else if err != nil {
		return hub.Internal("proving an address", err)
	}
	if unproved {
		con.auditUser(c, email, accounts.ActionAddressProved)
	}
	// A reset link asked for before is no longer needed, and must not
	// outlive a sign-in that proves who holds the account.
	if _, err := con.cfg.Users.RetirePasswordResets(ctx, email, con.cfg.Now()); err != nil {
		return hub.Internal("retiring reset links", err)
	}
	if err := con.startSession(c, email, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, Path)
}
