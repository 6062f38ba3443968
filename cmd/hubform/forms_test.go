package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
)

// signupForm returns a form file whose title is title.
func signupForm(title string) string {
	return `{"title": "` + title + `",
  "fields": [{"name": "email", "type": "email", "label": "E-mail", "required": true}],
  "steps": [{"id": "main", "fields": ["email"]}],
  "hub": {"maxFiles": 1}
}
`
}

// writeForm writes a form file to a new temporary file and returns its path.
func writeForm(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "form.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// servedTitle returns the status of h's schema route for acme/signup and
// the title it serves.
func servedTitle(t *testing.T, h *hubProcess) (int, string) {
	t.Helper()
	res, err := http.Get(h.url + "/acme/signup.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if strings.Contains(string(body), "maxFiles") {
		t.Errorf("the schema route served the hub settings: %s", body)
	}
	var s struct{ Title string }
	json.Unmarshal(body, &s)
	return res.StatusCode, s.Title
}

// createToken makes an API token with hubform tokens and returns it.
func createToken(t *testing.T, where ...string) string {
	t.Helper()
	status, stdout, stderr := hubform(t, append([]string{"tokens", "create", "--workspace", "default", "--name", "ci"}, where...)...)
	if status != 0 {
		t.Fatalf("tokens create: %d %q", status, stderr)
	}
	return strings.TrimSpace(stdout)
}

// TestFormsPushPull pushes a form to a hub process with hubform forms,
// publishes it, changes it and rolls it back, the schema route serving
// each published version with no restart.
func TestFormsPushPull(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	token := createToken(t, "--data", data)
	h := startHub(t, formsDir(t), data)
	push := func(body string, extra ...string) (int, string, string) {
		t.Helper()
		return hubform(t, append([]string{"forms", "push", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "signup", writeForm(t, body)}, extra...)...)
	}
	pull := func(extra ...string) (int, string, string) {
		t.Helper()
		return hubform(t, append([]string{"forms", "pull", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "signup"}, extra...)...)
	}

	if status, stdout, stderr := push(signupForm("One")); status != 0 || stdout != "acme/signup: saved version 1\n" {
		t.Fatalf("push: %d %q %q", status, stdout, stderr)
	}
	if status, _ := servedTitle(t, h); status != http.StatusNotFound {
		t.Errorf("a draft was served: %d", status)
	}
	if status, _, stderr := pull(); status != 1 || !strings.Contains(stderr, "no published version") {
		t.Errorf("pull before publishing: %d %q", status, stderr)
	}
	if status, stdout, stderr := push(signupForm("Two"), "--publish"); status != 0 || !strings.Contains(stdout, "published version 2") {
		t.Fatalf("push --publish: %d %q %q", status, stdout, stderr)
	}
	if status, title := servedTitle(t, h); status != http.StatusOK || title != "Two" {
		t.Errorf("served %d %q after publishing 2", status, title)
	}
	if status, stdout, _ := pull(); status != 0 || stdout != signupForm("Two") {
		t.Errorf("pull: %d %q; want the file as pushed", status, stdout)
	}
	if status, stdout, _ := pull("--version", "1"); status != 0 || stdout != signupForm("One") {
		t.Errorf("pull --version 1: %d %q", status, stdout)
	}
	if status, _, _ := push(signupForm("Three"), "--publish"); status != 0 {
		t.Fatal("third push failed")
	}
	if _, title := servedTitle(t, h); title != "Three" {
		t.Errorf("served %q after publishing 3, with no restart", title)
	}

	// Rollback: publish version 2 again, through the admin API.
	req, _ := http.NewRequest(http.MethodPost, h.url+"/admin/forms/acme/signup/versions/2/publish", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("rollback: %d", res.StatusCode)
	}
	if _, title := servedTitle(t, h); title != "Two" {
		t.Errorf("served %q after rolling back to 2", title)
	}

	// Refusals: clear, on standard error, and nothing published.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"forms", "push", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "signup", writeForm(t, `{"fields":[{"name":"","type":"nope"}]}`), "--publish"},
			"is not valid; nothing was saved (422)\n  "},
		{[]string{"forms", "push", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "contact", writeForm(t, signupForm("X"))},
			"forms directory"},
		{[]string{"forms", "push", "--hub-url", h.url, "--token", "hft_wrong", "--site", "acme", "--form", "signup", writeForm(t, signupForm("X"))},
			"not valid, or was revoked (401)"},
		{[]string{"forms", "pull", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "nope"}, "no such form"},
		{[]string{"forms", "push", "--hub-url", h.url, "--token", token, "--site", "acme", "--form", "signup", filepath.Join(t.TempDir(), "missing.json")}, "no such file"},
	} {
		status, stdout, stderr := hubform(t, tt.args...)
		if status != 1 || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: %d %q %q; want status 1 and %q", tt.args[1:], status, stdout, stderr, tt.want)
		}
	}
	if _, title := servedTitle(t, h); title != "Two" {
		t.Errorf("served %q after refused pushes", title)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"forms"}, "say push, pull or new"},
		{[]string{"forms", "sync"}, `unknown action "sync"`},
		{[]string{"forms", "push", "--token", "t", "--site", "a", "--form", "b"}, "one FILE.json"},
		{[]string{"forms", "pull", "--site", "a", "--form", "b"}, "HUBFORM_TOKEN"},
		{[]string{"forms", "pull", "--token", "t", "--site", "a"}, "--site and --form"},
		{[]string{"forms", "pull", "--token", "t", "--site", "a", "--form", "b", "--hub-url", "ftp://x"}, "--hub-url"},
	} {
		if status, _, stderr := hubform(t, tt.args...); status != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: %d %q; want status 2 and %q", tt.args, status, stderr, tt.want)
		}
	}
	if status, stdout, _ := hubform(t, "forms", "--help"); status != 0 || !strings.Contains(stdout, "hubform forms push --hub-url") {
		t.Errorf("forms --help: %d %q", status, stdout)
	}
}

