package storetest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// Draft returns a draft of the form "site"/"form" saved at T0, which
// expires a day later.
func Draft(id string, atts ...hubclient.Attachment) hub.Draft {
	return hub.Draft{
		ID:          id,
		Site:        "site",
		Slug:        "form",
		Payload:     json.RawMessage(`{"name":"Jane"}`),
		Step:        "contact",
		Attachments: atts,
		Locale:      "fr",
		CreatedAt:   T0,
		UpdatedAt:   T0,
		ExpiresAt:   T0.Add(24 * time.Hour),
	}
}

// tokenHash is the hash of a token named for a test.
func tokenHash(name string) string { return hub.DraftHash("token-" + name) }

// mustCreateDraft stores d, found by the hash of the token named token
// (see tokenHash), or fails the test.
func mustCreateDraft(t testing.TB, db *sqldb.DB, d hub.Draft, token string) {
	t.Helper()
	if _, err := db.CreateDraft(context.Background(), d, tokenHash(token)); err != nil {
		t.Fatalf("CreateDraft(%s): %v", d.ID, err)
	}
}

// staleKeys returns the keys of the uploads the sweep would delete.
func staleKeys(t testing.TB, db *sqldb.DB) []string {
	t.Helper()
	return staleUploadKeys(t, db, T0.Add(24*time.Hour), 100)
}

// staleUploadKeys returns the keys of at most limit uploads stale at now.
func staleUploadKeys(t testing.TB, db *sqldb.DB, now time.Time, limit int) []string {
	t.Helper()
	got, err := db.StaleUploads(context.Background(), now, limit)
	if err != nil {
		t.Fatalf("StaleUploads: %v", err)
	}
	var keys []string
	for _, u := range got {
		keys = append(keys, u.Key)
	}
	return keys
}

// heldBy returns the id of the draft holding the upload with the key, or
// "".
func heldBy(t testing.TB, db *sqldb.DB, key string) string {
	t.Helper()
	var id *string
	if err := db.Writer().QueryRowContext(context.Background(), `SELECT draft_id FROM uploads WHERE key = $1`, key).Scan(&id); err != nil {
		t.Fatalf("draft holding %q: %v", key, err)
	}
	if id == nil {
		return ""
	}
	return *id
}

// tokensOf returns how many tokens the draft with the id has.
func tokensOf(t testing.TB, db *sqldb.DB, id string) int {
	t.Helper()
	var n int
	if err := db.Writer().QueryRowContext(context.Background(), `SELECT COUNT(*) FROM draft_tokens WHERE draft_id = $1`, id).Scan(&n); err != nil {
		t.Fatalf("tokens of draft %s: %v", id, err)
	}
	return n
}

// dbName returns the name the database's errors begin with.
func dbName(t testing.TB, db *sqldb.DB) string {
	t.Helper()
	_, err := db.Upload(context.Background(), "no such upload")
	name, _, ok := strings.Cut(fmt.Sprint(err), ":")
	if !ok {
		t.Fatalf("Upload(no such upload) = %v, want an error", err)
	}
	return name
}

// wantDraft fails the test unless the token finds d at now.
func wantDraft(t testing.TB, db *sqldb.DB, token string, now time.Time, d hub.Draft) {
	t.Helper()
	got, err := db.DraftByToken(context.Background(), d.Site, d.Slug, tokenHash(token), now)
	if err != nil || !reflect.DeepEqual(got, d) {
		t.Errorf("DraftByToken(%s) = %+v, %v; want %+v", token, got, err, d)
	}
}

// wantNoDraft fails the test unless the draft with the id is gone.
func wantNoDraft(t testing.TB, db *sqldb.DB, id string) {
	t.Helper()
	if got, err := db.DraftByID(context.Background(), id); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("DraftByID(%s) = %+v, %v; want ErrNotFound", id, got, err)
	}
}

