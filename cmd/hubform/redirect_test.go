package main

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
)

// redirectForm is a form file whose meta.redirectUrl is REDIRECT.
const redirectForm = `{"title": "Thanks", "fields": [{"name": "email", "type": "email", "label": "Email"}],
  "steps": [{"id": "main", "fields": ["email"]}], "meta": {"redirectUrl": "REDIRECT"}}`

// TestRedirectURLRefusesJavaScript gives a form a meta.redirectUrl that
// would run script in the page of whoever shows the form: a javascript:
// URL, or one that a browser reads as another host. Each way a form
// reaches the hub refuses it as a schema error: the forms directory when
// it loads the file, the admin API's push and the console's save (422,
// nothing saved). An http or https address and a path are taken.
func TestRedirectURLRefusesJavaScript(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); redirectURLRefusesJavaScript(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); redirectURLRefusesJavaScript(t, pgtest.URL(t)) })
}

func redirectURLRefusesJavaScript(t *testing.T, dbURL string) {
	ctx := context.Background()
	forms := t.TempDir()
	os.MkdirAll(filepath.Join(forms, "acme"), 0o755)
	if err := os.WriteFile(filepath.Join(forms, "acme", "bad.json"), []byte(strings.Replace(redirectForm, "REDIRECT", "javascript:alert(document.domain)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	h := serveInProcess(t, hubserver.Config{Data: t.TempDir(), DB: dbURL, Forms: forms})
	base := strings.TrimSuffix(h.URL, "/v1")

	// The forms directory: the file is not served.
	res, err := http.Get(h.URL + "/acme/bad.json")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Errorf("a directory form with a javascript: redirect is served: %d", res.StatusCode)
	}

	token := accounts.NewToken()
	if err := h.DB.CreateToken(ctx, accounts.Token{Name: "push", Hash: accounts.HashToken(token), CreatedAt: time.Now(),
		Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeForms}); err != nil {
		t.Fatal(err)
	}
	push := func(redirect string) (int, string) {
		t.Helper()
		return apiCall(t, base, token, http.MethodPut, "/v1/admin/forms/shop/thanks/version", strings.Replace(redirectForm, "REDIRECT", redirect, 1))
	}
	bad := []string{"javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\\tscript:alert(1)",
		"data:text/html,<script>alert(1)</script>", "//evil.example/thanks", "/\\\\evil.example/thanks", "thanks", "ftp://example.com/x"}
	for _, redirect := range bad {
		if status, body := push(redirect); status != http.StatusUnprocessableEntity || !strings.Contains(body, `"path":"meta.redirectUrl"`) {
			t.Errorf("push with redirect %q: %d %s, want 422 at meta.redirectUrl", redirect, status, body)
		}
	}
	for _, redirect := range []string{"https://example.com/thanks?from=form", "/thanks"} {
		if status, body := push(redirect); status != http.StatusCreated {
			t.Errorf("push with redirect %q: %d %s, want 201", redirect, status, body)
		}
	}

	// The console's JSON editor.
	const email, password = "owner@example.com", "correct horse battery"
	addTestUser(t, h.DB, email, password)
	if err := h.DB.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: email, Role: accounts.Admin, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	owner := signIn(t, base, email, password)
	// save posts the file from a page of the form as it now stands.
	save := func(redirect string) (int, string) {
		t.Helper()
		r, err := h.DB.FormRecord(ctx, "shop", "thanks")
		if err != nil {
			t.Fatal(err)
		}
		return owner.do(http.MethodPost, "/console/forms/shop/thanks", url.Values{"base": {strconv.FormatInt(r.Revision, 10)}, "body": {strings.Replace(redirectForm, "REDIRECT", redirect, 1)}})
	}
	for _, redirect := range bad {
		status, page := save(redirect)
		if status != http.StatusUnprocessableEntity || !strings.Contains(page, "meta.redirectUrl") {
			t.Errorf("console save with redirect %q: %d, want 422 naming meta.redirectUrl", redirect, status)
		}
	}
	if status, _ := save("https://example.com/thanks"); status != http.StatusSeeOther {
		t.Errorf("console save with an https redirect: %d, want 303", status)
	}
}
