package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

const sessionCookie = console.SessionCookie

func TestSignInAndOut(t *testing.T) {
	tc := newConsole(t, nil)
	b := tc.browser()

	if res := b.get(console.Path); res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Fatalf("GET /console without a session: %d to %q, want 303 to the sign-in page", res.status, res.header.Get("Location"))
	}
	page := b.get(console.SignInPath)
	for _, want := range []string{`name="email"`, `name="password"`, `type="password"`, `<label for="email"`, `<label for="password"`} {
		if page.status != http.StatusOK || !strings.Contains(page.body, want) {
			t.Errorf("sign-in page (%d) lacks %s", page.status, want)
		}
	}

	res := b.signIn(" Jane@Example.com", janePassword)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Fatalf("sign-in: %d to %q: %s", res.status, res.header.Get("Location"), res.body)
	}
	c := setCookie(res, sessionCookie)
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != console.Path {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Lax, Path=/console, not Secure over http", c)
	}
	home := b.get(console.Path)
	if home.status != http.StatusOK || !strings.Contains(home.body, "Signed in as "+janeEmail) {
		t.Fatalf("home after sign-in: %d %q", home.status, home.body)
	}
	if home.header.Get("Cache-Control") != "no-store" || home.header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("home headers %v", home.header)
	}
	// Signed in, the sign-in page sends the user home.
	if res := b.get(console.SignInPath); res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Errorf("sign-in page when signed in: %d to %q", res.status, res.header.Get("Location"))
	}

	// Signing in again renews the token; the old one is worth nothing.
	old := b.cookie(sessionCookie)
	again := url.Values{"email": {janeEmail}, "password": {janePassword}, "_csrf": {b.csrf(console.Path)}}
	if res := b.do(http.MethodPost, console.SignInPath, again, nil); res.status != http.StatusSeeOther {
		t.Fatalf("second sign-in: %d", res.status)
	}
	if now := b.cookie(sessionCookie); now == "" || now == old {
		t.Errorf("session token %q after signing in again, was %q: not renewed", now, old)
	}
	replay := tc.browser()
	if res := replay.do(http.MethodGet, console.Path, nil, map[string]string{"Cookie": sessionCookie + "=" + old}); res.status != http.StatusSeeOther {
		t.Errorf("the token from before the renewal: %d, want 303 to sign in", res.status)
	}

	current := b.cookie(sessionCookie)
	token := b.csrf(console.Path)
	res = b.do(http.MethodPost, console.Path+"/sign-out", url.Values{"_csrf": {token}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Fatalf("sign-out: %d to %q", res.status, res.header.Get("Location"))
	}
	if res := b.get(console.Path); res.status != http.StatusSeeOther {
		t.Errorf("home after sign-out: %d", res.status)
	}
	// The session is ended in the database, not only in the browser.
	if res := replay.do(http.MethodGet, console.Path, nil, map[string]string{"Cookie": sessionCookie + "=" + current}); res.status != http.StatusSeeOther {
		t.Errorf("the token from before signing out: %d, want 303 to sign in", res.status)
	}
}

func TestSignInRefused(t *testing.T) {
	tc := newConsole(t, nil)
	for _, tc2 := range []struct{ email, password string }{
		{janeEmail, "wrong password"},
		{janeEmail, ""},
		{"nobody@example.com", janePassword},
		{"not an address", janePassword},
	} {
		b := tc.browser()
		token := b.csrf(console.SignInPath)
		before := b.cookie(sessionCookie)
		res := b.do(http.MethodPost, console.SignInPath, url.Values{"email": {tc2.email}, "password": {tc2.password}, "_csrf": {token}}, nil)
		if res.status != http.StatusUnauthorized || !strings.Contains(res.body, "The e-mail address or the password is wrong.") {
			t.Errorf("sign-in as %q with %q: %d %q", tc2.email, tc2.password, res.status, res.body)
		}
		if tc2.password != "" && strings.Contains(res.body, tc2.password) {
			t.Errorf("the page repeats the password")
		}
		// The session the sign-in page started goes on, signed out.
		if b.cookie(sessionCookie) != before || b.get(console.Path).status != http.StatusSeeOther {
			t.Errorf("sign-in as %q with %q made a session", tc2.email, tc2.password)
		}
	}
}

func TestRemovedUserSignedOut(t *testing.T) {
	tc := newConsole(t, nil)
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	if res := b.get(console.Path); res.status != http.StatusOK {
		t.Fatalf("home: %d", res.status)
	}
	if err := tc.db.DeleteUser(context.Background(), janeEmail); err != nil {
		t.Fatal(err)
	}
	if res := b.get(console.Path); res.status != http.StatusSeeOther {
		t.Errorf("home after the user was removed: %d, want 303 to sign in", res.status)
	}
}

