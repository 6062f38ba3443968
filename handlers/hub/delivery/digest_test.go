package delivery

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// TestDigestSent has a member's digest of their workspace fall due: the
// sweep mails them the day before in their time zone, each form's count
// without spam and its newest submissions in short, once, however often
// it sweeps; a member whose address was never proved gets none, and
// their digest is deleted.
func TestDigestSent(t *testing.T) {
	mp := mailpittest.Start(t)
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	mailer, err := NewSMTP(mp.URL(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	now := time.Date(2026, 11, 29, 9, 0, 20, 0, paris)
	for _, u := range []accounts.User{{Email: "ada@example.com", PasswordHash: "$x", CreatedAt: storetest.T0, ProvedAt: storetest.T0}, {Email: "bob@example.com", PasswordHash: "$x", CreatedAt: storetest.T0}} {
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateWorkspace(ctx, "acme", "ada@example.com", storetest.T0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, accounts.Member{Workspace: "acme", Email: "bob@example.com", Role: accounts.Viewer, CreatedAt: storetest.T0}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "site", "acme", storetest.T0); err != nil {
		t.Fatal(err)
	}
	add := func(id string, at time.Time, spam bool, payload string) {
		s := storetest.Submission(id)
		s.CreatedAt, s.Spam, s.Payload = at, spam, json.RawMessage(payload)
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	add("B", time.Date(2026, 11, 27, 23, 59, 0, 0, paris), false, `{"name":"Before"}`)
	add("1", time.Date(2026, 11, 28, 0, 0, 0, 0, paris), false, `{"name":"Ada Lovelace","score":9,"comment":"Very   good\nservice"}`)
	add("2", time.Date(2026, 11, 28, 21, 30, 0, 0, paris), false, `{"name":"Grace Hopper","score":10}`)
	add("S", time.Date(2026, 11, 28, 12, 0, 0, 0, paris), true, `{"name":"Spam"}`)
	add("T", time.Date(2026, 11, 29, 0, 0, 0, 0, paris), false, `{"name":"Today"}`)
	due := now.Add(-20 * time.Second)
	for _, email := range []string{"ada@example.com", "bob@example.com"} {
		if err := db.SetDigests(ctx, "acme", email, []hub.Digest{{TimeZone: "Europe/Paris", Hour: 9, NextAt: due}}); err != nil {
			t.Fatal(err)
		}
	}
	schema := hubclient.Schema{Title: "Feedback", Fields: []hubclient.Field{
		{Name: "name", Type: hubclient.FieldText, Label: "Your name"},
		{Name: "score", Type: hubclient.FieldNPS, Label: "Score"},
		{Name: "comment", Type: hubclient.FieldTextarea},
	}}
	fs := forms{"site/form": {Site: "site", Slug: "form", Schema: &schema}}
	q := openQueueWith(t, db, "", fs, func(c *Config) {
		c.Mailer, c.MailFrom, c.Digests, c.Links = mailer, "hub@forms.example.com", db, links{}
		c.Now = func() time.Time { return now }
	})
	waitFor(t, "the digest", func() bool { return len(mp.Messages(t)) > 0 })
	waitFor(t, "bob's digest deleted", func() bool {
		ds, err := db.Digests(ctx, "acme", "bob@example.com")
		return err == nil && len(ds) == 0
	})
	list := mp.Messages(t)
	if len(list) != 1 || len(list[0].To) != 1 || list[0].To[0].Address != "ada@example.com" {
		t.Fatalf("messages %+v, want Ada's digest alone", list)
	}
	m := mp.Message(t, list[0].ID)
	m.Text = strings.ReplaceAll(m.Text, "\r\n", "\n")
	if m.Subject != "acme: 2 submissions on Sat 28 Nov" {
		t.Errorf("subject %q", m.Subject)
	}
	for _, want := range []string{
		"On Saturday 28 November 2026 (Europe/Paris) the forms of acme received 2 submissions.",
		"Feedback (site/form): 2 submissions",
		"  21:30  Grace Hopper · 10\n  00:00  Ada Lovelace · 9 · Very good service\n",
		links{}.Inbox("site", "form"), links{}.Account(),
	} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the digest lacks %q:\n%s", want, m.Text)
		}
	}
	for _, unwanted := range []string{"Before", "Spam", "Today"} {
		if strings.Contains(m.Text, unwanted) {
			t.Errorf("the digest shows %q, of another day or spam:\n%s", unwanted, m.Text)
		}
	}
	ds, err := db.Digests(ctx, "acme", "ada@example.com")
	if err != nil || len(ds) != 1 || !ds[0].NextAt.Equal(time.Date(2026, 11, 30, 9, 0, 0, 0, paris)) {
		t.Errorf("Ada's digest after sending: %+v, %v; want it next at 9:00 tomorrow", ds, err)
	}

	// Due again the same day, swept again: the day is not mailed twice.
	if err := db.SetDigests(ctx, "acme", "ada@example.com", []hub.Digest{{TimeZone: "Europe/Paris", Hour: 9, NextAt: due}}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.river.Insert(ctx, DigestSweepArgs{}, &river.InsertOpts{Queue: QueueName}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second sweep", func() bool {
		ds, err := db.Digests(ctx, "acme", "ada@example.com")
		return err == nil && len(ds) == 1 && ds[0].NextAt.After(now)
	})
	time.Sleep(500 * time.Millisecond)
	if n := len(mp.Messages(t)); n != 1 {
		t.Errorf("%d messages after a second sweep of the same day, want 1", n)
	}
}
