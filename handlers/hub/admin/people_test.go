package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/hubclient"
)

const peopleForm = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Your name"},{"name":"email","type":"email","label":"E-mail"},{"name":"cv","type":"file","label":"CV"}],"steps":[{"id":"s","fields":["name","email","cv"]}]}`

// TestPeopleAPI exports and erases a person's data with tokens of two
// workspaces and of two scopes, reads a submission's spam reasons and
// prints one as a PDF.
func TestPeopleAPI(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	if err := db.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "other", "ann@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	newToken := func(name, workspace string, scope accounts.Scope) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: workspace, Scope: scope}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	reader := newToken("reader", accounts.DefaultWorkspace, accounts.ScopeSubmissionsRead)
	theirs := newToken("theirs", "other", accounts.ScopeAll)
	for site, ws := range map[string]string{"acme": accounts.DefaultWorkspace, "theirs": "other"} {
		if _, err := db.ClaimSite(ctx, site, ws, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveFormVersion(ctx, site, "contact", []byte(peopleForm), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := db.PublishFormVersion(ctx, site, "contact", 1, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	files := &memFiles{files: map[string][]byte{}}
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	submit := func(site, payload string, n int, file string, reasons ...string) string {
		t.Helper()
		created := day.Add(time.Duration(n) * time.Minute)
		s := hub.Submission{ID: hub.NewID(created), Site: site, Slug: "contact", CreatedAt: created, FormVersion: 1,
			Payload: json.RawMessage(payload), Attachments: []hubclient.Attachment{}, Spam: len(reasons) > 0, SpamReasons: reasons}
		if file != "" {
			u := hub.Upload{Key: site + "/" + s.ID, Site: site, Slug: "contact", Filename: file, MIME: "application/pdf", Size: 4,
				CreatedAt: created, ExpiresAt: created.Add(time.Hour), UploadedAt: created}
			if err := db.CreateUpload(ctx, u); err != nil {
				t.Fatal(err)
			}
			files.files[u.Key] = []byte("%PDF")
			s.Attachments = append(s.Attachments, hubclient.Attachment{Key: u.Key, Filename: file, Size: 4, MIME: "application/pdf", Field: "cv"})
		}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	anna := submit("acme", `{"name":"Anna Ærø","email":"anna@example.com"}`, 1, "lettre-de-motivation.pdf")
	bob := submit("acme", `{"name":"Bob","email":"bob@example.com"}`, 2, "")
	annaSpam := submit("acme", `{"name":"Anna","email":"ANNA@example.com"}`, 3, "", "too many links")
	annaTheirs := submit("theirs", `{"name":"Anna","email":"anna@example.com"}`, 4, "")

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	api, err := admin.New(withServices(db, admin.Config{Tokens: db, Sites: db, Audit: db, Logger: logger,
		Inbox: &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Files: files, Logger: logger}},
		&privacy.People{Store: db, Files: files, Logger: logger}))
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	do := func(secret, method, path, body string) (int, http.Header, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+admin.Prefix+path, strings.NewReader(body))
		if secret != "" {
			req.Header.Set("Authorization", "Bearer "+secret)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, b
	}
	exportIDs := func(secret, email string) []string {
		t.Helper()
		status, h, body := do(secret, "GET", "/people?email="+email, "")
		var got struct{ Submissions []privacy.Submission }
		if err := json.Unmarshal(body, &got); status != http.StatusOK || err != nil || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
			t.Fatalf("export of %s: %d %v %s", email, status, err, body)
		}
		var ids []string
		for _, s := range got.Submissions {
			ids = append(ids, s.ID)
		}
		return ids
	}

	// Closed without a token, to a token of a lesser scope, and to a
	// request that names no address.
	for _, r := range [][2]string{{"GET", "/people?email=anna@example.com"}, {"POST", "/people/erase"}} {
		if status, _, body := do("", r[0], r[1], `{"email":"anna@example.com"}`); status != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: %d %s, want 401", r[0], r[1], status, body)
		}
		if status, _, body := do(reader, r[0], r[1], `{"email":"anna@example.com"}`); status != http.StatusForbidden {
			t.Errorf("%s %s with a submissions:read token: %d %s, want 403", r[0], r[1], status, body)
		}
	}
	for _, r := range [][3]string{{"GET", "/people", ""}, {"GET", "/people?email=Anna+%3Canna@example.com%3E", ""},
		{"POST", "/people/erase", `{}`}, {"POST", "/people/erase", `nonsense`}, {"POST", "/people/erase", `{"email":"anna"}`}} {
		if status, _, body := do(token, r[0], r[1], r[2]); status != http.StatusBadRequest || strings.Contains(string(body), "anna") {
			t.Errorf("%s %s %s: %d %s, want 400 without the input", r[0], r[1], r[2], status, body)
		}
	}

	// Export: each workspace's token finds its own.
	if got := exportIDs(token, "Anna@Example.com"); strings.Join(got, ",") != anna+","+annaSpam {
		t.Errorf("export by acme's token: %v, want %s and %s", got, anna, annaSpam)
	}
	if got := exportIDs(theirs, "anna@example.com"); strings.Join(got, ",") != annaTheirs {
		t.Errorf("export by the other workspace's token: %v, want %s alone", got, annaTheirs)
	}

	// A submission's spam reasons, in its JSON.
	_, _, body := do(reader, "GET", "/forms/acme/contact/submissions/"+annaSpam, "")
	if !strings.Contains(string(body), `"spamReasons":["too many links"]`) {
		t.Errorf("a flagged submission's JSON: %s", body)
	}
	if _, _, body := do(reader, "GET", "/forms/acme/contact/submissions/"+bob, ""); strings.Contains(string(body), "spamReasons") {
		t.Errorf("an unflagged submission's JSON has spam reasons: %s", body)
	}

	// The PDF, to a reader of the workspace alone.
	status, h, pdf := do(reader, "GET", "/forms/acme/contact/submissions/"+anna+"/pdf", "")
	if status != http.StatusOK || h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("PDF: %d %v %.40q", status, h, pdf)
	}
	text := pdfText(t, pdf)
	for _, want := range []string{"Contact", "Submission " + anna, "Your name Anna Ærø", "E-mail anna@example.com", "lettre-de-motivation.pdf (4 B)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q: %s", want, text)
		}
	}
	for _, path := range []string{"/forms/acme/contact/submissions/" + anna + "/pdf", "/forms/acme/contact/submissions/nope/pdf"} {
		secret := theirs
		if strings.Contains(path, "nope") {
			secret = token
		}
		if status, _, body := do(secret, "GET", path, ""); status != http.StatusNotFound || bytes.Contains(body, []byte("Anna")) {
			t.Errorf("GET %s: %d %s, want 404", path, status, body)
		}
	}

	// Erasure: the other workspace's token erases its own alone.
	status, _, body = do(theirs, "POST", "/people/erase", `{"email":"anna@example.com"}`)
	if status != http.StatusOK || string(bytes.TrimSpace(body)) != `{"ok":true,"erased":1,"files":0,"deliveries":0,"drafts":0}` {
		t.Errorf("erase by the other workspace's token: %d %s", status, body)
	}
	status, _, body = do(token, "POST", "/people/erase", `{"email":" anna@EXAMPLE.com "}`)
	if status != http.StatusOK || string(bytes.TrimSpace(body)) != `{"ok":true,"erased":2,"files":1,"deliveries":0,"drafts":0}` {
		t.Errorf("erase: %d %s", status, body)
	}
	for id, kept := range map[string]bool{anna: false, annaSpam: false, bob: true, annaTheirs: false} {
		if _, err := db.Submission(ctx, id); (err == nil) != kept {
			t.Errorf("submission %s kept: %v, want %v", id, err == nil, kept)
		}
	}
	if len(files.files) != 0 {
		t.Errorf("files left: %v", files.files)
	}
	events, err := db.Events(ctx, accounts.DefaultWorkspace, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var erased int
	for _, e := range events {
		if strings.Contains(strings.ToLower(e.Target+e.Detail), "anna@") {
			t.Errorf("the audit log holds the address: %+v", e)
		}
		if e.Action == accounts.ActionSubmissionsDeleted && e.Target == "a***@example.com" && strings.Contains(e.Detail, "2 submissions, 1 files") {
			erased++
		}
	}
	if erased != 1 {
		t.Errorf("audit log %+v: want one erasure of 2 submissions", events)
	}
}

// pdfText returns the text of a PDF as pdftotext reads it, its lines
// joined by spaces.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext (apt-get install poppler-utils): %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
