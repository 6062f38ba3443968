package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// TestCSRFTokenNotTakenFromTheQuery posts, in a signed-in browser, with the
// session's own token in the query string alone, as a link or a page of
// another site could: refused, since a token in a URL ends in logs and
// Referer headers. In the header a script sends, the same token passes.
func TestCSRFTokenNotTakenFromTheQuery(t *testing.T) {
	onEachStore(t, csrfTokenNotTakenFromTheQuery)
}

func csrfTokenNotTakenFromTheQuery(t *testing.T, db *sqldb.DB) {
	tc := newConsoleOn(t, db, nil)
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	token := b.csrf(console.Path)
	res := b.do(http.MethodPost, console.Path+"/sign-out?_csrf="+url.QueryEscape(token), url.Values{}, nil)
	if res.status != http.StatusForbidden {
		t.Errorf("sign-out with the token in the query: %d, want 403", res.status)
	}
	res = b.do(http.MethodPost, console.Path+"/account/time-zone?_csrf="+url.QueryEscape(token), url.Values{"tz": {"Europe/Paris"}}, nil)
	if res.status != http.StatusForbidden {
		t.Errorf("a form posted with the token in the query: %d, want 403", res.status)
	}
	if res := b.get(console.Path); res.status != http.StatusOK {
		t.Fatalf("home after the refused posts: %d, want still signed in", res.status)
	}
	res = b.do(http.MethodPost, console.Path+"/sign-out", url.Values{}, map[string]string{"X-CSRF-Token": token})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Errorf("sign-out with the token in the header: %d to %q, want 303 to the sign-in page", res.status, res.header.Get("Location"))
	}
}

// TestCSRFTokenBoundToTheSession posts in a signed-in victim's session with
// what an attacker has: the token of their own session, with or without
// its cookie, a cookie and field pair of their choosing planted in the
// victim's browser (from a sibling subdomain, or over plain HTTP), and the
// token the victim's sign-in page carried before they signed in. Each is
// refused; the victim's own token passes.
func TestCSRFTokenBoundToTheSession(t *testing.T) {
	onEachStore(t, csrfTokenBoundToTheSession)
}

func csrfTokenBoundToTheSession(t *testing.T, db *sqldb.DB) {
	tc := newConsoleOn(t, db, nil)
	victim := tc.browser()
	before := victim.csrf(console.SignInPath)
	if res := victim.do(http.MethodPost, console.SignInPath, url.Values{"email": {janeEmail}, "password": {janePassword}, "_csrf": {before}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	session := victim.cookie(sessionCookie)

	attacker := tc.browser()
	if res := attacker.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("the attacker's sign-in: %d", res.status)
	}
	theirs := attacker.csrf(console.Path)

	// post signs the victim out with token, their session's cookie and
	// the cookies planted beside it.
	post := func(token string, planted ...*http.Cookie) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, tc.srv.URL+console.Path+"/sign-out", strings.NewReader(url.Values{"_csrf": {token}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range planted {
			req.AddCookie(c)
		}
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: session})
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tt := range []struct {
		name    string
		token   string
		planted []*http.Cookie
	}{
		{"the attacker's token", theirs, nil},
		{"the attacker's token and its cookie", theirs, []*http.Cookie{{Name: "hubform_csrf", Value: theirs}}},
		{"a planted cookie and field pair", "planted-token", []*http.Cookie{{Name: "hubform_csrf", Value: "planted-token"}, {Name: "_csrf", Value: "planted-token"}}},
		{"the token of the page before signing in", before, []*http.Cookie{{Name: "hubform_csrf", Value: before}}},
	} {
		if status := post(tt.token, tt.planted...); status != http.StatusForbidden {
			t.Errorf("%s: sign-out %d, want 403", tt.name, status)
		}
	}
	if res := victim.get(console.Path); res.status != http.StatusOK {
		t.Fatalf("the victim's home after the forged posts: %d, want still signed in", res.status)
	}
	if status := post(victim.csrf(console.Path)); status != http.StatusSeeOther {
		t.Errorf("sign-out with the victim's own token: %d, want 303", status)
	}
}

// TestCSRFCookieHostPrefixOverHTTPS checks the cookies of a console served
// over HTTPS: each is named __Host-, so that browsers take it only from
// the hub itself, Secure, for Path=/ and without Domain, and none can be
// planted from a sibling subdomain or over plain HTTP. The session works
// with it.
func TestCSRFCookieHostPrefixOverHTTPS(t *testing.T) {
	tc := newConsole(t, func(c *console.Config) { c.Secure = true })
	b := tc.browser()
	check := func(what string, res response) {
		t.Helper()
		lines := res.header.Values("Set-Cookie")
		if len(lines) == 0 {
			t.Errorf("%s: no cookie set", what)
		}
		for _, line := range lines {
			c, err := http.ParseSetCookie(line)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != console.SecureSessionCookie || !strings.HasPrefix(c.Name, "__Host-") || !c.Secure || c.Path != "/" || c.Domain != "" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("%s: cookie %q, want __Host-, Secure, Path=/, no Domain, HttpOnly, SameSite=Lax", what, line)
			}
		}
	}
	page := b.get(console.SignInPath)
	check("the sign-in page", page)
	m := csrfInput.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("no CSRF token on the sign-in page: %q", page.body)
	}
	res := b.do(http.MethodPost, console.SignInPath, url.Values{"email": {janeEmail}, "password": {janePassword}, "_csrf": {m[1]}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("sign-in over HTTPS: %d %q", res.status, res.body)
	}
	check("signing in", res)
	if res := b.get(console.Path); res.status != http.StatusOK {
		t.Errorf("home over HTTPS: %d, want signed in", res.status)
	}
}
