package console_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// fakeMailer keeps what it sends, or, while down, refuses to send, as an
// unreachable SMTP server does.
type fakeMailer struct {
	mu   sync.Mutex
	down bool
	sent []sentMail
}

type sentMail struct{ to, text string }

func (f *fakeMailer) Send(_ context.Context, m *gomail.Msg) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("connection refused")
	}
	var text strings.Builder
	for _, p := range m.GetParts() {
		b, err := p.GetContent()
		if err != nil {
			return err
		}
		text.Write(b)
	}
	f.sent = append(f.sent, sentMail{to: strings.Join(m.GetToString(), ","), text: text.String()})
	return nil
}

func (f *fakeMailer) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// link waits for the nth e-mail (from 1) to the address and returns the
// first match of re in it, a link's path.
func (f *fakeMailer) link(t *testing.T, to string, nth int, re *regexp.Regexp) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		f.mu.Lock()
		var texts []string
		for _, m := range f.sent {
			if strings.Contains(m.to, to) {
				texts = append(texts, m.text)
			}
		}
		f.mu.Unlock()
		if len(texts) >= nth {
			m := re.FindStringSubmatch(texts[nth-1])
			if m == nil {
				t.Fatalf("no link in the e-mail: %q", texts[nth-1])
			}
			return m[1]
		}
	}
	t.Fatalf("no e-mail %d to %s came", nth, to)
	return ""
}

const (
	ownerOfAAA    = "mallory@x.test"
	ownerOfWSY    = "wendy@y.test"
	newhire       = "newhire@y.test"
	otherPassword = "another long password"
)

