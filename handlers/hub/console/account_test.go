package console_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

var resetLink = regexp.MustCompile(regexp.QuoteMeta(publicURL) + `(/console/reset/[A-Za-z0-9_-]{43})`)

// isSignedIn reports whether the browser's session is open.
func isSignedIn(b *browser) bool { return b.get(console.Path).status == http.StatusOK }

// TestPasswordResetByEmail asks for a reset link through a real SMTP
// server: the answer is the same for an address no user has, the link
// sets a new password once, ends every session and signs in afresh.
func TestPasswordResetByEmail(t *testing.T) {
	tc, mail := mailConsole(t, nil)
	a, b := tc.browser(), tc.browser()
	a.signIn(janeEmail, janePassword)
	b.signIn(janeEmail, janePassword)

	anon := tc.browser()
	ask := func(email string) response {
		t.Helper()
		return anon.do(http.MethodPost, console.Path+"/reset", url.Values{"_csrf": {anon.csrf(console.Path + "/reset")}, "email": {email}}, nil)
	}
	known, unknown := ask(janeEmail), ask("nobody@example.com")
	if known.status != http.StatusOK || !strings.Contains(known.body, "If a user has this address") ||
		strings.ReplaceAll(known.body, janeEmail, "X") != strings.ReplaceAll(unknown.body, "nobody@example.com", "X") {
		t.Errorf("the answers for a user's address and another differ:\n%s\n%s", known.body, unknown.body)
	}
	text := mailText(t, mail)
	if msgs := mail.Messages(t); len(msgs) != 1 || msgs[0].To[0].Address != janeEmail {
		t.Fatalf("mail sent: %+v; want one message, to Jane", msgs)
	}
	m := resetLink.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no reset link in the e-mail: %q", text)
	}
	link := m[1]
	c := tc.browser()
	if page := c.get(link); page.status != http.StatusOK || !strings.Contains(page.body, "Choose a new password for jane@example.com") {
		t.Fatalf("the reset page: %d %s", page.status, page.body)
	}
	token := c.csrf(link)
	if res := c.do(http.MethodPost, link, url.Values{"_csrf": {token}, "password": {"a new long password"}, "confirm": {"another long password"}}, nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("different passwords: %d, want 422", res.status)
	}
	if res := c.do(http.MethodPost, link, url.Values{"_csrf": {token}, "password": {"a new long password"}, "confirm": {"a new long password"}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("resetting: %d %s", res.status, res.body)
	}
	if !isSignedIn(c) || isSignedIn(a) || isSignedIn(b) {
		t.Errorf("after the reset: signed in there %v, in the two sessions before %v %v; want true, false, false", isSignedIn(c), isSignedIn(a), isSignedIn(b))
	}
	if res := tc.browser().get(link); res.status != http.StatusNotFound {
		t.Errorf("the link used again: %d, want 404", res.status)
	}
	if res := tc.browser().signIn(janeEmail, janePassword); res.status != http.StatusUnauthorized {
		t.Errorf("the old password: %d, want 401", res.status)
	}
	if res := tc.browser().signIn(janeEmail, "a new long password"); res.status != http.StatusSeeOther {
		t.Errorf("the new password: %d, want 303", res.status)
	}
	// The requests for one address are limited, whichever client sends them.
	for range console.DefaultAccountLimit - 1 {
		if res := ask(janeEmail); res.status != http.StatusOK {
			t.Fatalf("a request within the limit: %d", res.status)
		}
	}
	if res := ask(janeEmail); res.status != http.StatusTooManyRequests {
		t.Errorf("request %d for one address: %d, want 429", console.DefaultAccountLimit+1, res.status)
	}
}

// TestAccountSessionsAndPassword lists a user's sessions, ends one from
// another, and changes the password, which ends the others.
func TestAccountSessionsAndPassword(t *testing.T) {
	tc := newConsole(t, func(cfg *console.Config) { cfg.PasswordParams = accounts.Params{Memory: 64, Time: 1, Threads: 1} })
	a, b := tc.browser(), tc.browser()
	a.signIn(janeEmail, janePassword)
	b.signIn(janeEmail, janePassword)
	page := a.get(console.Path + "/account")
	ids := regexp.MustCompile(`data-session="([^"]+)"`).FindAllStringSubmatch(page.body, -1)
	if page.status != http.StatusOK || len(ids) != 2 || strings.Count(page.body, "this session") != 1 {
		t.Fatalf("the account page: %d, %d sessions\n%s", page.status, len(ids), page.body)
	}
	other := ids[0][1]
	if strings.Contains(page.body, `value="`+ids[1][1]+`"`) {
		other = ids[1][1]
	}
	token := a.csrf(console.Path + "/account")
	if res := a.do(http.MethodPost, console.Path+"/account/sessions", url.Values{"_csrf": {token}, "id": {other}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("ending the other session: %d", res.status)
	}
	if isSignedIn(b) || !isSignedIn(a) {
		t.Errorf("after ending b's session from a: a %v, b %v", isSignedIn(a), isSignedIn(b))
	}

	b.signIn(janeEmail, janePassword)
	change := func(current string) response {
		return a.do(http.MethodPost, console.Path+"/account/password", url.Values{"_csrf": {token}, "current": {current},
			"password": {"a new long password"}, "confirm": {"a new long password"}}, nil)
	}
	if res := change("wrong password"); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "current password is wrong") {
		t.Errorf("a wrong current password: %d", res.status)
	}
	if !isSignedIn(b) {
		t.Error("a refused change ended the other session")
	}
	if res := change(janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("changing the password: %d %s", res.status, res.body)
	}
	if !isSignedIn(a) || isSignedIn(b) {
		t.Errorf("after a new password: this session %v, the other %v; want true, false", isSignedIn(a), isSignedIn(b))
	}
	if res := tc.browser().signIn(janeEmail, "a new long password"); res.status != http.StatusSeeOther {
		t.Errorf("the new password: %d", res.status)
	}
	// Signing out ends the session's record too.
	if n := len(regexp.MustCompile(`data-session=`).FindAllString(a.get(console.Path+"/account").body, -1)); n != 2 {
		t.Errorf("%d sessions listed, want this one and the new sign-in's", n)
	}
}