func testDraftRoundTrip(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	a, b := Upload("uploads/a"), Upload("uploads/b")
	// Whether a body was received is the caller's to check.
	b.UploadedAt = time.Time{}
	MustCreateUpload(t, db, a)
	MustCreateUpload(t, db, b)

	d := Draft("D1", Attachment(a), Attachment(b))
	d.Payload = json.RawMessage(`{"name":"Zoë 🦊","tags":["a","b"],"nested":{"x":null}}`)
	d.Email, d.ResumeURL = "jane@example.com", "https://example.com/apply?resume"
	d.UpdatedAt = T0.Add(time.Minute)
	mailed, err := db.CreateDraft(ctx, d, tokenHash("1"))
	if err != nil || mailed {
		t.Fatalf("CreateDraft(D1) = %v, %v; want false (no hook), nil", mailed, err)
	}
	bare := Draft("D2")
	bare.Payload, bare.Step, bare.Locale = nil, "", ""
	mustCreateDraft(t, db, bare, "2")
	// Stored as given, except that an absent payload is {} and absent
	// attachments are an empty list.
	bare.Payload, bare.Attachments = json.RawMessage(`{}`), []hubclient.Attachment{}

	wantDraft(t, db, "1", T0, d)
	wantDraft(t, db, "2", T0, bare)
	// Found while now is before ExpiresAt.
	wantDraft(t, db, "1", d.ExpiresAt.Add(-time.Millisecond), d)
	if got, err := db.DraftByID(ctx, "D1"); err != nil || !reflect.DeepEqual(got, d) {
		t.Errorf("DraftByID(D1) = %+v, %v; want %+v", got, err, d)
	}
	for _, tt := range []struct {
		name, site, slug, token string
		now                     time.Time
	}{
		{"another site", "other", "form", "1", T0},
		{"another form", "site", "other", "1", T0},
		{"another token", "site", "form", "3", T0},
		{"expired", "site", "form", "1", d.ExpiresAt},
		{"long expired", "site", "form", "1", d.ExpiresAt.Add(time.Hour)},
	} {
		if got, err := db.DraftByToken(ctx, tt.site, tt.slug, tokenHash(tt.token), tt.now); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("DraftByToken of %s = %+v, %v; want ErrNotFound", tt.name, got, err)
		}
	}
	// Expired, a draft is still there until deleted.
	if _, err := db.DraftByID(ctx, "D1"); err != nil {
		t.Errorf("DraftByID(D1): %v", err)
	}
	wantNoDraft(t, db, "none")
	// The draft holds its uploads: the sweep leaves them alone.
	if keys := staleKeys(t, db); keys != nil {
		t.Errorf("stale uploads = %v, want none: the draft holds them", keys)
	}
	for _, key := range []string{a.Key, b.Key} {
		if got := heldBy(t, db, key); got != "D1" {
			t.Errorf("upload %q held by %q, want D1", key, got)
		}
	}

	// Refused, and nothing stored.
	for _, tt := range []struct {
		name  string
		d     hub.Draft
		token string
	}{
		{"no id", Draft(""), "x"},
		{"no token", Draft("X"), ""},
		{"no site", func() hub.Draft { d := Draft("X"); d.Site = ""; return d }(), "x"},
		{"no form", func() hub.Draft { d := Draft("X"); d.Slug = ""; return d }(), "x"},
		{"no CreatedAt", func() hub.Draft { d := Draft("X"); d.CreatedAt = time.Time{}; return d }(), "x"},
		{"no UpdatedAt", func() hub.Draft { d := Draft("X"); d.UpdatedAt = time.Time{}; return d }(), "x"},
		{"no ExpiresAt", func() hub.Draft { d := Draft("X"); d.ExpiresAt = time.Time{}; return d }(), "x"},
		{"bad payload", func() hub.Draft { d := Draft("X"); d.Payload = json.RawMessage(`{"a":`); return d }(), "x"},
		{"payload not UTF-8", func() hub.Draft { d := Draft("X"); d.Payload = json.RawMessage("{\"a\":\"\xff\"}"); return d }(), "x"},
		{"token in use", Draft("X"), "1"},
		{"duplicate id", Draft("D2"), "x"},
	} {
		hash := ""
		if tt.token != "" {
			hash = tokenHash(tt.token)
		}
		_, err := db.CreateDraft(ctx, tt.d, hash)
		if err == nil {
			t.Errorf("CreateDraft with %s succeeded", tt.name)
			continue
		}
		if name := dbName(t, db); !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("CreateDraft with %s: %q does not begin with the database's name", tt.name, err)
		}
	}
	wantNoDraft(t, db, "X")
	if got, err := db.DraftByToken(ctx, "site", "form", tokenHash("x"), T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("DraftByToken(x) = %+v, %v; want ErrNotFound", got, err)
	}
	wantDraft(t, db, "2", T0, bare)
}

