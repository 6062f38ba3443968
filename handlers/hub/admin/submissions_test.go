package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/hubclient"
)

// memFiles is file storage in memory.
type memFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memFiles) NewReader(_ context.Context, key string) (io.ReadCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[key]
	if !ok {
		return nil, fmt.Errorf("%s: %w", key, hub.ErrNotFound)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (m *memFiles) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, key)
	return nil
}

const inboxForm = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Your name"},{"name":"cv","type":"file","label":"CV"}],"steps":[{"id":"s","fields":["name","cv"]}]}`

// TestSubmissionsAPI lists, pages, filters, reads, downloads, exports and
// deletes a form's submissions with tokens of scope all and
// submissions:read.
func TestSubmissionsAPI(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	reader := accounts.NewToken()
	if err := db.CreateToken(ctx, accounts.Token{Name: "reader", Hash: accounts.HashToken(reader), CreatedAt: time.Now(), Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeSubmissionsRead}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"contact", "other"} {
		if _, err := db.SaveFormVersion(ctx, "acme", slug, []byte(inboxForm), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := db.PublishFormVersion(ctx, "acme", slug, 1, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	files := &memFiles{files: map[string][]byte{}}
	submit := func(slug, name string, created time.Time, file string) string {
		t.Helper()
		s := hub.Submission{ID: hub.NewID(created), Site: "acme", Slug: slug, CreatedAt: created, FormVersion: 1,
			Payload: json.RawMessage(`{"name":` + fmt.Sprintf("%q", name) + `}`), Attachments: []hubclient.Attachment{}}
		if file != "" {
			u := hub.Upload{Key: "acme/" + slug + "/" + s.ID, Site: "acme", Slug: slug, Filename: file, MIME: "application/pdf", Size: 4,
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
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	jane := submit("contact", "Jane Roe", day, "cv.pdf")
	john := submit("contact", "John", day.AddDate(0, 0, 1), "")
	mary := submit("contact", "Mary", day.AddDate(0, 0, 2), "")
	other := submit("other", "Other Jane", day, "")

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	api, err := admin.New(withServices(db, admin.Config{Tokens: db, Sites: db, Audit: db, Logger: logger,
		Inbox: &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Files: files, Logger: logger}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(secret, method, path string) (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+admin.Prefix+"/forms/acme/contact"+path, nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	list := func(secret, query string) admin.SubmissionList {
		t.Helper()
		status, _, body := do(secret, "GET", "/submissions"+query)
		var l admin.SubmissionList
		if err := json.Unmarshal([]byte(body), &l); status != http.StatusOK || err != nil || !l.OK {
			t.Fatalf("list %s: %d %s", query, status, body)
		}
		return l
	}
	ids := func(l admin.SubmissionList) string {
		var out []string
		for _, s := range l.Submissions {
			out = append(out, s.ID)
		}
		return strings.Join(out, ",")
	}

	// Newest first, in pages, with this form's alone.
	first := list(reader, "?limit=2")
	if ids(first) != mary+","+john || first.Next != john {
		t.Errorf("first page: %s next %q; want mary, john and the cursor john", ids(first), first.Next)
	}
	if second := list(reader, "?limit=2&before="+first.Next); ids(second) != jane || second.Next != "" {
		t.Errorf("second page: %s next %q; want jane alone", ids(second), second.Next)
	}
	if got := list(reader, "?q=roe"); ids(got) != jane {
		t.Errorf("search roe: %s, want jane", ids(got))
	}
	if got := list(reader, "?from=2026-11-02&to=2026-11-02"); ids(got) != john {
		t.Errorf("the day 2026-11-02: %s, want john", ids(got))
	}
	// Values under their labels, files with their download route.
	got := list(reader, "?q=roe").Submissions[0]
	if len(got.Values) != 1 || got.Values[0] != (inbox.Value{Name: "name", Label: "Your name", Value: "Jane Roe"}) ||
		len(got.Files) != 1 || got.Files[0].Filename != "cv.pdf" || got.Files[0].URL != admin.Prefix+"/forms/acme/contact/submissions/"+jane+"/files/0" {
		t.Errorf("jane's submission: %+v", got)
	}
	if status, _, body := do(reader, "GET", "/submissions/"+jane); status != http.StatusOK || !strings.Contains(body, `"label":"Your name"`) {
		t.Errorf("one submission: %d %s", status, body)
	}
	status, header, body := do(reader, "GET", "/submissions/"+jane+"/files/0")
	if status != http.StatusOK || body != "%PDF" || header.Get("Content-Type") != "application/octet-stream" || !strings.Contains(header.Get("Content-Disposition"), "cv.pdf") {
		t.Errorf("the file: %d %q %v", status, body, header)
	}
	status, header, body = do(reader, "GET", "/export/csv")
	if status != http.StatusOK || !strings.HasPrefix(header.Get("Content-Type"), "text/csv") || !strings.Contains(body, "Jane Roe") || strings.Contains(body, "Other Jane") {
		t.Errorf("CSV export: %d %q", status, body)
	}

	for _, tt := range []struct {
		secret, method, path string
		want                 int
	}{
		{reader, "DELETE", "/submissions/" + jane, http.StatusForbidden},
		{reader, "GET", "/submissions/" + other, http.StatusNotFound},
		{token, "DELETE", "/submissions/" + other, http.StatusNotFound},
		{reader, "GET", "/submissions/" + jane + "/files/1", http.StatusNotFound},
		{reader, "GET", "/submissions?limit=0", http.StatusBadRequest},
		{reader, "GET", "/submissions?limit=201", http.StatusBadRequest},
		{reader, "GET", "/submissions?from=yesterday", http.StatusBadRequest},
		{reader, "GET", "/export/xml", http.StatusNotFound},
	} {
		if status, _, body := do(tt.secret, tt.method, tt.path); status != tt.want || !strings.Contains(body, `"ok":false`) {
			t.Errorf("%s %s: %d %s, want %d with a JSON error", tt.method, tt.path, status, body, tt.want)
		}
	}

	// Deleted with its file; the other form's stays.
	if status, _, body := do(token, "DELETE", "/submissions/"+jane); status != http.StatusOK || !strings.Contains(body, `"files":1`) {
		t.Fatalf("delete: %d %s", status, body)
	}
	if _, err := db.Submission(ctx, jane); err == nil {
		t.Error("the deleted submission is still stored")
	}
	files.mu.Lock()
	_, kept := files.files["acme/contact/"+jane]
	files.mu.Unlock()
	if kept {
		t.Error("the deleted submission's file is still stored")
	}
	if _, err := db.Submission(ctx, other); err != nil {
		t.Errorf("the other form's submission: %v", err)
	}
	if status, _, _ := do(token, "DELETE", "/submissions/"+jane); status != http.StatusNotFound {
		t.Errorf("deleting again: %d, want 404", status)
	}

	// The export and the delete are in the workspace's audit log, which a
	// token of scope all reads and a submissions:read token may not.
	audit := func(secret string) (int, admin.EventList) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+admin.Prefix+"/audit", nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var l admin.EventList
		json.NewDecoder(res.Body).Decode(&l)
		return res.StatusCode, l
	}
	status, events := audit(token)
	var logged []string
	for _, e := range events.Events {
		logged = append(logged, e.Actor+": "+e.Action+" "+e.Target+" "+e.Detail)
	}
	want := []string{"token ci: submissions deleted acme/contact " + jane + ": 1 submissions, 1 files", "token reader: submissions exported acme/contact csv, all"}
	if status != http.StatusOK || strings.Join(logged, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit log: %d\n%s\nwant\n%s", status, strings.Join(logged, "\n"), strings.Join(want, "\n"))
	}
	if status, _ := audit(reader); status != http.StatusForbidden {
		t.Errorf("audit log with a submissions:read token: %d, want 403", status)
	}
}
