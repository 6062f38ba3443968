package console_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

var signupLink = regexp.MustCompile(regexp.QuoteMeta(publicURL) + `(/console/signup/[A-Za-z0-9_-]{43})`)

// TestOpenSignup signs up on a hub open to it, through a real SMTP server:
// the same answer for an address that has an account, whose owner gets no
// mail; the link creates the account and a workspace of theirs, once.
func TestOpenSignup(t *testing.T) {
	tc, mail := mailConsole(t, func(cfg *console.Config) { cfg.Signup = console.SignupOpen })
	if page := tc.browser().get(console.SignInPath); !strings.Contains(page.body, "No account yet? Sign up") {
		t.Error("the sign-in page of an open hub offers no sign-up")
	}
	anon := tc.browser()
	ask := func(email string) response {
		t.Helper()
		return anon.do(http.MethodPost, console.Path+"/signup", url.Values{"_csrf": {anon.csrf(console.Path + "/signup")}, "email": {email}}, nil)
	}
	mine, taken := ask("cy@example.com"), ask(janeEmail)
	if mine.status != http.StatusOK || strings.ReplaceAll(mine.body, "cy@example.com", "X") != strings.ReplaceAll(taken.body, janeEmail, "X") {
		t.Errorf("the answers for a new address and a user's differ:\n%s\n%s", mine.body, taken.body)
	}
	text := mailText(t, mail)
	time.Sleep(100 * time.Millisecond) // time for a wrong second message to arrive
	if msgs := mail.Messages(t); len(msgs) != 1 || msgs[0].To[0].Address != "cy@example.com" {
		t.Fatalf("mail sent: %+v; want one message, to cy", msgs)
	}
	m := signupLink.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no link in the e-mail: %q", text)
	}
	cy := tc.browser()
	token := cy.csrf(m[1])
	post := func(workspace string) response {
		return cy.do(http.MethodPost, m[1], url.Values{"_csrf": {token}, "workspace": {workspace}, "password": {"cy's long password"}, "confirm": {"cy's long password"}}, nil)
	}
	if res := post(accounts.DefaultWorkspace); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "is taken") {
		t.Errorf("signing up into a taken workspace name: %d", res.status)
	}
	if res := post("cys-shop"); res.status != http.StatusSeeOther {
		t.Fatalf("signing up: %d %s", res.status, res.body)
	}
	if home := cy.get(console.Path); !strings.Contains(home.body, "Forms of workspace cys-shop") || !strings.Contains(home.body, "admin of this workspace") {
		t.Errorf("cy's home page: %s", home.body)
	}
	if res := tc.browser().get(m[1]); res.status != http.StatusNotFound {
		t.Errorf("the link used again: %d, want 404", res.status)
	}
	if events, _ := tc.db.Events(context.Background(), "cys-shop", "", 0); len(events) < 2 || events[len(events)-1].Action != accounts.ActionSignedUp {
		t.Errorf("the new workspace's audit log: %+v", events)
	}
	// Requests for one address are limited.
	for range console.DefaultAccountLimit - 1 {
		ask("eve@example.com")
	}
	if res := ask("eve@example.com"); res.status != http.StatusOK {
		t.Errorf("request %d for one address: %d, want 200", console.DefaultAccountLimit, res.status)
	}
	if res := ask("eve@example.com"); res.status != http.StatusTooManyRequests {
		t.Errorf("request %d for one address: %d, want 429", console.DefaultAccountLimit+1, res.status)
	}
}

// TestSignupModes checks what each mode refuses: sign-ups unless open,
// and invitations too when closed.
func TestSignupModes(t *testing.T) {
	for _, mode := range []console.Signup{console.SignupInvite, console.SignupClosed} {
		tc := newConsole(t, func(cfg *console.Config) { cfg.Signup = mode })
		b := tc.browser()
		if res := b.get(console.Path + "/signup"); res.status != http.StatusNotFound {
			t.Errorf("%s: the sign-up page: %d, want 404", mode, res.status)
		}
		if page := b.get(console.SignInPath); strings.Contains(page.body, "Sign up") {
			t.Errorf("%s: the sign-in page offers a sign-up", mode)
		}
		b.signIn(janeEmail, janePassword)
		members := b.get(console.Path + "/members")
		res := b.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {b.csrf(console.Path + "/members")}, "email": {"cy@example.com"}, "role": {"viewer"}}, nil)
		switch mode {
		case console.SignupClosed:
			if res.status != http.StatusForbidden || strings.Contains(members.body, "Invite someone") {
				t.Errorf("closed: inviting answers %d, and the members page offers it: %v", res.status, strings.Contains(members.body, "Invite someone"))
			}
		default:
			if res.status != http.StatusOK || !strings.Contains(members.body, "Invite someone") {
				t.Errorf("invite: inviting answers %d", res.status)
			}
		}
	}
	if _, err := console.ParseSignup("anyone"); err == nil {
		t.Error("ParseSignup took an unknown mode")
	}
}
