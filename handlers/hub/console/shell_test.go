package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// TestShell frames a signed-in page with the workspace's sites and forms,
// a breadcrumb and, on a form's page, its tabs; the sign-in page has none.
func TestShell(t *testing.T) {
	tc, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	ctx := context.Background()
	// A form of another workspace's site never shows.
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "rival@example.com", PasswordHash: "unusable", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "rival", "rival@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.db.ClaimSite(ctx, "rivals", "rival", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.db.SaveFormVersion(ctx, "rivals", "secret", []byte(contactV1), "test", time.Now()); err != nil {
		t.Fatal(err)
	}

	res := b.get(console.Path + "/forms/acme/contact/submissions")
	for _, want := range []string{
		`<nav class="console-nav" id="console-nav" aria-label="Workspace">`,
		// Its menu button on a narrow screen, which works without JavaScript.
		`<input type="checkbox" id="console-menu" class="console-menu-toggle" aria-controls="console-nav">`,
		`<label for="console-menu" class="console-menu-button">Menu</label>`,
		`<a href="/console/forms/acme/contact/overview" aria-current="page">contact</a>`,
		`<a href="/console/forms/acme/other/overview">other</a>`,
		`<li><a href="/console">default</a></li><li><a href="/console#site-acme">acme</a></li><li><a href="/console/forms/acme/contact/overview">contact</a></li><li><span aria-current="page">Submissions</span></li>`,
		`<a href="/console/forms/acme/contact/submissions" aria-current="page">Submissions</a>`,
		`<a href="/console/forms/acme/contact">Build</a>`, `<a href="/console/forms/acme/contact/settings">Settings</a>`,
		`<a href="/console/forms/acme/contact/share">Share</a>`,
		`action="/console/sign-out"`, `<a href="/console/account">jane@example.com</a>`,
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("a form's page lacks %s", want)
		}
	}
	if strings.Contains(res.body, "rivals") || strings.Contains(res.body, "secret") {
		t.Error("the navigation shows another workspace's site")
	}
	if home := b.get(console.Path); !strings.Contains(home.body, `id="site-acme"`) || strings.Contains(home.body, "rivals") {
		t.Errorf("the home page lists another workspace's site, or not the user's: %s", home.body)
	}
	if res := b.get(console.Path + "/forms/rivals/secret/overview"); res.status != http.StatusNotFound {
		t.Errorf("another workspace's form's overview: %d, want 404", res.status)
	}
	// An htmx request for a fragment gets the fragment alone.
	if res := b.do(http.MethodGet, console.Path+"/forms", nil, map[string]string{"HX-Request": "true"}); strings.Contains(res.body, "console-nav") {
		t.Errorf("a fragment came in the shell: %s", res.body)
	}
	if res := tc.browser().get(console.SignInPath); strings.Contains(res.body, "console-nav") || !strings.Contains(res.body, `name="tz"`) {
		t.Errorf("the sign-in page: %s", res.body)
	}
}

// TestTimeZone keeps the time zone a user chooses, and refuses a name
// that is none.
func TestTimeZone(t *testing.T) {
	tc, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	tc.submit("contact", time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), 2, `{"name":"Ann"}`)
	tc.submit("contact", time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC), 2, `{"name":"Bob"}`)
	if res := b.get(console.Path + "/account"); !strings.Contains(res.body, `value="UTC"`) {
		t.Errorf("the account page's zone without one: %s", res.body)
	}
	set := func(zone string) response {
		return b.do(http.MethodPost, console.Path+"/account/time-zone", url.Values{"_csrf": {b.csrf(console.Path + "/account")}, "tz": {zone}}, nil)
	}
	if res := set("Mars/Olympus"); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "No time zone has this name") || !strings.Contains(res.body, `value="Mars/Olympus"`) {
		t.Errorf("a zone that is none: %d %s", res.status, res.body)
	}
	if res := set("Local"); res.status != http.StatusUnprocessableEntity {
		t.Errorf("the hub's own zone: %d", res.status)
	}
	if res := set("Asia/Kolkata"); res.status != http.StatusSeeOther {
		t.Fatalf("a zone: %d %s", res.status, res.body)
	}
	if res := b.get(console.Path + "/forms/acme/contact/submissions"); !strings.Contains(res.body, "2026-11-23 14:30 IST") {
		t.Errorf("the inbox's times are not in the chosen zone: %s", res.body)
	}
	// Its days are the zone's: Bob's evening in UTC is the next day there.
	if res := b.get(console.Path + "/forms/acme/contact/submissions?from=2026-11-24"); !strings.Contains(res.body, "Bob") || strings.Contains(res.body, "Ann") {
		t.Errorf("the inbox from a day in the chosen zone: %s", res.body)
	}
}