// twoWorkspaces serves a console on db, whose hub holds the workspaces aaa
// (Mallory's) and wsy (Wendy's, which owns the site ysite with a form
// whose inbox holds a submission), with an inbox and the forms kept in
// the database, and whose mail goes through mailer when it is set.
func twoWorkspaces(t *testing.T, db *sqldb.DB, mailer *fakeMailer) *testConsole {
	t.Helper()
	tc := newConsoleOn(t, db, func(cfg *console.Config) {
		cfg.PublicURL = publicURL
		cfg.PasswordParams = accounts.Params{Memory: 64, Time: 1, Threads: 1}
		cfg.Inbox = &inbox.Inbox{Forms: formsource.NewStored(db, nil), Store: db, Files: &memFiles{files: map[string][]byte{}}, Logger: cfg.Logger}
		cfg.Store = db
		if mailer != nil {
			cfg.Mailer, cfg.MailFrom = mailer, "hub@example.com"
		}
	})
	ctx := context.Background()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range []struct{ email, ws string }{{ownerOfAAA, "aaa"}, {ownerOfWSY, "wsy"}} {
		at := time.Now().Add(time.Duration(i-10) * time.Hour)
		if err := db.CreateUser(ctx, accounts.User{Email: u.email, PasswordHash: hash, CreatedAt: at, ProvedAt: at}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateWorkspace(ctx, u.ws, u.email, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ClaimSite(ctx, "ysite", "wsy", time.Now()); err != nil {
		t.Fatal(err)
	}
	n, err := db.SaveFormVersion(ctx, "ysite", "contact", []byte(contactV1), "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "ysite", "contact", n, time.Now()); err != nil {
		t.Fatal(err)
	}
	return tc
}

// invite has b, signed in as an admin, invite email to their current
// workspace with role, and returns the link when the page shows it.
func (b *browser) invite(email string, role accounts.Role) (response, string) {
	b.tc.t.Helper()
	res := b.do(http.MethodPost, console.Path+"/invitations", url.Values{"_csrf": {b.csrf(console.Path + "/members")}, "email": {email}, "role": {string(role)}}, nil)
	if m := inviteLink.FindStringSubmatch(res.body); m != nil {
		return res, m[1]
	}
	return res, ""
}

// accept posts the form of the invitation's link, with password when it
// is set.
func (b *browser) accept(link, password string) response {
	b.tc.t.Helper()
	form := url.Values{"_csrf": {b.csrf(link)}}
	if password != "" {
		form.Set("password", password)
		form.Set("confirm", password)
	}
	return b.do(http.MethodPost, link, form, nil)
}

// wsyPages are pages of wsy's data.
var wsyPages = []string{
	console.Path + "/forms/ysite/contact/submissions",
	console.Path + "/forms/ysite/contact/overview",
	console.Path + "/forms/ysite/contact",
	console.Path + "/forms/ysite/contact/settings",
}

// seesNothingOfWSY fails t when b reaches any page of wsy's data, or can
// make wsy its workspace.
func seesNothingOfWSY(t *testing.T, b *browser, who string) {
	t.Helper()
	for _, path := range wsyPages {
		if res := b.get(path); res.status == http.StatusOK || strings.Contains(res.body, "Contact") {
			t.Errorf("%s: GET %s = %d, want no page of wsy", who, path, res.status)
		}
	}
	if home := b.get(console.Path); strings.Contains(home.body, "wsy") || strings.Contains(home.body, "ysite") {
		t.Errorf("%s: the home page names wsy: %s", who, home.body)
	}
	if res := b.do(http.MethodPost, console.Path+"/workspace", url.Values{"_csrf": {b.csrf(console.Path + "/account")}, "workspace": {"wsy"}}, nil); res.status != http.StatusNotFound {
		t.Errorf("%s: switching to wsy: %d, want 404", who, res.status)
	}
}

func memberships(t *testing.T, db *sqldb.DB, email string) []string {
	t.Helper()
	ms, err := db.Memberships(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.Workspace)
	}
	return out
}

// TestInvitationLinkCannotTakeOverAnAccount plays the attack: on a hub
// without e-mail, an admin of aaa invites an address nobody has yet,
// opens the shown link and sets its password; wsy then invites the same
// address. A shown link of wsy grants nothing to an account whose address
// nobody proved, so the attacker, signed in as it, gets no page of wsy;
// a mailed one proves the address, and whoever opens it sets a new
// password and takes the account: the attacker's session ends and the
// old password no longer works.
func TestInvitationLinkCannotTakeOverAnAccount(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		mailer := &fakeMailer{down: true}
		tc := twoWorkspaces(t, db, mailer)
		mallory, wendy := tc.browser(), tc.browser()
		mallory.signIn(ownerOfAAA, janePassword)
		wendy.signIn(ownerOfWSY, janePassword)

		// Mallory's invitation is shown (the mail could not be sent); she
		// opens it herself and chooses the password.
		res, link := mallory.invite(newhire, accounts.Editor)
		if link == "" {
			t.Fatalf("Mallory's invitation shows no link: %d %s", res.status, res.body)
		}
		attacker := tc.browser()
		if res := attacker.accept(link, janePassword); res.status != http.StatusSeeOther {
			t.Fatalf("the attacker accepting aaa's link: %d %s", res.status, res.body)
		}
		if ms := memberships(t, db, newhire); len(ms) != 1 || ms[0] != "aaa" {
			t.Fatalf("the new account's workspaces: %v, want aaa", ms)
		}

		// wsy's shown link grants nothing: not to the real owner, not
		// signed in as the account.
		res, wsyLink := wendy.invite(newhire, accounts.Viewer)
		if wsyLink == "" {
			t.Fatalf("Wendy's invitation shows no link: %d %s", res.status, res.body)
		}
		owner := tc.browser()
		page := owner.get(wsyLink)
		if page.status != http.StatusOK || !strings.Contains(page.body, "grants nothing") || strings.Contains(page.body, ">Join</button>") {
			t.Errorf("the shown link of wsy to an unproved address: %d %s", page.status, page.body)
		}
		if res := owner.accept(wsyLink, ""); res.status != http.StatusForbidden {
			t.Errorf("the owner accepting wsy's shown link: %d, want 403", res.status)
		}
		if res := attacker.accept(wsyLink, ""); res.status != http.StatusForbidden {
			t.Errorf("the attacker, signed in as the account, accepting wsy's shown link: %d, want 403", res.status)
		}
		if ms := memberships(t, db, newhire); len(ms) != 1 || ms[0] != "aaa" {
			t.Errorf("the account's workspaces after wsy's shown link: %v, want aaa alone", ms)
		}
		again := tc.browser()
		if res := again.signIn(newhire, janePassword); res.status != http.StatusSeeOther {
			t.Fatalf("the attacker signing in: %d", res.status)
		}
		seesNothingOfWSY(t, again, "the attacker")

		// wsy's mailed link proves the address: the owner sets a new
		// password and takes the account.
		mailer.setDown(false)
		if res, shown := wendy.invite(newhire, accounts.Viewer); res.status != http.StatusSeeOther || shown != "" {
			t.Fatalf("Wendy's mailed invitation: %d, link shown %q", res.status, shown)
		}
		mailed := mailer.link(t, newhire, 1, inviteLink)
		if page := owner.get(mailed); !strings.Contains(page.body, "It replaces the account's password") || !strings.Contains(page.body, `name="password"`) {
			t.Errorf("the mailed link's page: %d %s", page.status, page.body)
		}
		if res := owner.accept(mailed, ""); res.status != http.StatusUnprocessableEntity {
			t.Errorf("the mailed link without a new password: %d, want 422", res.status)
		}
		if res := owner.accept(mailed, otherPassword); res.status != http.StatusSeeOther {
			t.Fatalf("the owner accepting the mailed link: %d %s", res.status, res.body)
		}
		if isSignedIn(again) || isSignedIn(attacker) {
			t.Error("the attacker's sessions outlive the owner's proof")
		}
		if res := tc.browser().signIn(newhire, janePassword); res.status != http.StatusUnauthorized {
			t.Errorf("the attacker's password after the owner's proof: %d, want 401", res.status)
		}
		if res := owner.get(wsyPages[0]); res.status != http.StatusOK {
			t.Errorf("the owner's inbox of wsy: %d", res.status)
		}
		if u, _ := db.User(context.Background(), newhire); !u.Proved() {
			t.Error("the address is not proved after the mailed link")
		}
	})
}

