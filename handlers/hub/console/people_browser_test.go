package console_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserPeople walks, in headless Chromium against a hub with a real
// SMTP server and a real OpenID Connect provider, the ways people join and
// get back in: an invitation, a password reset, an open sign-up and single
// sign-on, with axe-core checking each page.
func TestBrowserPeople(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	mail := mailpittest.Start(t)
	provider, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { provider.Shutdown() })
	addr, err := testkit.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm), Addr: addr, PublicURL: "http://" + addr,
		Delivery: hubserver.DeliveryConfig{SMTPURL: mail.URL(), SMTPFrom: "hub@example.com"}, Signup: "open",
		OIDCIssuer: provider.Issuer(), OIDCClientID: provider.ClientID, OIDCClientSecret: provider.ClientSecret})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	do, base := con.do, con.base
	// waitText waits until the element of sel holds want. It follows the
	// page across the navigation that a form's post starts, which ends any
	// evaluation under way in the page it leaves: those are tried again.
	waitText := func(sel, want string) {
		t.Helper()
		js := `(document.querySelector(` + jsString(sel) + `)?.textContent ?? '').includes(` + jsString(want) + `)`
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			ctx, cancel := context.WithTimeout(con.tab, 2*time.Second)
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
			cancel()
			if err == nil && ok {
				return
			}
		}
		t.Fatalf("%s never held %q; it holds %q; hub log:\n%s", sel, want, con.text(sel), h.log)
	}
	fill := func(sel, value string) chromedp.Action[chromedp.Void] {
		return chromedp.SendKeys(chromedp.CSS(sel), value)
	}
	submit := func(form string) chromedp.Action[chromedp.Void] {
		return chromedp.Click(chromedp.CSS(form + ` button[type="submit"]`))
	}
	// linkTo waits for the e-mail to address and returns its link.
	linkTo := func(address, path string) string {
		t.Helper()
		link := regexp.MustCompile(regexp.QuoteMeta("http://"+addr+path) + `/[A-Za-z0-9_-]{43}`)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			for _, m := range mail.Messages(t) {
				if len(m.To) == 1 && m.To[0].Address == address {
					if l := link.FindString(mail.Message(t, m.ID).Text); l != "" {
						return l
					}
				}
			}
		}
		t.Fatalf("no e-mail to %s with a link to %s", address, path)
		return ""
	}
	signOut := func() {
		t.Helper()
		do(chromedp.Navigate(base+"/console"), chromedp.Click(chromedp.CSS(`form[action="/console/sign-out"] button`)), chromedp.WaitVisible(chromedp.CSS("#email")))
	}

	// An admin invites; the invitee chooses a password and is in.
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/members"]`)))
	do(chromedp.Click(chromedp.CSS(`a[href="/console/members"]`)), chromedp.WaitVisible(chromedp.CSS("#invite-email")))
	browsertest.CheckAxe(t, con.tab, axe, "the members page")
	do(fill("#invite-email", "cy@example.com"), chromedp.SetValue(chromedp.CSS("#invite-role"), "editor"), submit(`form[action="/console/invitations"]`))
	waitText("#notice", "An invitation was sent to cy@example.com.")
	signOut()
	do(chromedp.Navigate(linkTo("cy@example.com", "/console/invitations")), chromedp.WaitVisible(chromedp.CSS("#password")))
	browsertest.CheckAxe(t, con.tab, axe, "an invitation's page")
	do(fill("#password", "cy's long password"), fill("#confirm", "cy's long password"), submit("form"))
	waitText("h1", "Forms of workspace default")
	waitText(".console-header", "editor of this workspace")
	do(chromedp.Navigate(base+"/console/account"), chromedp.WaitVisible(chromedp.CSS("#sessions")))
	browsertest.CheckAxe(t, con.tab, axe, "the account page")
	signOut()

	// A forgotten password, reset by e-mail.
	do(chromedp.Click(chromedp.CSS(`a[href="/console/reset"]`)), chromedp.WaitVisible(chromedp.CSS("#email")))
	browsertest.CheckAxe(t, con.tab, axe, "the reset page")
	do(fill("#email", "cy@example.com"), submit("form"))
	waitText("#notice", "If a user has this address")
	do(chromedp.Navigate(linkTo("cy@example.com", "/console/reset")), chromedp.WaitVisible(chromedp.CSS("#password")))
	browsertest.CheckAxe(t, con.tab, axe, "a reset link's page")
	do(fill("#password", "cy's new password"), fill("#confirm", "cy's new password"), submit("form"))
	waitText(".console-header", "Signed in as cy@example.com")
	signOut()

	// An open sign-up, with a workspace of one's own.
	do(chromedp.Click(chromedp.CSS(`a[href="/console/signup"]`)), chromedp.WaitVisible(chromedp.CSS("#email")))
	browsertest.CheckAxe(t, con.tab, axe, "the sign-up page")
	do(fill("#email", "dee@example.com"), submit("form"))
	waitText("#notice", "A link to confirm the address")
	do(chromedp.Navigate(linkTo("dee@example.com", "/console/signup")), chromedp.WaitVisible(chromedp.CSS("#workspace")))
	browsertest.CheckAxe(t, con.tab, axe, "a sign-up link's page")
	do(fill("#workspace", "dees-shop"), fill("#password", "dee's long password"), fill("#confirm", "dee's long password"), submit("form"))
	waitText("h1", "Forms of workspace dees-shop")
	signOut()

	// Single sign-on through the provider.
	provider.QueueUser(&mockoidc.MockUser{Subject: "jane", Email: "jane@example.com", EmailVerified: true})
	do(chromedp.Click(chromedp.CSS(`a[href="/console/sso"]`)))
	waitText(".console-header", "Signed in as jane@example.com")
	if strings.Contains(h.log.String(), "cy's new password") {
		t.Error("the hub logged a password")
	}
}
