package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

// personForm is a form with an address, a message, files and a webhook to
// HOOK.
const personForm = `{"title": "Contact",
  "fields": [
    {"name": "name", "type": "text", "label": "Name"},
    {"name": "email", "type": "email", "label": "E-mail"},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "files", "type": "file", "label": "Files", "multiple": true}
  ],
  "steps": [{"id": "main", "fields": ["name", "email", "message", "files"]}],
  "hub": {"webhooks": [{"url": "HOOK", "secret": "` + webhookSecret + `"}]}}`

// personHub is a hub process whose workspace default owns acme/contact
// and acme/signup and whose workspace other owns theirs/contact, with
// Anna's submissions (anna@example.com) to all three, the first with a
// file, and Bob's to acme/contact, whose message quotes Anna's address.
// The contact forms' webhooks go to a closed port: their deliveries wait
// an hour to be retried.
type personHub struct {
	*hubProcess
	data string
	// where are the flags that name its database: --data DIR, and --db.
	where []string
	// blobURL is its bucket, empty for files in DATA/files.
	blobURL string
	// anna holds Anna's submission ids by site/form, bob Bob's.
	anna map[string]string
	bob  string
	// file is the key of Anna's file.
	file string
}

// startPersonHub starts a personHub on SQLite, or on the PostgreSQL
// database of dbURL, with its files in the data directory, or in the
// bucket of blobURL.
func startPersonHub(t *testing.T, dbURL, blobURL string) *personHub {
	t.Helper()
	ctx := context.Background()
	h := &personHub{data: t.TempDir(), blobURL: blobURL, anna: map[string]string{}}
	h.where = []string{"--data", h.data}
	if dbURL != "" {
		h.where = append(h.where, "--db", dbURL)
	}
	addUser(t, "owner@example.com", "correct horse battery", h.where...)
	if status, _, stderr := hubform(t, append([]string{"workspaces", "create", "other", "--admin", "owner@example.com"}, h.where...)...); status != 0 {
		t.Fatalf("workspaces create: %d %s", status, stderr)
	}
	closed, err := testkit.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	form := strings.ReplaceAll(personForm, "HOOK", "http://"+closed+"/hook")
	// The other workspace's form is in the database: the forms
	// directory's sites are the default workspace's.
	db, err := hubserver.OpenDatabase(ctx, dbURL, h.data, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.ClaimSite(ctx, "theirs", "other", time.Now())
	if err == nil {
		_, err = db.SaveFormVersion(ctx, "theirs", "contact", []byte(form), "test", time.Now())
	}
	if err == nil {
		err = db.PublishFormVersion(ctx, "theirs", "contact", 1, time.Now())
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	forms := t.TempDir()
	for path, body := range map[string]string{"acme/contact": form, "acme/signup": form} {
		os.MkdirAll(filepath.Join(forms, filepath.Dir(path)), 0o755)
		if err := os.WriteFile(filepath.Join(forms, path+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extra := []string{"--webhook-allow-nets", "127.0.0.0/8", "--delivery-backoff", "1h"}
	if dbURL != "" {
		extra = append(extra, "--db", dbURL)
	}
	if blobURL != "" {
		extra = append(extra, "--blob", blobURL)
	}
	h.hubProcess = startHub(t, forms, h.data, extra...)

	cv := filepath.Join(t.TempDir(), "cv.pdf")
	os.WriteFile(cv, []byte("%PDF-1.4 Anna's CV"), 0o600)
	submit := func(form string, values ...string) string {
		t.Helper()
		site, slug, _ := strings.Cut(form, "/")
		status, stdout, stderr := hubform(t, append([]string{"submit", "--hub-url", h.url, "--site", site, "--form", slug}, values...)...)
		if status != 0 {
			t.Fatalf("submit to %s: %d %s; hub log:\n%s", form, status, stderr, h.log)
		}
		return strings.TrimSpace(stdout)
	}
	h.anna["acme/contact"] = submit("acme/contact", "name=Anna", "email=Anna@Example.com", "files=@"+cv)
	h.anna["acme/signup"] = submit("acme/signup", "email=anna@example.com")
	h.anna["theirs/contact"] = submit("theirs/contact", "email=anna@example.com")
	h.bob = submit("acme/contact", "name=Bob", "email=bob@example.com", "message=my colleague is anna@example.com")

	for _, s := range h.submissions(t) {
		if s.ID == h.anna["acme/contact"] && len(s.Attachments) == 1 {
			h.file = s.Attachments[0].Key
		}
	}
	if h.file == "" || !h.fileStored(t) {
		t.Fatalf("Anna's file %q is not stored", h.file)
	}
	// Every delivery has failed once and waits: none is under way when
	// the test erases.
	waitForN(t, 30*time.Second, func() bool {
		ds := append(h.deliveries(t, "acme/contact"), h.deliveries(t, "acme/signup")...)
		ds = append(ds, h.deliveries(t, "theirs/contact")...)
		return len(ds) == 4 && !slices.ContainsFunc(ds, func(d delivery.Delivery) bool { return d.Outcome != delivery.OutcomeRetrying })
	})
	return h
}

// fileStored reports whether Anna's file is in the hub's storage.
func (h *personHub) fileStored(t *testing.T) bool {
	t.Helper()
	if h.blobURL == "" {
		_, err := os.Stat(filepath.Join(h.data, "files", filepath.FromSlash(h.file)))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return err == nil
	}
	bucket, err := s3blob.Open(context.Background(), h.blobURL)
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	_, _, err = bucket.Attributes(context.Background(), h.file)
	if err != nil && !errors.Is(err, hub.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

// submissions returns every submission of the hub, as
// "hubform submissions export" prints them.
func (h *personHub) submissions(t *testing.T) []hub.Submission {
	t.Helper()
	status, stdout, stderr := hubform(t, append([]string{"submissions", "export"}, h.where...)...)
	var all []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &all) != nil {
		t.Fatalf("submissions export: %d %q %q", status, stdout, stderr)
	}
	return all
}

// ids returns the ids of the hub's submissions, sorted.
func (h *personHub) ids(t *testing.T) []string {
	t.Helper()
	var ids []string
	for _, s := range h.submissions(t) {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	return ids
}

// deliveries returns the deliveries of the form site/slug, as
// "hubform deliveries list" prints them.
func (h *personHub) deliveries(t *testing.T, form string) []delivery.Delivery {
	t.Helper()
	site, slug, _ := strings.Cut(form, "/")
	status, stdout, stderr := hubform(t, append([]string{"deliveries", "list", "--site", site, "--form", slug, "--format", "json"}, h.where...)...)
	var ds []delivery.Delivery
	if status != 0 || json.Unmarshal([]byte(stdout), &ds) != nil {
		t.Fatalf("deliveries list: %d %q %q", status, stdout, stderr)
	}
	return ds
}

// deliveredFor returns the submission ids of the deliveries of site/slug.
func (h *personHub) deliveredFor(t *testing.T, form string) []string {
	t.Helper()
	var ids []string
	for _, d := range h.deliveries(t, form) {
		ids = append(ids, d.SubmissionID)
	}
	return ids
}

// sortedIDs returns ids sorted.
func sortedIDs(ids ...string) []string {
	slices.Sort(ids)
	return ids
}

// personExport is the JSON of a person's data.
type personExport struct {
	Email       string
	Workspace   string
	Submissions []privacy.Submission
}

// TestPeopleAPI asks a hub process's admin API for Anna's data and then
// erases it, on SQLite and PostgreSQL: a token of scope submissions:read
// gets 403, a token of another workspace erases its own submission alone,
// and the erasure takes Anna's submissions, file and pending delivery of
// the workspace, leaving Bob's, and is audited without her address.
func TestPeopleAPI(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); testPeopleAPI(t, "", "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); testPeopleAPI(t, pgtest.URL(t), "") })
}

func testPeopleAPI(t *testing.T, dbURL, blobURL string) {
	h := startPersonHub(t, dbURL, blobURL)
	token := createToken(t, h.where...)
	newToken := func(workspace, name, scope string) string {
		t.Helper()
		status, stdout, stderr := hubform(t, append([]string{"tokens", "create", "--workspace", workspace, "--name", name, "--scope", scope}, h.where...)...)
		if status != 0 {
			t.Fatalf("tokens create: %d %s", status, stderr)
		}
		return strings.TrimSpace(stdout)
	}
	reader, theirs := newToken("default", "reader", "submissions:read"), newToken("other", "theirs", "all")
	call := func(token, method, path, body string) (int, string) {
		t.Helper()
		return apiCall(t, strings.TrimSuffix(h.url, "/v1"), token, method, path, body)
	}
	const exportPath, erasePath, annaBody = "/v1/admin/people?email=anna%40example.com", "/v1/admin/people/erase", `{"email": "ANNA@example.com"}`
	export := func() personExport {
		t.Helper()
		status, body := call(token, http.MethodGet, exportPath, "")
		var got personExport
		if status != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil {
			t.Fatalf("export: %d %s", status, body)
		}
		return got
	}

	got := export()
	var ids []string
	for _, s := range got.Submissions {
		ids = append(ids, s.ID)
		if want := s.ID == h.anna["acme/contact"]; want != (len(s.Attachments) == 1 && s.Attachments[0].Filename == "cv.pdf") {
			t.Errorf("submission %s/%s has attachments %+v", s.Site, s.Form, s.Attachments)
		}
	}
	if want := sortedIDs(h.anna["acme/contact"], h.anna["acme/signup"]); !slices.Equal(sortedIDs(ids...), want) || got.Workspace != "default" {
		t.Fatalf("export of Anna: workspace %s, ids %v, want default and %v", got.Workspace, ids, want)
	}

	for _, r := range [][2]string{{http.MethodGet, exportPath}, {http.MethodPost, erasePath}} {
		if status, body := call(reader, r[0], r[1], annaBody); status != http.StatusForbidden {
			t.Errorf("%s %s with a token of scope submissions:read: %d %s, want 403", r[0], r[1], status, body)
		}
	}
	if status, body := call(token, http.MethodPost, erasePath, `{"email": "Anna <anna@example.com>"}`); status != http.StatusBadRequest {
		t.Errorf("erase of a name and address: %d %s, want 400", status, body)
	}
	// The other workspace's token erases Anna's submission there, and
	// nothing of this workspace.
	status, body := call(theirs, http.MethodPost, erasePath, annaBody)
	var erased admin.Erased
	if status != http.StatusOK || json.Unmarshal([]byte(body), &erased) != nil || erased.Submissions != 1 {
		t.Errorf("erase with another workspace's token: %d %s, want its one submission erased", status, body)
	}
	if again := export(); len(again.Submissions) != 2 {
		t.Fatalf("after another workspace's erasure, export of Anna holds %d submissions, want 2", len(again.Submissions))
	}

	status, body = call(token, http.MethodPost, erasePath, annaBody)
	if status != http.StatusOK || json.Unmarshal([]byte(body), &erased) != nil {
		t.Fatalf("erase: %d %s", status, body)
	}
	if want := (admin.Erased{OK: true, Erased: privacy.Erased{Submissions: 2, Files: 1, Deliveries: 2}}); erased != want {
		t.Errorf("erase answered %+v, want %+v", erased, want)
	}
	if ids := h.ids(t); !slices.Equal(ids, []string{h.bob}) {
		t.Errorf("submissions left %v, want Bob's %s alone", ids, h.bob)
	}
	if h.fileStored(t) {
		t.Error("Anna's file is still stored")
	}
	if ds := h.deliveredFor(t, "acme/contact"); !slices.Equal(ds, []string{h.bob}) {
		t.Errorf("deliveries of acme/contact left for %v, want Bob's alone", ds)
	}
	if ds := h.deliveredFor(t, "acme/signup"); len(ds) != 0 {
		t.Errorf("deliveries of acme/signup left for %v, want none", ds)
	}
	if got := export(); len(got.Submissions) != 0 {
		t.Errorf("export after the erasure holds %+v", got.Submissions)
	}

	status, body = call(token, http.MethodGet, "/v1/admin/audit", "")
	var log admin.EventList
	if status != http.StatusOK || json.Unmarshal([]byte(body), &log) != nil {
		t.Fatalf("audit: %d %s", status, body)
	}
	found := slices.ContainsFunc(log.Events, func(e accounts.Event) bool {
		return e.Action == "submissions deleted" && e.Target == "a***@example.com" && e.Actor == "token ci" &&
			e.Detail == (privacy.Erased{Submissions: 2, Files: 1, Deliveries: 2}).Detail()
	})
	if !found {
		t.Errorf("no audit event of the erasure with its counts: %s", body)
	}
	if strings.Contains(strings.ToLower(body), "anna@example.com") {
		t.Errorf("the audit log holds Anna's address: %s", body)
	}
}

// TestSubmissionsPersonCommand exports and erases Anna's data with
// "hubform submissions" while the hub serves, on SQLite and PostgreSQL
// with files in the data directory:
// her submissions of the workspace, their file and their pending
// deliveries go, Bob's and those of another workspace stay, and the
// workspace's audit log counts them without her address.
func TestSubmissionsPersonCommand(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); testSubmissionsPerson(t, "", "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); testSubmissionsPerson(t, pgtest.URL(t), "") })
}

// TestSubmissionsPersonCommandInBucket erases Anna's data, her file in a
// bucket included, as the hubs that scale out keep it. It is not parallel:
// the bucket's credentials are in the environment.
func TestSubmissionsPersonCommandInBucket(t *testing.T) {
	dbURL, blobURL := sharedStorage(t)
	testSubmissionsPerson(t, dbURL, blobURL)
}

func testSubmissionsPerson(t *testing.T, dbURL, blobURL string) {
	h := startPersonHub(t, dbURL, blobURL)
	person := func(verb, email string) (int, string, string) {
		t.Helper()
		args := append([]string{"submissions", verb, "--workspace", "default", "--email", email}, h.where...)
		if blobURL != "" {
			args = append(args, "--blob", blobURL)
		}
		return hubform(t, args...)
	}

	status, stdout, stderr := person("export", "ANNA@example.com")
	var got personExport
	if status != 0 || json.Unmarshal([]byte(stdout), &got) != nil {
		t.Fatalf("export: %d %q %q", status, stdout, stderr)
	}
	var ids []string
	for _, s := range got.Submissions {
		ids = append(ids, s.ID)
	}
	if want := sortedIDs(h.anna["acme/contact"], h.anna["acme/signup"]); !slices.Equal(sortedIDs(ids...), want) || got.Workspace != "default" {
		t.Errorf("export of Anna: workspace %s, ids %v, want default and %v", got.Workspace, ids, want)
	}

	status, stdout, stderr = person("erase", " Anna@Example.com")
	if want := "erased 2 submissions, 1 file, 2 pending deliveries and 0 drafts of a***@example.com\n"; status != 0 || stdout != want {
		t.Fatalf("erase: %d %q %q, want %q", status, stdout, stderr, want)
	}
	if ids, want := h.ids(t), sortedIDs(h.bob, h.anna["theirs/contact"]); !slices.Equal(ids, want) {
		t.Errorf("submissions left %v, want Bob's and the other workspace's %v", ids, want)
	}
	if h.fileStored(t) {
		t.Error("Anna's file is still stored")
	}
	for form, want := range map[string][]string{"acme/contact": {h.bob}, "acme/signup": nil, "theirs/contact": {h.anna["theirs/contact"]}} {
		if ds := h.deliveredFor(t, form); !slices.Equal(ds, want) {
			t.Errorf("deliveries of %s left for %v, want %v", form, ds, want)
		}
	}

	db, err := hubserver.OpenDatabase(context.Background(), dbURL, h.data, true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	events, err := db.Events(context.Background(), "default", "", 50)
	if err != nil || len(events) == 0 {
		t.Fatalf("audit log: %v, %v", events, err)
	}
	if e, want := events[0], (accounts.Event{Workspace: "default", Actor: accounts.Operator, Action: accounts.ActionSubmissionsDeleted,
		Target: "a***@example.com", Detail: (privacy.Erased{Submissions: 2, Files: 1, Deliveries: 2}).Detail()}); e.Workspace != want.Workspace ||
		e.Actor != want.Actor || e.Action != want.Action || e.Target != want.Target || e.Detail != want.Detail || e.Client != "" {
		t.Errorf("newest audit event %+v, want %+v", e, want)
	}
	if len(events) < 2 {
		t.Fatalf("audit log %+v, want the export before the erasure", events)
	}
	if e := events[1]; e.Action != accounts.ActionSubmissionsExport || e.Actor != accounts.Operator ||
		e.Target != "a***@example.com" || e.Detail != privacy.ExportDetail {
		t.Errorf("audit event before the erasure %+v, want the export", e)
	}
	others, err := db.Events(context.Background(), "other", "", 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(events, others...) {
		if strings.Contains(strings.ToLower(e.Target+" "+e.Detail), "anna@example.com") {
			t.Errorf("audit event %+v holds Anna's address", e)
		}
		if e.Workspace == "other" && e.Action == accounts.ActionSubmissionsDeleted {
			t.Errorf("the other workspace's audit log has an erasure: %+v", e)
		}
	}

	// Nothing of Anna's is left to erase; the erasure is recorded all the
	// same, as the request was answered.
	status, stdout, stderr = person("erase", "anna@example.com")
	if want := "erased 0 submissions, 0 files, 0 pending deliveries and 0 drafts of a***@example.com\n"; status != 0 || stdout != want {
		t.Errorf("second erase: %d %q %q, want %q", status, stdout, stderr, want)
	}
	if ids := h.ids(t); len(ids) != 2 {
		t.Errorf("after a second erasure, %d submissions left, want 2", len(ids))
	}
}