func TestHTMXWithoutSession(t *testing.T) {
	tc := newConsole(t, nil)
	b := tc.browser()
	res := b.do(http.MethodGet, console.Path+"/forms", nil, map[string]string{"HX-Request": "true"})
	if res.status != http.StatusUnauthorized || res.header.Get("HX-Redirect") != console.SignInPath {
		t.Errorf("htmx GET without a session: %d, HX-Redirect %q; want 401 and the sign-in page", res.status, res.header.Get("HX-Redirect"))
	}
	b.signIn(janeEmail, janePassword)
	res = b.do(http.MethodGet, console.Path+"/forms", nil, map[string]string{"HX-Request": "true"})
	if res.status != http.StatusOK || strings.Contains(res.body, "<html") {
		t.Errorf("htmx GET of the form list: %d %q; want the fragment alone", res.status, res.body)
	}
}

func TestCSRF(t *testing.T) {
	tc := newConsole(t, nil)
	creds := url.Values{"email": {janeEmail}, "password": {janePassword}}
	for _, tt := range []struct {
		name   string
		token  string
		header map[string]string
	}{
		{"no token", "", nil},
		{"wrong token", "forged", nil},
		{"cross-site", "", map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"cross-site with the cookie's token", "page", map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"same-site without a token", "", map[string]string{"Sec-Fetch-Site": "same-site"}},
	} {
		b := tc.browser()
		form := url.Values{"email": creds["email"], "password": creds["password"]}
		page := b.csrf(console.SignInPath)
		switch tt.token {
		case "page":
			form.Set("_csrf", page)
		case "":
		default:
			form.Set("_csrf", tt.token)
		}
		before := b.cookie(sessionCookie)
		res := b.do(http.MethodPost, console.SignInPath, form, tt.header)
		if res.status != http.StatusForbidden || b.cookie(sessionCookie) != before || b.get(console.Path).status != http.StatusSeeOther {
			t.Errorf("%s: sign-in %d, want 403 and no session", tt.name, res.status)
		}
	}

	// A same-origin browser request passes on Sec-Fetch-Site alone.
	b := tc.browser()
	res := b.do(http.MethodPost, console.SignInPath, creds, map[string]string{"Sec-Fetch-Site": "same-origin"})
	if res.status != http.StatusSeeOther {
		t.Fatalf("same-origin sign-in: %d", res.status)
	}
	// Signed in, a post without the token is refused and changes nothing.
	if res := b.do(http.MethodPost, console.Path+"/sign-out", url.Values{}, nil); res.status != http.StatusForbidden {
		t.Errorf("sign-out without a token: %d, want 403", res.status)
	}
	if res := b.do(http.MethodPost, console.Path+"/sign-out", url.Values{}, map[string]string{"Sec-Fetch-Site": "cross-site"}); res.status != http.StatusForbidden {
		t.Errorf("cross-site sign-out: %d, want 403", res.status)
	}
	if res := b.get(console.Path); res.status != http.StatusOK {
		t.Errorf("home after refused sign-outs: %d, want still signed in", res.status)
	}
}

func TestSignInRateLimited(t *testing.T) {
	tc := newConsole(t, func(c *console.Config) { c.AccountLimit, c.AddressLimit = 3, 6 })
	b := tc.browser()
	for i := range 3 {
		if res := b.signIn(janeEmail, "wrong password"); res.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, res.status)
		}
	}
	// Over the account's budget even the right password is refused, and
	// said so.
	res := b.signIn(janeEmail, janePassword)
	if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" || !strings.Contains(res.body, "Too many attempts") {
		t.Fatalf("fourth attempt: %d, Retry-After %q: %q", res.status, res.header.Get("Retry-After"), res.body)
	}
	// Other addresses count against the client's own budget: 4 made, 2 left.
	for i, email := range []string{"a@example.com", "b@example.com"} {
		if res := b.signIn(email, "x"); res.status != http.StatusUnauthorized {
			t.Errorf("attempt %d for another account: %d", i+5, res.status)
		}
	}
	if res := b.signIn("c@example.com", "x"); res.status != http.StatusTooManyRequests {
		t.Errorf("attempt beyond the address's budget: %d, want 429", res.status)
	}
}

// countingSessions counts the saves of sessions.
type countingSessions struct {
	*sqldb.Sessions
	commits atomic.Int64
}

func (c *countingSessions) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	c.commits.Add(1)
	return c.Sessions.CommitCtx(ctx, token, b, expiry)
}

func TestStaticAssetsWriteNoSession(t *testing.T) {
	var store *countingSessions
	tc := newConsole(t, func(c *console.Config) {
		store = &countingSessions{Sessions: c.Sessions.(*sqldb.Sessions)}
		c.Sessions = store
	})
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	before := store.commits.Load()
	if before == 0 {
		t.Fatal("signing in saved no session")
	}
	res := b.get(console.Path + "/static/hubform.css")
	if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), "text/css") {
		t.Fatalf("stylesheet: %d %q", res.status, res.header.Get("Content-Type"))
	}
	if n := store.commits.Load(); n != before {
		t.Errorf("fetching the stylesheet saved the session %d times", n-before)
	}
	// A page does save it: the idle timeout starts again.
	b.get(console.Path)
	if n := store.commits.Load(); n != before+1 {
		t.Errorf("a page saved the session %d times, want once", n-before)
	}
}