// TestInvitationCannotBeAcceptedOnSomeonesBehalf has an admin of aaa
// invite a user of wsy and accept the shown link for them, not signed in
// and signed in as himself: the victim joins nothing. Added to aaa anyway
// (as the operator may), the victim's next sign-in still opens on wsy,
// the workspace they joined first, and a site they create is wsy's.
func TestInvitationCannotBeAcceptedOnSomeonesBehalf(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		tc := twoWorkspaces(t, db, nil)
		mallory := tc.browser()
		mallory.signIn(ownerOfAAA, janePassword)
		res, link := mallory.invite(ownerOfWSY, accounts.Admin)
		if link == "" {
			t.Fatalf("the invitation shows no link: %d %s", res.status, res.body)
		}
		anon := tc.browser()
		if page := anon.get(link); !strings.Contains(page.body, "Sign in as "+ownerOfWSY+", then open this link again.") || strings.Contains(page.body, ">Join</button>") {
			t.Errorf("the invitation of an existing user, not signed in: %s", page.body)
		}
		if res := anon.accept(link, ""); res.status != http.StatusForbidden {
			t.Errorf("accepting not signed in: %d, want 403", res.status)
		}
		if page := mallory.get(link); !strings.Contains(page.body, "You are signed in as "+ownerOfAAA) {
			t.Errorf("the invitation of another user, signed in as the inviter: %s", page.body)
		}
		if res := mallory.accept(link, ""); res.status != http.StatusForbidden {
			t.Errorf("accepting signed in as the inviter: %d, want 403", res.status)
		}
		if ms := memberships(t, db, ownerOfWSY); len(ms) != 1 || ms[0] != "wsy" {
			t.Fatalf("the victim's workspaces: %v, want wsy alone", ms)
		}

		// Added to aaa, which comes first by name, the victim still works
		// in wsy.
		if err := db.SetMember(context.Background(), accounts.Member{Workspace: "aaa", Email: ownerOfWSY, Role: accounts.Admin, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		victim := tc.browser()
		victim.signIn(ownerOfWSY, janePassword)
		if home := victim.get(console.Path); !strings.Contains(home.body, "Forms of workspace wsy") {
			t.Errorf("the victim's home page opens elsewhere than wsy: %s", home.body)
		}
		form := url.Values{"_csrf": {victim.csrf(console.Path + "/sites")}, "site": {"newsite"}, "slug": {"hello"}, "title": {"Hello"}}
		if res := victim.do(http.MethodPost, console.Path+"/sites", form, nil); res.status != http.StatusSeeOther {
			t.Fatalf("creating a form: %d %s", res.status, res.body)
		}
		if ws, err := db.SiteWorkspace(context.Background(), "newsite"); err != nil || ws != "wsy" {
			t.Errorf("the victim's new site belongs to %q, %v; want wsy", ws, err)
		}
	})
}