func testDraftUpdate(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	for _, key := range []string{"uploads/a", "uploads/b", "uploads/c", "uploads/claimed"} {
		MustCreateUpload(t, db, Upload(key))
	}
	claimed := Upload("uploads/claimed")
	if err := db.CreateSubmission(ctx, Submission("S1", Attachment(claimed))); err != nil {
		t.Fatal(err)
	}
	d := Draft("D1", Attachment(Upload("uploads/a")), Attachment(Upload("uploads/b")))
	d.Email, d.ResumeURL = "jane@example.com", "https://example.com/old"
	mustCreateDraft(t, db, d, "1")
	other := Draft("D2")
	other.Slug = "other"
	mustCreateDraft(t, db, other, "2")

	// Everything a visitor changes is replaced; the id and creation time
	// are the stored draft's, whatever the caller's are.
	u := Draft("ignored", Attachment(Upload("uploads/b")), Attachment(Upload("uploads/c")))
	u.CreatedAt = T0.Add(time.Hour)
	u.Payload = json.RawMessage(`{"name":"Jane Doe","n":2}`)
	u.Step, u.Locale, u.Email, u.ResumeURL = "files", "de", "", ""
	u.UpdatedAt, u.ExpiresAt = T0.Add(2*time.Hour), T0.Add(48*time.Hour)
	if mailed, err := db.UpdateDraft(ctx, u, tokenHash("1"), tokenHash("1u")); err != nil || mailed {
		t.Fatalf("UpdateDraft = %v, %v; want false, nil", mailed, err)
	}
	want := u
	want.ID, want.CreatedAt = "D1", T0
	wantDraft(t, db, "1u", T0, want)
	// The upload no longer listed goes back to the sweep.
	if keys := staleKeys(t, db); !reflect.DeepEqual(keys, []string{"uploads/a"}) {
		t.Errorf("stale uploads = %v, want [uploads/a]", keys)
	}
	for key, id := range map[string]string{"uploads/a": "", "uploads/b": "D1", "uploads/c": "D1"} {
		if got := heldBy(t, db, key); got != id {
			t.Errorf("upload %q held by %q, want %q", key, got, id)
		}
	}

	// Not found, and nothing changed.
	refused := u
	refused.Payload = json.RawMessage(`{"refused":true}`)
	refused.Attachments = nil
	for _, tt := range []struct {
		name  string
		d     func(hub.Draft) hub.Draft
		token string
		is    error
	}{
		{"another form", func(d hub.Draft) hub.Draft { d.Slug = "other"; return d }, "1u", hub.ErrNotFound},
		{"another site", func(d hub.Draft) hub.Draft { d.Site = "other"; return d }, "1u", hub.ErrNotFound},
		{"another form's token", func(d hub.Draft) hub.Draft { return d }, "2", hub.ErrNotFound},
		{"an unknown token", func(d hub.Draft) hub.Draft { return d }, "3", hub.ErrNotFound},
		{"a retired token", func(d hub.Draft) hub.Draft { return d }, "1", hub.ErrNotFound},
		{"expired", func(d hub.Draft) hub.Draft { d.UpdatedAt = want.ExpiresAt; return d }, "1u", hub.ErrNotFound},
		{"a claimed upload", func(d hub.Draft) hub.Draft {
			d.Attachments = []hubclient.Attachment{Attachment(claimed)}
			return d
		}, "1u", hub.ErrUploadClaim},
		{"a missing upload", func(d hub.Draft) hub.Draft {
			d.Attachments = []hubclient.Attachment{Attachment(Upload("uploads/missing"))}
			return d
		}, "1u", hub.ErrUploadClaim},
	} {
		if _, err := db.UpdateDraft(ctx, tt.d(refused), tokenHash(tt.token), tokenHash("refused")); !errors.Is(err, tt.is) {
			t.Errorf("UpdateDraft of %s = %v, want %v", tt.name, err, tt.is)
		}
	}
	// A refused save retires no token.
	wantDraft(t, db, "1u", T0, want)
	if n := tokensOf(t, db, "D1"); n != 1 {
		t.Errorf("D1 has %d tokens after refused updates, want 1", n)
	}
	if keys := staleKeys(t, db); !reflect.DeepEqual(keys, []string{"uploads/a"}) {
		t.Errorf("stale uploads = %v after refused updates, want [uploads/a]", keys)
	}
	other.Payload, other.Attachments = json.RawMessage(`{"name":"Jane"}`), []hubclient.Attachment{}
	if got, err := db.DraftByID(ctx, "D2"); err != nil || !reflect.DeepEqual(got, other) {
		t.Errorf("DraftByID(D2) = %+v, %v; want %+v unchanged", got, err, other)
	}

	// Just before it expires, a draft is updated; without files, it holds
	// none.
	last := refused
	last.UpdatedAt = want.ExpiresAt.Add(-time.Millisecond)
	if _, err := db.UpdateDraft(ctx, last, tokenHash("1u"), tokenHash("1v")); err != nil {
		t.Fatalf("UpdateDraft before expiry: %v", err)
	}
	if keys := staleKeys(t, db); !reflect.DeepEqual(keys, []string{"uploads/a", "uploads/b", "uploads/c"}) {
		t.Errorf("stale uploads = %v, want all three", keys)
	}
}