// TestTwoHubsServePublishedForms runs two hub processes on one PostgreSQL
// database: a version published through either is served by both at their
// next request, a rollback too. One of them runs without --forms.
func TestTwoHubsServePublishedForms(t *testing.T) {
	dbURL, forms := pgtest.URL(t), formsDir(t)
	token := createToken(t, "--db", dbURL)
	a := startHub(t, forms, t.TempDir(), "--db", dbURL)
	// B has no forms directory: it serves the database's forms alone.
	b := startHub(t, "", t.TempDir(), "--db", dbURL)
	for i, step := range []struct {
		via   *hubProcess
		title string
	}{{a, "One"}, {b, "Two"}} {
		status, _, stderr := hubform(t, "forms", "push", "--hub-url", step.via.url, "--token", token,
			"--site", "acme", "--form", "signup", writeForm(t, signupForm(step.title)), "--publish")
		if status != 0 {
			t.Fatalf("push %d: %q", i+1, stderr)
		}
		for _, h := range []*hubProcess{a, b} {
			if status, title := servedTitle(t, h); status != http.StatusOK || title != step.title {
				t.Errorf("hub %s after publishing %q: %d %q", h.url, step.title, status, title)
			}
		}
	}
	for h, want := range map[*hubProcess]int{a: http.StatusOK, b: http.StatusNotFound} {
		res, err := http.Get(h.url + "/acme/contact.json")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("directory form on %s: %d, want %d", h.url, res.StatusCode, want)
		}
	}
	t.Setenv("HUBFORM_TOKEN", token)
	if status, stdout, stderr := hubform(t, "forms", "pull", "--hub-url", a.url, "--site", "acme", "--form", "signup", "--version", "1"); status != 0 || stdout != signupForm("One") {
		t.Fatalf("pull of version 1 with HUBFORM_TOKEN: %d %q", status, stderr)
	}
	req, _ := http.NewRequest(http.MethodPost, a.url+"/admin/forms/acme/signup/versions/1/publish", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if status, title := servedTitle(t, b); res.StatusCode != http.StatusOK || status != http.StatusOK || title != "One" {
		t.Errorf("hub B after rolling back on A: %d %q", status, title)
	}
}

// TestFormsNew writes templates to files, lists them, and refuses what it
// should.
func TestFormsNew(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		var out, errOut strings.Builder
		code := runForms(context.Background(), append([]string{"new"}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, out, _ := run("--template", "list")
	if code != 0 || !strings.Contains(out, "feedback") || !strings.Contains(out, "Net Promoter Score") || strings.Count(out, "\n") < 12 {
		t.Fatalf("list: %d %q", code, out)
	}
	file := filepath.Join(t.TempDir(), "feedback.json")
	if code, _, errOut := run("--template", "feedback", file); code != 0 {
		t.Fatalf("new: %d %s", code, errOut)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := formsource.Parse("acme", "feedback", body); err != nil || !strings.Contains(string(body), `"nps"`) {
		t.Fatalf("written file: %v\n%s", err, body)
	}
	os.WriteFile(file, []byte("{}"), 0o644)
	if code, _, errOut := run("--template", "quiz", file); code != 1 || !strings.Contains(errOut, "--force") {
		t.Fatalf("overwrite: %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(file); string(b) != "{}" {
		t.Fatalf("the file was replaced without --force: %s", b)
	}
	if code, _, errOut := run("--template", "quiz", "--force", file); code != 0 {
		t.Fatalf("--force: %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "quiz") {
		t.Fatalf("--force did not replace the file: %s", b)
	}
	if code, _, errOut := run("--template", "nope", filepath.Join(t.TempDir(), "x.json")); code != 2 || !strings.Contains(errOut, "contact") || !strings.Contains(errOut, "rsvp") {
		t.Fatalf("unknown: %d %s", code, errOut)
	}
	if code, _, errOut := run("--template", "quiz", filepath.Join(t.TempDir(), "x.txt")); code != 2 || !strings.Contains(errOut, ".json") {
		t.Fatalf("not .json: %d %s", code, errOut)
	}
	if code, _, _ := run(filepath.Join(t.TempDir(), "x.json")); code != 2 {
		t.Fatalf("no --template: %d", code)
	}
}