// TestResetLinksDoNotOutliveTheirUse asks for reset links and checks that
// each of a reset, a change of password and a sign-in by single sign-on
// leaves none of the others working.
func TestResetLinksDoNotOutliveTheirUse(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		provider := startOIDC(t)
		oidc, err := console.NewOIDC(context.Background(), provider.Issuer(), provider.ClientID, provider.ClientSecret, publicURL)
		if err != nil {
			t.Fatal(err)
		}
		mailer := &fakeMailer{}
		tc := newConsoleOn(t, db, func(cfg *console.Config) {
			cfg.PublicURL, cfg.OIDC, cfg.Mailer, cfg.MailFrom = publicURL, oidc, mailer, "hub@example.com"
			cfg.PasswordParams = accounts.Params{Memory: 64, Time: 1, Threads: 1}
		})
		asked := 0
		ask := func() string {
			t.Helper()
			anon := tc.browser()
			if res := anon.do(http.MethodPost, console.Path+"/reset", url.Values{"_csrf": {anon.csrf(console.Path + "/reset")}, "email": {janeEmail}}, nil); res.status != http.StatusOK {
				t.Fatalf("asking for a reset: %d", res.status)
			}
			asked++
			return mailer.link(t, janeEmail, asked, resetLink)
		}
		refused := func(link, after string) {
			t.Helper()
			b := tc.browser()
			if page := b.get(link); page.status != http.StatusNotFound {
				t.Errorf("a reset link after %s: %d, want 404", after, page.status)
			}
		}
		use := func(link, password string) {
			t.Helper()
			b := tc.browser()
			if res := b.do(http.MethodPost, link, url.Values{"_csrf": {b.csrf(link)}, "password": {password}, "confirm": {password}}, nil); res.status != http.StatusSeeOther {
				t.Fatalf("using a reset link: %d %s", res.status, res.body)
			}
		}

		// Two pending, one used: the other is refused.
		first, second := ask(), ask()
		use(first, otherPassword)
		refused(second, "another was used")

		// A change of password.
		pending := ask()
		jane := tc.browser()
		jane.signIn(janeEmail, otherPassword)
		form := url.Values{"_csrf": {jane.csrf(console.Path + "/account")}, "current": {otherPassword}, "password": {janePassword}, "confirm": {janePassword}}
		if res := jane.do(http.MethodPost, console.Path+"/account/password", form, nil); res.status != http.StatusSeeOther {
			t.Fatalf("changing the password: %d %s", res.status, res.body)
		}
		refused(pending, "a change of password")

		// A sign-in by single sign-on.
		pending = ask()
		provider.QueueUser(&mockoidc.MockUser{Subject: "1", Email: janeEmail, EmailVerified: true})
		if res := ssoSignIn(t, tc.browser()); res.status != http.StatusSeeOther {
			t.Fatalf("single sign-on: %d %s", res.status, res.body)
		}
		refused(pending, "a sign-in by single sign-on")
	})
}

