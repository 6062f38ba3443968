package console_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

const publicURL = "https://hub.example"

var inviteLink = regexp.MustCompile(regexp.QuoteMeta(publicURL) + `(/console/invitations/[A-Za-z0-9_-]{43})`)

// TestInvitationByEmail has an admin invite an address through a real SMTP
// server: the e-mail's link lets the invitee choose a password and join
// with the role, signed in, once; the admin then changes their role and
// removes them, but never the last admin.
func TestInvitationByEmail(t *testing.T) {
	tc, mail := mailConsole(t, nil)
	admin := tc.browser()
	admin.signIn(janeEmail, janePassword)
	token := admin.csrf(console.Path + "/members")
	res := admin.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {token}, "email": {"Cy@Example.com"}, "role": {"editor"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("invite: %d %s", res.status, res.body)
	}
	if page := admin.get(console.Path + "/members"); !strings.Contains(page.body, "An invitation was sent to cy@example.com.") {
		t.Errorf("the members page after inviting: %s", page.body)
	}
	msgs := mail.Messages(t)
	if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0].Address != "cy@example.com" || !strings.Contains(msgs[0].Subject, "jane@example.com invites you") {
		t.Fatalf("mail sent: %+v", msgs)
	}
	m := inviteLink.FindStringSubmatch(mail.Message(t, msgs[0].ID).Text)
	if m == nil {
		t.Fatalf("no link in the e-mail: %q", mail.Message(t, msgs[0].ID).Text)
	}
	link := m[1]

	cy := tc.browser()
	page := cy.get(link)
	if page.status != http.StatusOK || !strings.Contains(page.body, "Join the workspace default") || !strings.Contains(page.body, `name="confirm"`) || !strings.Contains(page.body, `name="tz"`) {
		t.Fatalf("the invitation's page: %d %s", page.status, page.body)
	}
	cyToken := cy.csrf(link)
	for _, bad := range []url.Values{{"password": {"short"}, "confirm": {"short"}}, {"password": {"long enough one"}, "confirm": {"another long one"}}} {
		bad.Set("_csrf", cyToken)
		if res := cy.do(http.MethodPost, link, bad, nil); res.status != http.StatusUnprocessableEntity {
			t.Errorf("accepting with %v: %d, want 422", bad, res.status)
		}
	}
	if res := cy.do(http.MethodPost, link, url.Values{"_csrf": {cyToken}, "password": {"cy's long password"}, "confirm": {"cy's long password"}, "tz": {"America/New_York"}}, nil); res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Fatalf("accepting: %d %v", res.status, res.header)
	}
	if account := cy.get(console.Path + "/account"); !strings.Contains(account.body, `value="America/New_York"`) {
		t.Errorf("the time zone of the browser that accepted is not kept: %s", account.body)
	}
	if home := cy.get(console.Path); !strings.Contains(home.body, "Forms of workspace default") || !strings.Contains(home.body, "editor of this workspace") {
		t.Errorf("cy's home page: %s", home.body)
	}
	if again := tc.browser().get(link); again.status != http.StatusNotFound || !strings.Contains(again.body, "not valid") {
		t.Errorf("the link used again: %d %s", again.status, again.body)
	}
	if res := cy.get(console.Path + "/members"); res.status != http.StatusForbidden {
		t.Errorf("the members page for an editor: %d, want 403", res.status)
	}

	// Roles change; the last admin stays.
	post := func(path string, form url.Values) response {
		t.Helper()
		form.Set("_csrf", token)
		return admin.do(http.MethodPost, console.Path+path, form, nil)
	}
	if res := post("/members", url.Values{"email": {"cy@example.com"}, "role": {"viewer"}}); res.status != http.StatusSeeOther {
		t.Errorf("making cy a viewer: %d %s", res.status, res.body)
	}
	if ms, _ := tc.db.Memberships(context.Background(), "cy@example.com"); len(ms) != 1 || ms[0].Role != accounts.Viewer {
		t.Errorf("cy's memberships: %+v", ms)
	}
	if res := post("/members", url.Values{"email": {janeEmail}, "role": {"viewer"}}); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "last admin") {
		t.Errorf("demoting the last admin: %d", res.status)
	}
	if res := post("/members", url.Values{"email": {"nobody@example.com"}, "role": {"viewer"}}); res.status != http.StatusNotFound {
		t.Errorf("the role of a non-member: %d, want 404", res.status)
	}
	if res := post("/members/remove", url.Values{"email": {"cy@example.com"}}); res.status != http.StatusOK || !strings.Contains(res.body, "Remove cy@example.com from workspace default?") {
		t.Errorf("removing cy unconfirmed: %d, want the question", res.status)
	}
	if res := post("/members/remove", url.Values{"email": {"cy@example.com"}, "confirmed": {"1"}}); res.status != http.StatusSeeOther {
		t.Errorf("removing cy: %d", res.status)
	}
	if home := cy.get(console.Path); !strings.Contains(home.body, "You are in no workspace yet") {
		t.Errorf("cy's home page once removed: %s", home.body)
	}
	events, _ := tc.db.Events(context.Background(), accounts.DefaultWorkspace, "", 0)
	var actions []string
	for _, e := range events {
		actions = append(actions, e.Action)
	}
	for _, want := range []string{accounts.ActionMemberInvited, accounts.ActionInvitationAccepted, accounts.ActionMemberSet, accounts.ActionMemberRemoved} {
		if !strings.Contains(strings.Join(actions, ","), want) {
			t.Errorf("the audit log lacks %q: %q", want, actions)
		}
	}
}

