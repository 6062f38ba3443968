package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testDigests keeps a member's digests, finds those due and moves one on
// once whatever two hubs do, and reads a day of a workspace's forms:
// counts by form without spam, deleted submissions or another workspace's,
// the newest first, and only the form of a form's digest. Only a member
// whose address was proved reads a workspace's digest.
func testDigests(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if err := a.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$x", CreatedAt: T0, ProvedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateWorkspace(ctx, "agency", "ann@example.com", T0); err != nil {
		t.Fatal(err)
	}
	for _, u := range []accounts.User{{Email: "bob@example.com", PasswordHash: "$x", CreatedAt: T0}, {Email: "cy@example.com", PasswordHash: "$x", CreatedAt: T0, ProvedAt: T0}} {
		if err := a.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := a.SetMember(ctx, accounts.Member{Workspace: "agency", Email: u.Email, Role: accounts.Viewer, CreatedAt: T0}); err != nil {
			t.Fatal(err)
		}
	}
	for _, claim := range [][2]string{{"acme", "agency"}, {"other", accounts.DefaultWorkspace}} {
		if _, err := a.ClaimSite(ctx, claim[0], claim[1], T0); err != nil {
			t.Fatal(err)
		}
	}
	for email, want := range map[string]bool{"ann@example.com": true, "bob@example.com": false, "cy@example.com": true, "nobody@example.com": false} {
		if got, err := b.DigestReader(ctx, "agency", email); got != want || err != nil {
			t.Errorf("DigestReader(agency, %s) = %v, %v; want %v", email, got, err, want)
		}
	}
	if got, _ := b.DigestReader(ctx, accounts.DefaultWorkspace, "cy@example.com"); got {
		t.Error("a member of agency reads the digest of another workspace")
	}

	from := T0.Add(24 * time.Hour)
	to := from.Add(24 * time.Hour)
	add := func(id, site, slug string, at time.Time, spam bool) {
		s := Submission(id)
		s.Site, s.Slug, s.CreatedAt, s.Spam = site, slug, at, spam
		s.Payload = json.RawMessage(`{"name":"` + id + `"}`)
		if err := a.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	add("before", "acme", "contact", from.Add(-time.Second), false)
	add("first", "acme", "contact", from, false)
	add("second", "acme", "contact", from.Add(time.Hour), false)
	add("third", "acme", "contact", from.Add(2*time.Hour), false)
	add("spam", "acme", "contact", from.Add(3*time.Hour), true)
	add("deleted", "acme", "contact", from.Add(4*time.Hour), false)
	add("survey", "acme", "survey", to.Add(-time.Millisecond), false)
	add("after", "acme", "survey", to, false)
	add("others", "other", "contact", from.Add(time.Hour), false)
	if _, err := a.DeleteSubmissions(ctx, "acme", "contact", []string{"deleted"}); err != nil {
		t.Fatal(err)
	}
	days, err := b.DigestDay(ctx, hub.Digest{Workspace: "agency"}, from, to, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 2 || days[0].Slug != "contact" || days[0].Count != 3 || days[1].Slug != "survey" || days[1].Count != 1 {
		t.Fatalf("DigestDay(agency) = %+v", days)
	}
	if n := days[0].Newest; len(n) != 2 || n[0].ID != "third" || n[1].ID != "second" || string(n[0].Payload) != `{"name":"third"}` || !n[0].CreatedAt.Equal(from.Add(2*time.Hour)) {
		t.Errorf("the newest of acme/contact: %+v", n)
	}
	days, err = b.DigestDay(ctx, hub.Digest{Workspace: "agency", Site: "acme", Slug: "survey"}, from, to, 5)
	if err != nil || len(days) != 1 || days[0].Slug != "survey" || days[0].Count != 1 {
		t.Errorf("DigestDay of acme/survey = %+v, %v", days, err)
	}

	ann := []hub.Digest{
		{Workspace: "agency", Email: "ann@example.com", TimeZone: "Europe/Paris", Hour: 8, NextAt: T0},
		{Workspace: "agency", Email: "ann@example.com", Site: "acme", Slug: "survey", TimeZone: "UTC", Hour: 18, NextAt: T0.Add(time.Hour)},
	}
	if err := a.SetDigests(ctx, "agency", "ann@example.com", ann); err != nil {
		t.Fatal(err)
	}
	if err := a.SetDigests(ctx, "agency", "cy@example.com", []hub.Digest{{TimeZone: "UTC", Hour: 9, NextAt: T0.Add(48 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Digests(ctx, "agency", "ann@example.com")
	if err != nil || len(got) != 2 || got[0].Site != "" || got[1].Slug != "survey" || got[1].Hour != 18 || !got[1].NextAt.Equal(T0.Add(time.Hour)) || got[0].TimeZone != "Europe/Paris" {
		t.Fatalf("Digests(ann) = %+v, %v", got, err)
	}
	due, err := b.DueDigests(ctx, T0.Add(time.Hour), 10)
	if err != nil || len(due) != 2 || due[0].NextAt.After(due[1].NextAt) {
		t.Fatalf("DueDigests = %+v, %v; want ann's two, the longest due first", due, err)
	}
	// Two hubs move the same digest on: one does.
	moved := 0
	for _, db := range dbs {
		if ok, err := db.AdvanceDigest(ctx, due[0], T0.Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		} else if ok {
			moved++
		}
	}
	if moved != 1 {
		t.Errorf("the digest was moved on %d times, want once", moved)
	}
	if due, _ := b.DueDigests(ctx, T0.Add(time.Hour), 10); len(due) != 1 || due[0].Slug != "survey" {
		t.Errorf("due after one was moved on: %+v", due)
	}
	if err := a.DeleteDigest(ctx, ann[1]); err != nil {
		t.Fatal(err)
	}
	if err := a.SetDigests(ctx, "agency", "cy@example.com", nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Digests(ctx, "agency", "ann@example.com"); len(got) != 1 || got[0].Site != "" {
		t.Errorf("after deleting one: %+v", got)
	}
	if got, _ := b.Digests(ctx, "agency", "cy@example.com"); len(got) != 0 {
		t.Errorf("after setting none: %+v", got)
	}
}