// TestInvitationDemotingTheLastAdminIsRefused checks that an invitation
// that would take a workspace's last admin their role is refused with a
// message: when it is made, and when it is accepted after the other admin
// left.
func TestInvitationDemotingTheLastAdminIsRefused(t *testing.T) {
	tc := newConsole(t, func(cfg *console.Config) { cfg.PublicURL = publicURL })
	jane := tc.browser()
	jane.signIn(janeEmail, janePassword)
	if res, link := jane.invite(janeEmail, accounts.Viewer); res.status != http.StatusUnprocessableEntity || link != "" || !strings.Contains(res.body, "last admin") {
		t.Errorf("inviting the last admin as a viewer: %d, link %q", res.status, link)
	}

	// Made while another admin was there, accepted once alone.
	hash, _ := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	ctx := context.Background()
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "bob@example.com", PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "bob@example.com", Role: accounts.Admin, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	bob := tc.browser()
	bob.signIn("bob@example.com", janePassword)
	res, link := bob.invite(janeEmail, accounts.Viewer)
	if link == "" {
		t.Fatalf("bob's invitation: %d %s", res.status, res.body)
	}
	if err := tc.db.RemoveMember(ctx, accounts.DefaultWorkspace, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	res = jane.accept(link, "")
	if res.status != http.StatusConflict || !strings.Contains(res.body, "last admin of workspace default") {
		t.Errorf("accepting an invitation that demotes the last admin: %d %s, want 409 with the reason", res.status, res.body)
	}
	if ms, _ := tc.db.Memberships(ctx, janeEmail); len(ms) != 1 || ms[0].Role != accounts.Admin {
		t.Errorf("jane's memberships: %+v, want admin still", ms)
	}
}

// TestSingleSignOnTakesAnUnprovedAccount has the owner of an address sign
// in by single sign-on to the account an attacker made from a shown
// invitation link: the provider's verified address proves it, and the
// attacker's session and password end.
func TestSingleSignOnTakesAnUnprovedAccount(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		provider := startOIDC(t)
		oidc, err := console.NewOIDC(context.Background(), provider.Issuer(), provider.ClientID, provider.ClientSecret, publicURL)
		if err != nil {
			t.Fatal(err)
		}
		tc := newConsoleOn(t, db, func(cfg *console.Config) {
			cfg.PublicURL, cfg.OIDC = publicURL, oidc
			cfg.PasswordParams = accounts.Params{Memory: 64, Time: 1, Threads: 1}
		})
		jane := tc.browser()
		jane.signIn(janeEmail, janePassword)
		_, link := jane.invite(newhire, accounts.Editor)
		attacker := tc.browser()
		if res := attacker.accept(link, janePassword); res.status != http.StatusSeeOther || !isSignedIn(attacker) {
			t.Fatalf("the attacker accepting the shown link: %d %s", res.status, res.body)
		}
		provider.QueueUser(&mockoidc.MockUser{Subject: "7", Email: newhire, EmailVerified: true})
		owner := tc.browser()
		if res := ssoSignIn(t, owner); res.status != http.StatusSeeOther || !isSignedIn(owner) {
			t.Fatalf("the owner's single sign-on: %d %s", res.status, res.body)
		}
		if isSignedIn(attacker) {
			t.Error("the attacker's session outlives the owner's single sign-on")
		}
		if res := tc.browser().signIn(newhire, janePassword); res.status != http.StatusUnauthorized {
			t.Errorf("the attacker's password after the owner's single sign-on: %d, want 401", res.status)
		}
		if u, _ := db.User(context.Background(), newhire); !u.Proved() {
			t.Error("the address is not proved after single sign-on")
		}
	})
}