// testDraftHolds checks which uploads a draft may hold, and that a refusal
// stores nothing.
func testDraftHolds(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	free, otherForm, otherSite, claimed, held := Upload("uploads/free"), Upload("uploads/other-form"), Upload("uploads/other-site"), Upload("uploads/claimed"), Upload("uploads/held")
	otherForm.Slug, otherSite.Site = "other", "other"
	for _, u := range []hub.Upload{free, otherForm, otherSite, claimed, held} {
		MustCreateUpload(t, db, u)
	}
	if err := db.CreateSubmission(ctx, Submission("S1", Attachment(claimed))); err != nil {
		t.Fatal(err)
	}
	mustCreateDraft(t, db, Draft("D0", Attachment(held)), "0")

	for _, tt := range []struct {
		u      hub.Upload
		reason string
	}{
		{Upload("uploads/missing"), "no such upload"},
		{otherForm, "another form"},
		{otherSite, "another form"},
		{claimed, "claimed"},
		{held, "held by another draft"},
	} {
		// The free upload, listed first, is held only if all are.
		d := Draft("D1", Attachment(free), Attachment(tt.u))
		_, err := db.CreateDraft(ctx, d, tokenHash("1"))
		if !errors.Is(err, hub.ErrUploadClaim) || !strings.Contains(err.Error(), tt.u.Key) || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("CreateDraft holding %q = %v, want ErrUploadClaim naming the key and %q", tt.u.Key, err, tt.reason)
		}
		wantNoDraft(t, db, "D1")
		if got := heldBy(t, db, free.Key); got != "" {
			t.Errorf("after CreateDraft holding %q, free upload held by %q", tt.u.Key, got)
		}
	}
	if got, err := db.DraftByToken(ctx, "site", "form", tokenHash("1"), T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("DraftByToken(1) = %+v, %v after refusals; want ErrNotFound", got, err)
	}
	if got := heldBy(t, db, held.Key); got != "D0" {
		t.Errorf("upload %q held by %q, want D0 still", held.Key, got)
	}
	// A draft may list an upload twice, and hold what it holds again.
	mustCreateDraft(t, db, Draft("D1", Attachment(free), Attachment(free)), "1")
	if _, err := db.UpdateDraft(ctx, Draft("D1", Attachment(free)), tokenHash("1"), tokenHash("1u")); err != nil {
		t.Errorf("UpdateDraft holding its upload again: %v", err)
	}
	// The sweep cannot delete a held upload, even one it listed before
	// the draft held it.
	if err := db.DeleteUpload(ctx, free.Key); !errors.Is(err, hub.ErrUploadClaim) || !strings.Contains(err.Error(), "held by draft D1") {
		t.Errorf("DeleteUpload(%q) = %v, want ErrUploadClaim naming D1", free.Key, err)
	}
	if _, err := db.Upload(ctx, free.Key); err != nil {
		t.Errorf("Upload(%q) after refused DeleteUpload: %v", free.Key, err)
	}
}

