package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient/conformance"
)

// TestConformanceOfHubProcess creates the printed conformance form in a
// "hubform hub" process's forms directory and checks the hub, on SQLite
// and local files, then on PostgreSQL and a bucket: every check passes or
// is skipped for want of a captcha or of oddly named forms.
func TestConformanceOfHubProcess(t *testing.T) {
	status, form, stderr := hubform(t, "conformance", "--print-form")
	if status != 0 || !json.Valid([]byte(form)) {
		t.Fatalf("--print-form: status %d, %q, %q", status, form, stderr)
	}
	forms := t.TempDir()
	os.MkdirAll(filepath.Join(forms, "acme"), 0o755)
	os.WriteFile(filepath.Join(forms, "acme", "conformance.json"), []byte(form), 0o644)
	for _, tc := range []struct {
		name    string
		storage func(t *testing.T) []string
	}{
		{"sqlite and files", func(*testing.T) []string { return nil }},
		{"postgres and bucket", func(t *testing.T) []string {
			dbURL, blobURL := sharedStorage(t)
			return []string{"--db", dbURL, "--blob", blobURL}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, storage := t.TempDir(), tc.storage(t)
			p := startHub(t, forms, data, storage...)
			seen := []string{"--data", data}
			if len(storage) > 0 {
				seen = storage[:2] // --db URL
			}
			args := append([]string{"conformance", "--hub-url", p.url, "--site", "acme", "--form", "conformance", "--json"}, seen...)
			status, stdout, stderr := hubform(t, args...)
			var report conformance.Report
			if err := json.Unmarshal([]byte(stdout), &report); err != nil {
				t.Fatalf("--json printed %q (%v); stderr %q", stdout, err, stderr)
			}
			for _, r := range report.Results {
				if r.Status == conformance.Fail || r.Status == conformance.Skip && r.ID != "schema.escaped" && r.ID != "captcha.required" {
					t.Errorf("%s %s: %s", r.Status, r.ID, r.Detail)
				}
			}
			if r := report.Result("submit.honeypot"); r == nil || r.Detail != "" {
				t.Errorf("submit.honeypot did not count the stored submissions: %+v", r)
			}
			if status != 0 || len(report.Results) == 0 {
				t.Errorf("status %d with %d results, stderr %q; hub log:\n%s", status, len(report.Results), stderr, p.log)
			}
		})
	}
}

// TestConformanceReportsFailure checks a hub that answers form posts with
// 200: the text report names the check, what was wanted and what came
// back, and the exit status is 1.
func TestConformanceReportsFailure(t *testing.T) {
	t.Parallel()
	h := hubtest.Start(t, map[string]string{"acme/conformance": conformance.Form})
	inner := h.Server.Config.Handler
	h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			io.WriteString(w, `{"ok": true}`)
			return
		}
		inner.ServeHTTP(w, r)
	})
	status, stdout, stderr := hubform(t, "conformance", "--hub-url", h.URL, "--site", "acme", "--form", "conformance")
	if status != 1 || stderr != "" {
		t.Errorf("status %d, stderr %q, want 1 and nothing", status, stderr)
	}
	for _, want := range []string{
		"FAIL  submit.form-encoded  a form-encoded POST to {base}/submit answers 415 (§4 rule 1, §7)\n      want 415, got 200 {\"ok\": true}\n",
		"PASS  submit.valid ",
		"INFO  info.cors ",
		"SKIP  schema.escaped ",
		"1 failed",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestConformanceSeesStoredHoneypot checks a hub that stores submissions
// whose honeypot is filled: with the hub's data directory the kit sees it.
func TestConformanceSeesStoredHoneypot(t *testing.T) {
	t.Parallel()
	h := hubtest.Start(t, map[string]string{"acme/conformance": conformance.Form})
	inner := h.Server.Config.Handler
	h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		body = bytes.Replace(body, []byte(`"_hp":`), []byte(`"_hq":`), 1) // the hub ignores unknown members
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		inner.ServeHTTP(w, r)
	})
	data := filepath.Dir(h.FormsDir) // hubtest keeps hub.db beside the forms
	status, stdout, _ := hubform(t, "conformance", "--hub-url", h.URL, "--site", "acme", "--form", "conformance", "--data", data)
	if status != 1 || !strings.Contains(stdout, "FAIL  submit.honeypot ") || !strings.Contains(stdout, "want the submission discarded, but the hub holds 2 submissions, 1 before") {
		t.Errorf("status %d:\n%s", status, stdout)
	}
	if status, _, stderr := hubform(t, "conformance", "--hub-url", h.URL, "--site", "acme", "--form", "conformance", "--data", t.TempDir()); status != 1 || stderr == "" {
		t.Errorf("a data directory without a database: status %d, stderr %q", status, stderr)
	}
}

func TestConformanceUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--hub-url", "http://127.0.0.1:1/v1", "--form", "f"}, "--site and --form are required"},
		{[]string{"--site", "s", "--form", "f", "extra"}, `unexpected argument "extra"`},
		{[]string{"--hub-url", "ftp://hub/v1", "--site", "s", "--form", "f"}, "want an absolute http or https URL"},
		{[]string{"--site", "s", "--form", "f", "--timeout", "0s"}, "--timeout must be positive"},
	} {
		status, stdout, stderr := hubform(t, append([]string{"conformance"}, tc.args...)...)
		if status != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
	status, stdout, _ := hubform(t, "help", "conformance")
	if status != 0 || !strings.Contains(stdout, "hubform conformance --hub-url http://127.0.0.1:8081/v1 --site acme --form conformance") ||
		!strings.Contains(stdout, "--captcha-token TOKEN") {
		t.Errorf("help: status %d\n%s", status, stdout)
	}
}
