package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/formsource"
)

const (
	formV1 = `{"title":"Contact","fields":[{"name":"email","type":"email","required":true}],"steps":[{"id":"main","fields":["email"]}],"hub":{"maxFiles":3}}`
	formV2 = `{"title":"Contact us","fields":[{"name":"email","type":"email","required":true}],"steps":[{"id":"main","fields":["email"]}]}`
)

func TestAdminForms(t *testing.T) {
	db, token := tokenDB(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "acme", "fixed.json"), []byte(`{"title":"from a file"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir, err := formsource.Open(root, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	served := &formsource.Layered{Dir: dir, Stored: formsource.NewStored(db, logger)}
	// The directory's sites belong to the default workspace, as hubform
	// hub claims them.
	if _, err := db.ClaimSite(context.Background(), "acme", accounts.DefaultWorkspace, time.Now()); err != nil {
		t.Fatal(err)
	}
	api, err := admin.New(withServices(db, admin.Config{Tokens: db, Sites: db, Audit: db, Forms: db, Directory: served, Logger: logger}, nil))
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()

	do := func(method, path, contentType, body string) (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+"/v1/admin"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	decode := func(s string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("answer %q is not JSON: %v", s, err)
		}
		return m
	}
	title := func() string {
		t.Helper()
		f, err := served.Lookup("acme", "contact")
		if err != nil {
			t.Fatalf("served form: %v", err)
		}
		return f.Schema.Title
	}

	// Refused saves store nothing, and say why in JSON.
	status, _, body := do("PUT", "/forms/acme/contact/version", "application/json",
		`{"fields":[{"name":"email","type":"nope"},{"name":"email","type":"text"}],"hub":{"maxFiles":-1,"extra":1}}`)
	m := decode(body)
	probs, _ := m["problems"].([]any)
	joined := strings.ReplaceAll(body, `\"`, `"`)
	if status != http.StatusUnprocessableEntity || m["ok"] != false || len(probs) < 2 ||
		!strings.Contains(joined, `field "email"`) || !strings.Contains(joined, "hub:") {
		t.Errorf("invalid form: %d %s; want 422 naming each problem", status, body)
	}
	var paths []string
	for _, e := range m["errors"].([]any) {
		paths = append(paths, e.(map[string]any)["path"].(string))
	}
	if !slices.Contains(paths, "fields[0].type") || !slices.Contains(paths, "fields[1].name") || !slices.Contains(paths, "hub") {
		t.Errorf("invalid form: error paths %q; want fields[0].type, fields[1].name and hub", paths)
	}
	for _, tt := range []struct {
		path, contentType, body string
		want                    int
	}{
		{"/forms/acme/contact/version", "text/plain", formV1, http.StatusUnsupportedMediaType},
		{"/forms/acme/contact/version", "application/json", `[1]`, http.StatusUnprocessableEntity},
		{"/forms/acme/contact/version", "application/json", `{"title":`, http.StatusUnprocessableEntity},
		{"/forms/admin/contact/version", "application/json", formV1, http.StatusUnprocessableEntity},
		{"/forms/acme/fixed/version", "application/json", formV1, http.StatusConflict},
		{"/forms/acme/contact/version", "application/json", strings.Repeat(" ", 1<<20+2), http.StatusRequestEntityTooLarge},
	} {
		status, _, body := do("PUT", tt.path, tt.contentType, tt.body)
		if m := decode(body); status != tt.want || m["ok"] != false || m["error"] == "" {
			t.Errorf("PUT %s %.20q: %d %s; want %d with a JSON error", tt.path, tt.body, status, body, tt.want)
		}
	}
	if _, _, body := do("GET", "/forms", "", ""); !strings.Contains(body, `"forms":[]`) || !strings.Contains(body, `"slug":"fixed"`) {
		t.Errorf("forms after refused saves: %s; want none in the database, the file's listed", body)
	}

	// Save, publish, change, publish, roll back.
	status, _, body = do("PUT", "/forms/acme/contact/version", "application/json", formV1)
	if m := decode(body); status != http.StatusCreated || m["version"] != 1.0 {
		t.Fatalf("first save: %d %s", status, body)
	}
	if _, err := served.Lookup("acme", "contact"); err == nil {
		t.Error("a version is served before it is published")
	}
	status, _, body = do("GET", "/forms/acme/contact", "", "")
	if m := decode(body); status != http.StatusOK || m["live"] != nil || m["draft"] == nil {
		t.Errorf("form with a version not published: %d %s", status, body)
	}
	if status, _, body := do("POST", "/forms/acme/contact/versions/1/publish", "", ""); status != http.StatusOK || decode(body)["live"] != true {
		t.Fatalf("publish 1: %d %s", status, body)
	}
	if got := title(); got != "Contact" {
		t.Errorf("served %q after publishing 1", got)
	}
	// The route's first name, /draft, saves as /version does.
	if status, _, body := do("PUT", "/forms/acme/contact/draft", "application/json", formV2); status != http.StatusCreated || decode(body)["version"] != 2.0 {
		t.Fatalf("second save: %d %s", status, body)
	}
	if got := title(); got != "Contact" {
		t.Errorf("served %q with version 2 not published", got)
	}
	status, _, body = do("GET", "/forms/acme/contact", "", "")
	if m := decode(body); status != http.StatusOK || m["live"].(map[string]any)["title"] != "Contact" || m["draft"].(map[string]any)["title"] != "Contact us" ||
		len(m["versions"].([]any)) != 2 {
		t.Errorf("form with live 1 and 2 not published: %d %s", status, body)
	}
	if status, _, body := do("POST", "/forms/acme/contact/versions/latest/publish", "", ""); status != http.StatusOK || decode(body)["version"] != 2.0 {
		t.Fatalf("publish latest: %d %s", status, body)
	}
	if got := title(); got != "Contact us" {
		t.Errorf("served %q after publishing 2", got)
	}
	if status, _, _ := do("POST", "/forms/acme/contact/versions/1/publish", "", ""); status != http.StatusOK {
		t.Fatalf("rollback: %d", status)
	}
	if got := title(); got != "Contact" {
		t.Errorf("served %q after rolling back to 1", got)
	}
	status, h, body := do("GET", "/forms/acme/contact/versions/live", "", "")
	if status != http.StatusOK || body != formV1 || h.Get("Hubform-Version") != "1" {
		t.Errorf("live version: %d %q %s; want the file as pushed", status, h.Get("Hubform-Version"), body)
	}
	status, _, body = do("GET", "/forms/acme/contact/versions", "", "")
	if m := decode(body); status != http.StatusOK || m["liveVersion"] != 1.0 || len(m["versions"].([]any)) != 2 {
		t.Errorf("versions: %d %s", status, body)
	}
	if _, _, body := do("GET", "/forms", "", ""); !strings.Contains(body, `"slug":"contact"`) {
		t.Errorf("forms: %s", body)
	}

	for _, tt := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/forms/acme/missing", http.StatusNotFound},
		{"GET", "/forms/acme/missing/versions", http.StatusNotFound},
		{"GET", "/forms/acme/contact/versions/9", http.StatusNotFound},
		{"GET", "/forms/acme/contact/versions/0", http.StatusBadRequest},
		{"POST", "/forms/acme/contact/versions/9/publish", http.StatusNotFound},
		{"POST", "/forms/acme/contact/versions/two/publish", http.StatusBadRequest},
		{"POST", "/forms/acme/missing/versions/live/publish", http.StatusNotFound},
	} {
		status, _, body := do(tt.method, tt.path, "", "")
		if m := decode(body); status != tt.want || m["ok"] != false || m["error"] == "" {
			t.Errorf("%s %s: %d %s; want %d with a JSON error", tt.method, tt.path, status, body, tt.want)
		}
	}
	if title() != "Contact" {
		t.Error("a refused publish changed the live version")
	}
}