// testDraftHook checks that the DraftHook runs in the draft's transaction
// when it has an e-mail address, and only then.
func testDraftHook(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	w := db.Writer()
	if _, err := w.ExecContext(ctx, `CREATE TABLE draft_hook_test (n INTEGER PRIMARY KEY, id TEXT NOT NULL, created_at BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	MustCreateUpload(t, db, Upload("uploads/a"))

	// Without a hook, an address mails nothing.
	d := Draft("D0")
	d.Email = "jane@example.com"
	if mailed, err := db.CreateDraft(ctx, d, tokenHash("0")); err != nil || mailed {
		t.Errorf("CreateDraft without a hook = %v, %v; want false, nil", mailed, err)
	}

	fail := errors.New("hook failed")
	var (
		hookErr error
		mail    bool
		runs    int
	)
	db.SetDraftHook(func(ctx context.Context, tx sqldb.Tx, d hub.Draft) (bool, error) {
		runs++
		if _, err := tx.ExecContext(ctx, `INSERT INTO draft_hook_test (n, id, created_at) VALUES ($1, $2, $3)`, runs, d.ID, d.CreatedAt.UnixMilli()); err != nil {
			return false, err
		}
		if err := tx.Raw(func(c any) error {
			if c == nil {
				return errors.New("no driver connection")
			}
			return nil
		}); err != nil {
			return false, err
		}
		return mail, hookErr
	})
	create := func(d hub.Draft, token string) (bool, error) { return db.CreateDraft(ctx, d, tokenHash(token)) }
	// Each save retires the token it was made with: tokens holds the
	// current token of each draft, by its first.
	tokens := map[string]string{}
	update := func(d hub.Draft, token string) (bool, error) {
		current := cmp.Or(tokens[token], token)
		mailed, err := db.UpdateDraft(ctx, d, tokenHash(current), tokenHash(current+"+"))
		if err == nil {
			tokens[token] = current + "+"
		}
		return mailed, err
	}

	// Without an address, the hook does not run.
	if mailed, err := create(Draft("D1"), "1"); err != nil || mailed || runs != 0 {
		t.Errorf("CreateDraft without e-mail = %v, %v, hook runs %d; want false, nil, 0", mailed, err, runs)
	}
	if mailed, err := update(Draft("D1"), "1"); err != nil || mailed || runs != 0 {
		t.Errorf("UpdateDraft without e-mail = %v, %v, hook runs %d; want false, nil, 0", mailed, err, runs)
	}
	withEmail := func(d hub.Draft) hub.Draft { d.Email = "jane@example.com"; return d }
	for _, m := range []bool{true, false} {
		mail = m
		if mailed, err := create(withEmail(Draft(fmt.Sprintf("D-%v", m))), fmt.Sprint(m)); err != nil || mailed != m {
			t.Errorf("CreateDraft with the hook answering %v = %v, %v", m, mailed, err)
		}
		// The hook sees the stored draft's id and creation time.
		later := withEmail(Draft("caller's"))
		later.CreatedAt = T0.Add(time.Hour)
		if mailed, err := update(later, "1"); err != nil || mailed != m {
			t.Errorf("UpdateDraft with the hook answering %v = %v, %v", m, mailed, err)
		}
	}
	mail, hookErr = true, fail
	if mailed, err := create(withEmail(Draft("D2", Attachment(Upload("uploads/a")))), "2"); !errors.Is(err, fail) || mailed {
		t.Errorf("CreateDraft with the hook failing = %v, %v; want false and the hook's error", mailed, err)
	}
	wantNoDraft(t, db, "D2")
	if got := heldBy(t, db, "uploads/a"); got != "" {
		t.Errorf("upload held by %q after the hook failed, want none", got)
	}
	changed := withEmail(Draft("D1", Attachment(Upload("uploads/a"))))
	changed.Payload = json.RawMessage(`{"changed":true}`)
	if _, err := update(changed, "1"); !errors.Is(err, fail) {
		t.Errorf("UpdateDraft with the hook failing = %v, want the hook's error", err)
	}
	if got, _ := db.DraftByID(ctx, "D1"); got.Email != "jane@example.com" || string(got.Payload) != `{"name":"Jane"}` {
		t.Errorf("DraftByID(D1) = %+v after a failed hook, want the last update's", got)
	}
	if got := heldBy(t, db, "uploads/a"); got != "" {
		t.Errorf("upload held by %q after the hook failed, want none", got)
	}

	rows, err := w.QueryContext(ctx, `SELECT id, created_at FROM draft_hook_test ORDER BY n`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var (
			id      string
			created int64
		)
		if err := rows.Scan(&id, &created); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s@%d", id, created-T0.UnixMilli()))
	}
	if want := []string{"D-true@0", "D1@0", "D-false@0", "D1@0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("hook rows = %v, want %v", got, want)
	}
}

// testDraftTokenRetiredBySave is the attack of someone who saves a draft
// with another's address: the hub mails that address a link with a token
// of its own, and what its owner saves through the link is not read with
// the first token, nor with any token but the one the save answered. A
// save with a new token already in use, or none, changes nothing.
func testDraftTokenRetiredBySave(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	d := Draft("D1")
	d.Email, d.ResumeURL = "victim@example.com", "https://example.com/form"
	mustCreateDraft(t, db, d, "attacker")
	mustCreateDraft(t, db, Draft("D2"), "other")
	// The link's token, as the e-mail's job adds it.
	if err := db.AddDraftToken(ctx, "D1", tokenHash("link")); err != nil {
		t.Fatal(err)
	}

	for i, next := range []string{"", tokenHash("link"), tokenHash("other")} {
		if _, err := db.UpdateDraft(ctx, d, tokenHash("link"), next); err == nil {
			t.Errorf("UpdateDraft with new token hash %d (none, its own, another draft's) succeeded", i)
		}
	}
	if n := tokensOf(t, db, "D1"); n != 2 {
		t.Errorf("D1 has %d tokens after refused saves, want its 2", n)
	}

	victim := d
	victim.Payload = json.RawMessage(`{"name":"Victim's secret"}`)
	victim.UpdatedAt = T0.Add(time.Minute)
	if _, err := db.UpdateDraft(ctx, victim, tokenHash("link"), tokenHash("saved")); err != nil {
		t.Fatalf("the victim's save: %v", err)
	}
	for _, token := range []string{"attacker", "link"} {
		if got, err := db.DraftByToken(ctx, "site", "form", tokenHash(token), T0); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("DraftByToken(%s) after the victim's save = %+v, %v; want ErrNotFound", token, got, err)
		}
		if _, err := db.UpdateDraft(ctx, d, tokenHash(token), tokenHash(token+"+")); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("UpdateDraft(%s) after the victim's save = %v, want ErrNotFound", token, err)
		}
	}
	victim.Attachments = []hubclient.Attachment{}
	wantDraft(t, db, "saved", T0, victim)
	if n := tokensOf(t, db, "D1"); n != 1 {
		t.Errorf("D1 has %d tokens, want the one saved", n)
	}
	if got, err := db.DraftByToken(ctx, "site", "form", tokenHash("other"), T0); err != nil || got.ID != "D2" {
		t.Errorf("another draft's token = %+v, %v; want D2, untouched", got, err)
	}
}

func testDraftTokens(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	d := Draft("D1")
	mustCreateDraft(t, db, d, "1")
	mustCreateDraft(t, db, Draft("D2"), "2")
	if err := db.AddDraftToken(ctx, "D1", tokenHash("1b")); err != nil {
		t.Fatalf("AddDraftToken: %v", err)
	}
	d.Attachments = []hubclient.Attachment{}
	wantDraft(t, db, "1", T0, d)
	wantDraft(t, db, "1b", T0, d)
	// An update through the new token is one of the same draft.
	d.Step = "files"
	if _, err := db.UpdateDraft(ctx, d, tokenHash("1b"), tokenHash("1c")); err != nil {
		t.Fatalf("UpdateDraft through the second token: %v", err)
	}
	wantDraft(t, db, "1c", T0, d)

	if err := db.AddDraftToken(ctx, "none", tokenHash("x")); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("AddDraftToken(none) = %v, want ErrNotFound", err)
	}
	if err := db.AddDraftToken(ctx, "D1", ""); err == nil {
		t.Error("AddDraftToken with an empty hash succeeded")
	}
	// A hash names one draft.
	if err := db.AddDraftToken(ctx, "D1", tokenHash("2")); err == nil {
		t.Error("AddDraftToken with D2's hash succeeded")
	}
	if got, err := db.DraftByToken(ctx, "site", "form", tokenHash("2"), T0); err != nil || got.ID != "D2" {
		t.Errorf("DraftByToken(2) = %+v, %v; want D2", got, err)
	}
	if n := tokensOf(t, db, "D1"); n != 1 {
		t.Errorf("D1 has %d tokens, want 1", n)
	}
}

func testDeleteExpiredDrafts(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	// D1 to D3 expire an hour apart, D4 later; each holds an upload.
	for i, ttl := range []time.Duration{3 * time.Hour, time.Hour, 2 * time.Hour, 10 * time.Hour} {
		id := fmt.Sprintf("D%d", []int{3, 1, 2, 4}[i])
		u := Upload("uploads/" + id)
		MustCreateUpload(t, db, u)
		d := Draft(id, Attachment(u))
		d.ExpiresAt = T0.Add(ttl)
		mustCreateDraft(t, db, d, id)
		if err := db.AddDraftToken(ctx, id, tokenHash(id+"b")); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		now   time.Time
		limit int
		n     int
		gone  []string
	}{
		{T0.Add(time.Hour), 10, 0, nil}, // D1 expires at now: not before it
		{T0.Add(4 * time.Hour), 0, 0, nil},
		{T0.Add(4 * time.Hour), 2, 2, []string{"D1", "D2"}},
		{T0.Add(4 * time.Hour), 10, 1, []string{"D1", "D2", "D3"}},
		{T0.Add(4 * time.Hour), 10, 0, []string{"D1", "D2", "D3"}},
	} {
		n, err := db.DeleteExpiredDrafts(ctx, tt.now, tt.limit)
		if err != nil || n != tt.n {
			t.Errorf("DeleteExpiredDrafts(%v, %d) = %d, %v; want %d", tt.now.Sub(T0), tt.limit, n, err, tt.n)
		}
		var stale []string
		for _, id := range tt.gone {
			wantNoDraft(t, db, id)
			if n := tokensOf(t, db, id); n != 0 {
				t.Errorf("deleted draft %s has %d tokens left", id, n)
			}
			stale = append(stale, "uploads/"+id)
		}
		// Released to the sweep, the uploads of deleted drafts are stale.
		if keys := staleKeys(t, db); !reflect.DeepEqual(keys, stale) {
			t.Errorf("stale uploads after deleting %v = %v, want %v", tt.gone, keys, stale)
		}
	}
	if got, err := db.DraftByID(ctx, "D4"); err != nil || tokensOf(t, db, "D4") != 2 {
		t.Errorf("DraftByID(D4) = %+v, %v; want it kept with its two tokens", got, err)
	}
}

// testDraftFinished checks that a submission finishing a draft deletes it
// in its transaction, and that a submission refused leaves it.
func testDraftFinished(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	for _, key := range []string{"uploads/sent", "uploads/dropped", "uploads/other"} {
		MustCreateUpload(t, db, Upload(key))
	}
	sent, dropped := Upload("uploads/sent"), Upload("uploads/dropped")
	mustCreateDraft(t, db, Draft("D1", Attachment(sent), Attachment(dropped)), "1")
	if err := db.AddDraftToken(ctx, "D1", tokenHash("1b")); err != nil {
		t.Fatal(err)
	}
	other := Draft("D2", Attachment(Upload("uploads/other")))
	mustCreateDraft(t, db, other, "2")
	first := Submission("S0")
	first.IdempotencyKey = "k"
	if err := db.CreateSubmission(ctx, first); err != nil {
		t.Fatal(err)
	}

	// Refused, a submission keeps the draft it would have finished.
	repeat := Submission("S1", Attachment(sent))
	repeat.IdempotencyKey, repeat.DraftHash = "k", tokenHash("1")
	if err := db.CreateSubmission(ctx, repeat); !errors.Is(err, hub.ErrKeyUsed) {
		t.Errorf("CreateSubmission with a used key = %v, want ErrKeyUsed", err)
	}
	full := limited("S2", 1)
	full.Attachments, full.DraftHash = []hubclient.Attachment{Attachment(sent)}, tokenHash("1")
	if err := db.CreateSubmission(ctx, full); !errors.Is(err, hub.ErrClosed) {
		t.Errorf("CreateSubmission over the limit = %v, want ErrClosed", err)
	}
	missing := Submission("S3", Attachment(sent), Attachment(Upload("uploads/missing")))
	missing.DraftHash = tokenHash("1")
	if err := db.CreateSubmission(ctx, missing); !errors.Is(err, hub.ErrUploadClaim) {
		t.Errorf("CreateSubmission of a missing upload = %v, want ErrUploadClaim", err)
	}
	if _, err := db.DraftByID(ctx, "D1"); err != nil || tokensOf(t, db, "D1") != 2 {
		t.Errorf("DraftByID(D1) after refused submissions: %v; want it kept with its two tokens", err)
	}
	if keys := staleKeys(t, db); keys != nil {
		t.Errorf("stale uploads = %v after refused submissions, want none", keys)
	}

	// A hash of no draft, or of another form's, deletes nothing.
	stray := Submission("S4")
	stray.DraftHash = tokenHash("none")
	if err := db.CreateSubmission(ctx, stray); err != nil {
		t.Errorf("CreateSubmission with an unknown draft: %v", err)
	}
	elsewhere := Submission("S5")
	elsewhere.Slug, elsewhere.DraftHash = "elsewhere", tokenHash("2")
	if err := db.CreateSubmission(ctx, elsewhere); err != nil {
		t.Errorf("CreateSubmission with another form's draft: %v", err)
	}
	if _, err := db.DraftByID(ctx, "D2"); err != nil {
		t.Errorf("DraftByID(D2) after another form's submission: %v", err)
	}

	// Stored, the submission deletes the draft, whichever token it
	// carries, and what the draft held and the submission does not goes
	// back to the sweep.
	done := Submission("S6", Attachment(sent))
	done.DraftHash = tokenHash("1b")
	if err := db.CreateSubmission(ctx, done); err != nil {
		t.Fatalf("CreateSubmission finishing D1: %v", err)
	}
	wantNoDraft(t, db, "D1")
	if n := tokensOf(t, db, "D1"); n != 0 {
		t.Errorf("finished draft has %d tokens left", n)
	}
	if keys := staleKeys(t, db); !reflect.DeepEqual(keys, []string{"uploads/dropped"}) {
		t.Errorf("stale uploads = %v, want [uploads/dropped]", keys)
	}
	if got, err := db.Upload(ctx, sent.Key); err != nil || got.SubmissionID != "S6" {
		t.Errorf("Upload(%q) = %+v, %v; want claimed by S6", sent.Key, got, err)
	}
	if got := heldBy(t, db, sent.Key); got != "" {
		t.Errorf("upload %q held by %q, want none", sent.Key, got)
	}
	if _, err := db.DraftByID(ctx, "D2"); err != nil {
		t.Errorf("DraftByID(D2): %v", err)
	}
}

// testDraftFinishedTogether checks that submissions stored together each
// delete their draft, or keep it when refused (on SQLite, which stores
// submissions arriving together in one transaction, within savepoints).
func testDraftFinishedTogether(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	const n = 16
	for i := range n {
		u := Upload(fmt.Sprintf("uploads/%02d", i))
		MustCreateUpload(t, db, u)
		mustCreateDraft(t, db, Draft(fmt.Sprintf("D%02d", i), Attachment(u)), fmt.Sprint(i))
	}
	fail := errors.New("hook failed")
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		if strings.HasSuffix(s.ID, "odd") {
			return fail
		}
		return nil
	})
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			s := Submission(fmt.Sprintf("S%02d", i))
			if i%2 == 1 {
				s.ID += "odd"
			}
			s.DraftHash = tokenHash(fmt.Sprint(i))
			errs[i] = db.CreateSubmission(ctx, s)
		})
	}
	wg.Wait()
	var stale []string
	for i, err := range errs {
		id := fmt.Sprintf("D%02d", i)
		if i%2 == 1 {
			if !errors.Is(err, fail) {
				t.Errorf("submission %d = %v, want the hook's error", i, err)
			}
			if _, err := db.DraftByID(ctx, id); err != nil {
				t.Errorf("DraftByID(%s) after its submission failed: %v", id, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("submission %d: %v", i, err)
		}
		wantNoDraft(t, db, id)
		stale = append(stale, fmt.Sprintf("uploads/%02d", i))
	}
	if keys := staleKeys(t, db); !reflect.DeepEqual(keys, stale) {
		t.Errorf("stale uploads = %v, want %v", keys, stale)
	}
}
