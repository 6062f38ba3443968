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
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// TestAuditLog has Jane sign in, fail to sign in, publish, delete and
// export in the console: each is in the audit log of her workspace, which
// its admins read at /console/audit and its editors may not.
func TestAuditLog(t *testing.T) {
	files := &memFiles{files: map[string][]byte{}}
	tc := inboxConsole(t, files)
	ctx := context.Background()
	id := tc.submit("contact", time.Now(), 2, `{"name":"Ann"}`)

	if res := tc.browser().signIn(janeEmail, "wrong password"); res.status != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %d", res.status)
	}
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	token := b.csrf(console.Path)
	if res := b.do(http.MethodPost, console.Path+"/forms/acme/contact/versions/1/publish", url.Values{"_csrf": {token}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("publish version 1: %d %s", res.status, res.body)
	}
	if res := b.do(http.MethodPost, contactInbox+"/delete", url.Values{"_csrf": {token}, "id": {id}, "confirmed": {"1"}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", res.status, res.body)
	}
	if res := b.get(console.Path + "/forms/acme/contact/export/csv?q=ann"); res.status != http.StatusOK {
		t.Fatalf("export: %d", res.status)
	}

	events, err := tc.db.Events(ctx, accounts.DefaultWorkspace, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		if e.Actor != janeEmail || e.Client == "" || e.At.IsZero() {
			t.Errorf("event %+v: want Jane as the actor, her address and a time", e)
		}
		got = append(got, e.Action+" "+e.Target+" "+e.Detail)
	}
	want := []string{
		"submissions exported acme/contact csv, q=ann",
		"submissions deleted acme/contact 1 submissions, 0 files, may be undone for 30 minutes",
		"form published acme/contact version 1, rolled back from 2",
		"sign-in jane@example.com ",
		"sign-in failed jane@example.com ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit log, newest first:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	page := b.get(console.Path + "/audit")
	if page.status != http.StatusOK || !strings.Contains(page.body, "rolled back from 2") || !strings.Contains(page.body, "sign-in failed") {
		t.Errorf("the audit page: %d %s", page.status, page.body)
	}
	// An editor may not read it.
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "ed@example.com", PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "ed@example.com", Role: accounts.Editor, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ed := tc.browser()
	ed.signIn("ed@example.com", janePassword)
	if res := ed.get(console.Path + "/audit"); res.status != http.StatusForbidden {
		t.Errorf("the audit page for an editor: %d, want 403", res.status)
	}
}

// TestHomeShowsUsage shows the workspace's usage of the month, and its
// e-mails of the day, beside its quota on the home page.
func TestHomeShowsUsage(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	tc.submit("contact", time.Now(), 2, `{"name":"Ann"}`, "a.pdf")
	tc.submit("contact", time.Now().AddDate(0, -2, 0), 2, `{"name":"Old"}`)
	if err := tc.db.SetQuota(context.Background(), accounts.DefaultWorkspace, accounts.Quota{SubmissionsPerMonth: 5000, StoredBytes: 1 << 30, MailPerDay: 40}); err != nil {
		t.Fatal(err)
	}
	if ok, err := tc.db.TakeMail(context.Background(), accounts.DefaultWorkspace, sqldb.Day(time.Now()), 2, 40); !ok || err != nil {
		t.Fatalf("TakeMail: %v, %v", ok, err)
	}
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	home := b.get(console.Path)
	for _, want := range []string{"<dt>Submissions this month</dt><dd>1 of 5,000</dd>", "<dt>Files stored</dt><dd>5 bytes of 1 GB</dd>",
		"<dt>E-mails today (UTC)</dt><dd>2 of 40</dd>"} {
		if !strings.Contains(home.body, want) {
			t.Errorf("the home page's usage lacks %q: %s", want, home.body)
		}
	}
}
