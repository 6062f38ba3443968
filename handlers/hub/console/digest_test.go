package console_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// TestAccountDigest asks for a daily digest on the account page: of every
// form, of some, none; in the session's time zone, at the hour chosen; a
// form of another workspace is not found, and nothing changes.
func TestAccountDigest(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	f := newBuilderFormWith(t, func(cfg *console.Config) {
		cfg.Digests = cfg.Users.(*sqldb.DB)
		cfg.Now = func() time.Time { return now }
		cfg.Mailer, cfg.MailFrom = &fakeMailer{}, "hub@example.com"
	})
	db := f.tc.db
	ctx := context.Background()
	if res := f.post("/account/time-zone", url.Values{"tz": {"Europe/Paris"}}); res.status != http.StatusSeeOther {
		t.Fatalf("time zone: %d", res.status)
	}
	page := html.UnescapeString(f.b.get(console.Path + "/account").body)
	for _, want := range []string{`<h2 id="digest-heading" class="hubform-step-title">Daily digest</h2>`, `value="off" checked`, `value="acme/contact"`, "In Europe/Paris."} {
		if !strings.Contains(page, want) {
			t.Errorf("the account page lacks %q", want)
		}
	}
	// A digest goes only to a proved address: Jane's was; an address
	// nobody proved is told so.
	if strings.Contains(page, "a digest goes only to a proved address") {
		t.Error("the account page of a proved address warns that it is not")
	}
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, accounts.User{Email: "unproved@example.com", PasswordHash: hash, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "unproved@example.com", Role: accounts.Viewer, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	unproved := f.tc.browser()
	unproved.signIn("unproved@example.com", janePassword)
	if page := html.UnescapeString(unproved.get(console.Path + "/account").body); !strings.Contains(page, "a digest goes only to a proved address") {
		t.Errorf("the account page of an unproved address does not say a digest goes only to a proved one: %s", page)
	}
	digests := func() string {
		ds, err := db.Digests(ctx, accounts.DefaultWorkspace, janeEmail)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range ds {
			out = append(out, d.Site+"/"+d.Slug+" "+d.TimeZone+" "+d.NextAt.UTC().Format(time.RFC3339))
		}
		return strings.Join(out, ", ")
	}
	res := f.post("/account/digest", url.Values{"digest": {"workspace"}, "hour": {"9"}})
	if res.status != http.StatusSeeOther {
		t.Fatalf("every form: %d %s", res.status, res.body)
	}
	// 9:00 in Paris is 8:00 UTC: today's is past, tomorrow's is next.
	if got := digests(); got != "/ Europe/Paris 2026-11-30T08:00:00Z" {
		t.Errorf("digests after asking for every form's: %s", got)
	}
	if page := html.UnescapeString(f.b.get(console.Path + "/account").body); !strings.Contains(page, "You get a digest of default each day at 09:00 (Europe/Paris)") ||
		!strings.Contains(page, `value="workspace" checked`) || !strings.Contains(page, `<option value="9" selected>09:00</option>`) {
		t.Errorf("the page after asking: %s", page)
	}
	// A form checked twice (a page posted by hand) is one digest.
	f.post("/account/digest", url.Values{"digest": {"forms"}, "form": {"acme/contact", "acme/contact"}, "hour": {"18"}})
	if got := digests(); got != "acme/contact Europe/Paris 2026-11-29T17:00:00Z" {
		t.Errorf("digests after asking for one form's: %s", got)
	}
	for name, form := range map[string]url.Values{
		"a form of no workspace of hers": {"digest": {"forms"}, "form": {"rival/secret"}, "hour": {"9"}},
		"an hour of no day":              {"digest": {"workspace"}, "hour": {"24"}},
		"no choice":                      {"hour": {"9"}},
	} {
		if res := f.post("/account/digest", form); res.status != http.StatusNotFound && res.status != http.StatusBadRequest {
			t.Errorf("%s: %d", name, res.status)
		}
	}
	if got := digests(); got != "acme/contact Europe/Paris 2026-11-29T17:00:00Z" {
		t.Errorf("refused posts changed the digests: %s", got)
	}
	f.post("/account/digest", url.Values{"digest": {"off"}, "hour": {"9"}})
	if got := digests(); got != "" {
		t.Errorf("digests after asking for none: %s", got)
	}
}
