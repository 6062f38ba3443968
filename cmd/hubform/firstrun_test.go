package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// runPrinting runs the hubform binary with args until t ends or stop is
// called, and returns what it writes, stdout and stderr together.
func runPrinting(t *testing.T, args ...string) (out *testkit.Buffer, stop func()) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	out = &testkit.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cmd.Process.Kill()
			<-done
		})
	}
	t.Cleanup(stop)
	return out, stop
}

// waitPrinted waits until out holds a match of re and returns its groups.
func waitPrinted(t *testing.T, out *testkit.Buffer, re *regexp.Regexp) []string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
	}
	t.Fatalf("never printed %s; printed:\n%s", re, out)
	return nil
}

// newConsoleBrowser is a browser of the console with its cookies, which
// follows redirects.
func newConsoleBrowser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

// postConsoleForm gets the console page at page for its CSRF token, then
// posts form to action; it returns the page it ends on and its path.
func postConsoleForm(t *testing.T, client *http.Client, base, page, action string, form url.Values) (int, string, string) {
	t.Helper()
	res, err := client.Get(base + page)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("GET %s: %s, no CSRF token in %s", page, res.Status, body)
	}
	form.Set("_csrf", string(m[1]))
	res, err = client.PostForm(base+action, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ = io.ReadAll(res.Body)
	return res.StatusCode, res.Request.URL.Path, string(body)
}

// TestHubPrintsSetupCode: a hub started without a user prints where its
// setup page is and the code it takes; the code makes the first admin,
// signed in; the page is gone then, and a hub started again on the same
// data prints no code.
func TestHubPrintsSetupCode(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	out, stop := runPrinting(t, "hub", "--addr", "127.0.0.1:0", "--data", data)
	m := waitPrinted(t, out, regexp.MustCompile(`no account yet: set the hub up at (http://127\.0\.0\.1:\d+)/console/setup with the code ([0-9A-Z-]{24}) `))
	base, code := m[1], m[2]

	client := newConsoleBrowser()
	status, path, body := postConsoleForm(t, client, base, "/console/setup", "/console/setup", url.Values{"code": {code},
		"email": {"ann@example.com"}, "password": {"correct horse battery"}, "confirm": {"correct horse battery"}, "workspace": {"acme"}})
	if status != http.StatusOK || path != "/console" || !strings.Contains(body, "Forms of workspace acme") {
		t.Fatalf("setting up ends at %s with %d: %s", path, status, body)
	}
	if res, err := http.Get(base + "/console/setup"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("the setup page once set up: %v %v", res.Status, err)
	}

	// Started again: no code, and still no page.
	stop()
	out, _ = runPrinting(t, "hub", "--addr", "127.0.0.1:0", "--data", data)
	m = waitPrinted(t, out, regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+)/v1`))
	time.Sleep(200 * time.Millisecond)
	if strings.Contains(out.String(), "setup") {
		t.Errorf("a hub with a user printed a setup code:\n%s", out)
	}
	if res, err := http.Get(m[1] + "/console/setup"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("the setup page of a hub started with a user: %v %v", res.Status, err)
	}
}

// TestDemoPrintsTheConsole: make run's demo prints its hub's console
// address with an owner's address and password, which sign in there and
// show the example forms; the password is new each run, and the last
// run's no longer works.
func TestDemoPrintsTheConsole(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	printed := regexp.MustCompile(`console at (http://127\.0\.0\.1:\d+)/console: sign in as (\S+) with the password (\S+) \(new each run, for this demo only\)`)
	signIn := func(base, email, password string) (string, string) {
		_, path, body := postConsoleForm(t, newConsoleBrowser(), base, "/console/sign-in", "/console/sign-in",
			url.Values{"email": {email}, "password": {password}})
		return path, body
	}
	var passwords []string
	for run := range 2 {
		out, stop := runPrinting(t, "demo", "--addr", freeAddr(t), "--data", data)
		m := waitPrinted(t, out, printed)
		base, email, password := m[1], m[2], m[3]
		if path, body := signIn(base, email, password); path != "/console" || !strings.Contains(body, "contact") {
			t.Fatalf("run %d: signing in as the printed owner ends at %s: %s", run, path, body)
		}
		if run == 1 {
			if password == passwords[0] {
				t.Errorf("the demo printed the same password twice: %s", password)
			}
			if path, _ := signIn(base, email, passwords[0]); path == "/console" {
				t.Error("the last run's password still signs in")
			}
		}
		passwords = append(passwords, password)
		// One demo ends before the next opens its database.
		stop()
	}
}
