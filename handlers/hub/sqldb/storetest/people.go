package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/hubclient"
)

// testPeople finds and erases the submissions of one person, by e-mail
// address, in one workspace's sites and no other's.
func testPeople(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.CreateUser(ctx, accounts.User{Email: "owner@example.com", PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"acme", "other"} {
		if err := db.CreateWorkspace(ctx, ws, "owner@example.com", T0); err != nil {
			t.Fatal(err)
		}
	}
	for site, ws := range map[string]string{"site": "acme", "site2": "acme", "theirs": "other"} {
		if _, err := db.ClaimSite(ctx, site, ws, T0); err != nil {
			t.Fatal(err)
		}
	}
	// store stores a submission to site/form with the payload and n files,
	// and returns the files' keys.
	store := func(id, site, payload string, n int) []string {
		t.Helper()
		s := Submission(id)
		s.Site, s.Payload = site, []byte(payload)
		return storeWithFiles(t, db, s, n)
	}
	// More near misses than one batch of the erasure reads, before the
	// first match: the erasure must read on past a batch with no match.
	for i := range 250 {
		store(fmt.Sprintf("a%03d", i), "site", `{"email":"xanna@x.com"}`, 0)
	}
	keys := store("b01", "site", `{"email":"  Anna@X.com "}`, 2)
	store("b02", "site2", `{"emails":["bob@y.com","ANNA@x.com"]}`, 0)
	store("b03", "site", `{"message":"write to anna@x.com"}`, 0)
	store("b04", "site", `{"email":"anna@x.com.evil"}`, 0)
	store("b05", "theirs", `{"email":"anna@x.com"}`, 1)
	store("b06", "unowned", `{"email":"anna@x.com"}`, 0)
	store("b07", "site", `{"name":"Anna","email":"anna@x.com","n":2}`, 0)

	// Drafts: one mailed to her, one holding her address among its values
	// with a file, one of another address, one of another workspace.
	draft := func(id, site, email, payload string, files ...string) {
		t.Helper()
		var atts []hubclient.Attachment
		for _, key := range files {
			u := Upload(key)
			u.Site = site
			MustCreateUpload(t, db, u)
			atts = append(atts, Attachment(u))
		}
		d := Draft(id, atts...)
		d.Site, d.Email, d.Payload = site, email, json.RawMessage(payload)
		mustCreateDraft(t, db, d, id)
	}
	draft("d1", "site", "ANNA@x.com", `{}`)
	draft("d2", "site2", "", `{"email":"anna@x.com"}`, "uploads/d2-0")
	draft("d3", "site", "bob@y.com", `{"message":"anna@x.com wrote"}`)
	draft("d4", "theirs", "anna@x.com", `{}`)

	found := func(workspace, email string) []string {
		t.Helper()
		var out []string
		if err := db.PersonSubmissions(ctx, workspace, email, func(s hub.Submission) error {
			out = append(out, s.ID)
			return nil
		}); err != nil {
			t.Fatalf("PersonSubmissions(%s, %s): %v", workspace, email, err)
		}
		return out
	}
	if got, want := found("acme", "anna@x.com"), []string{"b01", "b02", "b07"}; !reflect.DeepEqual(got, want) {
		t.Errorf("PersonSubmissions(acme, anna@x.com) = %v, want %v", got, want)
	}
	if got, want := found("acme", " ANNA@x.COM"), []string{"b01", "b02", "b07"}; !reflect.DeepEqual(got, want) {
		t.Errorf("PersonSubmissions(acme, ' ANNA@x.COM') = %v, want %v", got, want)
	}
	if got := found("other", "anna@x.com"); !reflect.DeepEqual(got, []string{"b05"}) {
		t.Errorf("PersonSubmissions(other) = %v, want b05 alone", got)
	}
	if got := found("acme", "nobody@x.com"); len(got) != 0 {
		t.Errorf("PersonSubmissions(nobody) = %v, want none", got)
	}
	if got := found("acme", "  "); len(got) != 0 {
		t.Errorf("PersonSubmissions(blank) = %v, want none", got)
	}
	stop := errors.New("stop")
	if err := db.PersonSubmissions(ctx, "acme", "anna@x.com", func(hub.Submission) error { return stop }); err != stop {
		t.Errorf("PersonSubmissions with fn failing = %v, want fn's error", err)
	}

	e, err := db.ErasePerson(ctx, "acme", "Anna@x.com")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(e.IDs)
	slices.Sort(e.Files)
	if want := slices.Sorted(slices.Values(append(slices.Clone(keys), "uploads/d2-0"))); e.Submissions != 3 || !reflect.DeepEqual(e.IDs, []string{"b01", "b02", "b07"}) || !reflect.DeepEqual(e.Files, want) || e.Drafts != 2 {
		t.Errorf("ErasePerson(acme) = %+v; want b01, b02, b07, drafts d1 and d2, files %v", e, want)
	}
	wantNoDraft(t, db, "d1")
	wantNoDraft(t, db, "d2")
	if tokensOf(t, db, "d1")+tokensOf(t, db, "d2") != 0 {
		t.Error("the tokens of erased drafts are left")
	}
	for _, id := range []string{"d3", "d4"} {
		if _, err := db.DraftByID(ctx, id); err != nil {
			t.Errorf("draft %s, not the person's or not the workspace's: %v", id, err)
		}
	}
	for _, k := range keys {
		if _, err := db.Upload(ctx, k); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("Upload(%s) of an erased submission: %v, want not found", k, err)
		}
	}
	for _, id := range []string{"a000", "a249", "b03", "b04", "b05", "b06"} {
		if _, err := db.Submission(ctx, id); err != nil {
			t.Errorf("Submission(%s), not the person's or not the workspace's: %v", id, err)
		}
	}
	if _, err := db.Upload(ctx, "uploads/b05-0"); err != nil {
		t.Errorf("the file of another workspace's submission: %v", err)
	}
	if n := Count(t, db, hub.Filter{}); n != 250+4 {
		t.Errorf("%d submissions left, want 254", n)
	}
	if e, err := db.ErasePerson(ctx, "acme", "anna@x.com"); err != nil || e.Submissions != 0 || len(e.IDs) != 0 || len(e.Files) != 0 || e.Drafts != 0 {
		t.Errorf("erasing again: %+v, %v; want nothing", e, err)
	}
	if e, err := db.ErasePerson(ctx, "other", "anna@x.com"); err != nil || e.Submissions != 1 || !reflect.DeepEqual(e.IDs, []string{"b05"}) || e.Drafts != 1 {
		t.Errorf("ErasePerson(other) = %+v, %v; want b05 and draft d4", e, err)
	}
}