// TestInvitationWithoutEmail shows the link to copy when the hub sends no
// e-mail; an existing user joins through it signed in as themselves, and
// anyone else is asked to sign in as them.
func TestInvitationWithoutEmail(t *testing.T) {
	tc := newConsole(t, func(cfg *console.Config) { cfg.PublicURL = publicURL })
	admin := tc.browser()
	admin.signIn(janeEmail, janePassword)
	token := admin.csrf(console.Path + "/members")
	res := admin.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {token}, "email": {janeEmail}, "role": {"admin"}}, nil)
	m := inviteLink.FindStringSubmatch(res.body)
	if res.status != http.StatusOK || m == nil || !strings.Contains(res.body, "copy this link") {
		t.Fatalf("invite without e-mail: %d %s", res.status, res.body)
	}
	if res := admin.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {token}, "email": {"not an address"}, "role": {"admin"}}, nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("inviting a bad address: %d, want 422", res.status)
	}
	// Invitations of one address are limited.
	for i := range console.DefaultAccountLimit + 1 {
		res := admin.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {token}, "email": {"zed@example.com"}, "role": {"viewer"}}, nil)
		if want := map[bool]int{true: http.StatusOK, false: http.StatusTooManyRequests}[i < console.DefaultAccountLimit]; res.status != want {
			t.Fatalf("invitation %d of one address: %d, want %d", i+1, res.status, want)
		}
	}
	other := tc.browser()
	page := other.get(m[1])
	if page.status != http.StatusOK || strings.Contains(page.body, `name="password"`) {
		t.Fatalf("the invitation of an existing user asks for a password: %d %s", page.status, page.body)
	}
	if !strings.Contains(page.body, "Sign in as jane@example.com, then open this link again.") {
		t.Errorf("the invitation of an existing user, not signed in: %s", page.body)
	}
	if res := other.do(http.MethodPost, m[1], url.Values{"_csrf": {other.csrf(m[1])}}, nil); res.status != http.StatusForbidden {
		t.Errorf("accepting an existing user's invitation not signed in: %d, want 403", res.status)
	}
	if page := admin.get(m[1]); !strings.Contains(page.body, "You are signed in as jane@example.com") || !strings.Contains(page.body, ">Join</button>") {
		t.Errorf("the invitation of the user signed in: %s", page.body)
	}
	if res := admin.do(http.MethodPost, m[1], url.Values{"_csrf": {token}}, nil); res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Errorf("the existing user accepting, signed in: %d %v, want 303 to the console", res.status, res.header)
	}
}
