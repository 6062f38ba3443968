package privacy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

type forms map[string]*hub.Form

func (f forms) Lookup(site, slug string) (*hub.Form, error) {
	if form, ok := f[site+"/"+slug]; ok {
		return form, nil
	}
	return nil, hub.ErrNotFound
}

// fixture is a workspace acme owning site "site", whose form has a
// webhook, with Anna's two submissions (one with a file), Bob's one, and
// Anna's one in another workspace.
func fixture(t *testing.T) (*sqldb.DB, *privacy.People, *delivery.Queue) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fs := forms{
		"site/form":   {Site: "site", Slug: "form", Settings: hub.Settings{Webhooks: []hub.Webhook{{URL: "https://a.example/hook", Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}}},
		"theirs/form": {Site: "theirs", Slug: "form"},
	}
	q, err := delivery.OpenSQLite(ctx, db, delivery.Config{Forms: fs, Submissions: db}, delivery.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	db.SetSubmissionHook(q.Hook())
	if err := db.CreateUser(ctx, accounts.User{Email: "owner@example.com", PasswordHash: "$argon2id$x", CreatedAt: storetest.T0}); err != nil {
		t.Fatal(err)
	}
	for site, ws := range map[string]string{"site": "acme", "theirs": "other"} {
		if err := db.CreateWorkspace(ctx, ws, "owner@example.com", storetest.T0); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ClaimSite(ctx, site, ws, storetest.T0); err != nil {
			t.Fatal(err)
		}
	}
	u := storetest.Upload("uploads/cv")
	storetest.MustCreateUpload(t, db, u)
	files := storedFiles{u.Key: true}
	for _, s := range []struct{ id, site, payload string }{
		{"S1", "site", `{"name":"Anna Österberg","email":"anna@example.com"}`},
		{"S2", "site", `{"name":"Bob","email":"bob@example.com"}`},
		{"S3", "site", `{"email":"ANNA@example.com","note":"second"}`},
		{"S4", "theirs", `{"email":"anna@example.com"}`},
	} {
		sub := storetest.Submission(s.id)
		if s.id == "S3" {
			sub = storetest.Submission(s.id, storetest.Attachment(u))
		}
		sub.Site, sub.Payload = s.site, json.RawMessage(s.payload)
		if err := db.CreateSubmission(ctx, sub); err != nil {
			t.Fatal(err)
		}
	}
	// Anna saved a form half filled, and had its link mailed.
	d := storetest.Draft("D1")
	d.Email, d.Payload = "anna@example.com", json.RawMessage(`{"name":"Anna"}`)
	if _, err := db.CreateDraft(ctx, d, hub.DraftHash("D1")); err != nil {
		t.Fatal(err)
	}
	return db, &privacy.People{Store: db, Files: files, Deliveries: q}, q
}

// askedDeliveries notes the address whose requests to confirm it were
// deleted.
// storedFiles is the hub's storage of the fixture: the keys of the files
// it holds.
type storedFiles map[string]bool

func (f storedFiles) Delete(_ context.Context, key string) error {
	delete(f, key)
	return nil
}

type askedDeliveries struct {
	privacy.Deliveries
	asked []string
}

func (a *askedDeliveries) DeleteRequests(ctx context.Context, workspace, address string) (int, error) {
	a.asked = append(a.asked, workspace+" "+address)
	return a.Deliveries.DeleteRequests(ctx, workspace, address)
}

func TestErase(t *testing.T) {
	ctx := context.Background()
	db, p, q := fixture(t)
	asked := &askedDeliveries{Deliveries: p.Deliveries}
	p.Deliveries = asked
	e, err := p.Erase(ctx, "acme", " Anna@Example.com")
	if want := []string{"acme  Anna@Example.com"}; !slices.Equal(asked.asked, want) {
		t.Errorf("requests to confirm deleted for %q, want %q", asked.asked, want)
	}
	if err != nil {
		t.Fatal(err)
	}
	if want := (privacy.Erased{Submissions: 2, Files: 1, Deliveries: 2, Drafts: 1}); e != want {
		t.Errorf("Erase = %+v, want %+v", e, want)
	}
	if p.Files.(storedFiles)["uploads/cv"] {
		t.Error("the erased submission's file is still stored")
	}
	list, err := q.List(ctx, "site", "form")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].SubmissionID != "S2" {
		t.Errorf("deliveries left %+v, want Bob's alone", list)
	}
	for id, want := range map[string]bool{"S1": false, "S2": true, "S3": false, "S4": true} {
		if _, err := db.Submission(ctx, id); (err == nil) != want {
			t.Errorf("Submission(%s) kept %v, want %v", id, err == nil, want)
		}
	}
}

func TestExport(t *testing.T) {
	_, p, _ := fixture(t)
	var buf bytes.Buffer
	if err := p.Export(context.Background(), "acme", "anna@example.com", &buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Email       string
		Workspace   string
		Submissions []privacy.Submission
		Drafts      []privacy.Draft
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, buf.String())
	}
	if got.Email != "anna@example.com" || got.Workspace != "acme" || len(got.Submissions) != 2 {
		t.Fatalf("export = %s", buf.String())
	}
	if !strings.Contains(buf.String(), `"attachments":[]`) {
		t.Errorf("a submission without files has no empty list of attachments: %s", buf.String())
	}
	s1, s3 := got.Submissions[0], got.Submissions[1]
	if s1.ID != "S1" || s1.Site != "site" || s1.Form != "form" || !s1.CreatedAt.Equal(storetest.T0) ||
		!strings.Contains(string(s1.Values), "Anna Österberg") || len(s1.Attachments) != 0 {
		t.Errorf("first submission = %+v", s1)
	}
	if want := []privacy.File{{Filename: "cv.pdf", Size: 1234, MIME: "application/pdf"}}; s3.ID != "S3" || !reflect.DeepEqual(s3.Attachments, want) {
		t.Errorf("second submission = %+v, want S3 with %+v", s3, want)
	}
	if len(got.Drafts) != 1 || got.Drafts[0].Email != "anna@example.com" || string(got.Drafts[0].Values) != `{"name":"Anna"}` ||
		got.Drafts[0].Site != "site" || !got.Drafts[0].ExpiresAt.Equal(storetest.T0.Add(24*time.Hour)) {
		t.Errorf("drafts = %+v, want Anna's", got.Drafts)
	}

	buf.Reset()
	if err := p.Export(context.Background(), "acme", "nobody@example.com", &buf); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(buf.String()) != `{"email":"nobody@example.com","workspace":"acme","submissions":[],"drafts":[]}` {
		t.Errorf("export of no one = %s", buf.String())
	}
}

func TestValidAddressAndMask(t *testing.T) {
	for email, want := range map[string]bool{
		"anna@example.com": true, " anna@example.com ": true, "Anna <anna@example.com>": false,
		"anna": false, "": false, "a b@example.com": false, "anna@example.com, bob@example.com": false,
	} {
		if got := privacy.ValidAddress(email); got != want {
			t.Errorf("ValidAddress(%q) = %v, want %v", email, got, want)
		}
	}
	for email, want := range map[string]string{"Anna@Example.com": "a***@example.com", "Émile@x.fr": "é***@x.fr", "nope": "***"} {
		if got := privacy.Mask(email); got != want {
			t.Errorf("Mask(%q) = %q, want %q", email, got, want)
		}
	}
}
