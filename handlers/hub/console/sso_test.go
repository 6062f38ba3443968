package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// startOIDC runs a real OpenID Connect provider until t ends.
func startOIDC(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown() })
	return m
}

// ssoSignIn follows single sign-on as a browser would: to the provider,
// which signs in the user it has queued, and back to the console, whose
// public URL stands for the test server's. change, when set, alters the
// request to the provider on the way.
func ssoSignIn(t *testing.T, b *browser, change ...func(url.Values)) response {
	t.Helper()
	start := b.get(console.Path + "/sso")
	if start.status != http.StatusSeeOther {
		t.Fatalf("starting single sign-on: %d %s", start.status, start.body)
	}
	authorize, err := url.Parse(start.header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	q := authorize.Query()
	if q.Get("nonce") == "" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" || q.Get("state") == "" {
		t.Errorf("the request to the provider lacks a nonce, a PKCE challenge or a state: %v", q)
	}
	for _, f := range change {
		f(q)
	}
	authorize.RawQuery = q.Encode()
	res, err := b.client.Get(authorize.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back := res.Header.Get("Location")
	if !strings.HasPrefix(back, publicURL+"/console/sso/callback?") {
		t.Fatalf("the provider sent the browser to %q", back)
	}
	return b.get(strings.TrimPrefix(back, publicURL))
}

// TestSingleSignOn signs in through an OpenID Connect provider started by
// the test: a verified address with a user is signed in; an unverified
// one, one without a user, a callback that did not start here, or one
// replayed, are not.
func TestSingleSignOn(t *testing.T) {
	provider := startOIDC(t)
	oidc, err := console.NewOIDC(context.Background(), provider.Issuer(), provider.ClientID, provider.ClientSecret, publicURL)
	if err != nil {
		t.Fatal(err)
	}
	tc := newConsole(t, func(cfg *console.Config) { cfg.OIDC, cfg.PublicURL = oidc, publicURL })
	if page := tc.browser().get(console.SignInPath); !strings.Contains(page.body, "Sign in with single sign-on") {
		t.Errorf("the sign-in page offers no single sign-on")
	}

	provider.QueueUser(&mockoidc.MockUser{Subject: "1", Email: "Jane@Example.com", EmailVerified: true})
	b := tc.browser()
	if res := ssoSignIn(t, b); res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Fatalf("single sign-on as Jane: %d %s", res.status, res.body)
	}
	if home := b.get(console.Path); home.status != http.StatusOK || !strings.Contains(home.body, "Signed in as jane@example.com") {
		t.Errorf("Jane's home page after single sign-on: %d", home.status)
	}

	for _, u := range []*mockoidc.MockUser{
		{Subject: "2", Email: janeEmail, EmailVerified: false},
		{Subject: "3", Email: "stranger@example.com", EmailVerified: true},
	} {
		provider.QueueUser(u)
		other := tc.browser()
		if res := ssoSignIn(t, other); res.status != http.StatusUnauthorized || !strings.Contains(res.body, "Single sign-on did not work") {
			t.Errorf("single sign-on as %+v: %d, want 401", u, res.status)
		}
		if other.get(console.Path).status == http.StatusOK {
			t.Errorf("single sign-on as %+v signed in", u)
		}
	}
	// An ID token issued for another sign-in's nonce, as a code injected
	// from another authorization would carry, is refused.
	provider.QueueUser(&mockoidc.MockUser{Subject: "1", Email: janeEmail, EmailVerified: true})
	if res := ssoSignIn(t, tc.browser(), func(q url.Values) { q.Set("nonce", "another") }); res.status != http.StatusUnauthorized {
		t.Errorf("an ID token of another nonce: %d, want 401", res.status)
	}
	// A callback this browser did not start, as a forged link would be.
	forged := tc.browser()
	if res := forged.get(console.Path + "/sso/callback?" + url.Values{"code": {"x"}, "state": {"y"}}.Encode()); res.status != http.StatusBadRequest {
		t.Errorf("a callback that did not start here: %d, want 400", res.status)
	}
	events, _ := tc.db.Events(context.Background(), "", "", 0)
	if len(events) != 1 || events[0].Action != accounts.ActionSignInFailed || events[0].Target != "stranger@example.com" {
		t.Errorf("the hub's own log: %+v; want the stranger's failed sign-in", events)
	}
}
