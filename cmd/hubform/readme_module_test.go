package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// TestReadmeExampleAsANewcomer walks the path of someone who found hubform
// in the README: a module of their own holding the README's Echo example as
// it stands, hubform as the module proxy would serve it (the files git
// would commit, nothing it ignores), then the newest templ and go mod tidy,
// as an app that keeps templ current does. The app runs against the hub the
// README's command starts, with the README's form file, and serves the form
// with the htmx the module embeds; without JavaScript its pages keep the
// app's layout.
func TestReadmeExampleAsANewcomer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an app against the newest templ")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src := readmeBlock(t, readme, "(?s)```go\n(package main\n.*?)```")
	form := readmeBlock(t, readme, "(?s)`forms/demo/contact.json`.*?```json\n(.*?)```")
	const hubCommand = "hubform hub --forms ./forms --data ./hub-data"
	if !strings.Contains(string(readme), hubCommand) {
		t.Fatalf("the README no longer starts its hub with %q", hubCommand)
	}
	forms := t.TempDir()
	if err := os.MkdirAll(filepath.Join(forms, "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(forms, "demo", "contact.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	hub := startHub(t, forms, t.TempDir())

	addr := freeAddr(t)
	for _, r := range []struct{ old, new string }{
		{`"http://127.0.0.1:8081/v1"`, `"` + hub.url + `"`},
		{`"127.0.0.1:3000"`, `"` + addr + `"`},
	} {
		if !strings.Contains(src, r.old) {
			t.Fatalf("the README's example no longer holds %s", r.old)
		}
		src = strings.Replace(src, r.old, r.new, 1)
	}
	bin := buildAsNewcomer(t, copyCommitted(t, "../.."), src)
	log := runApp(t, bin)
	app := "http://" + addr

	var res *http.Response
	waitFor(t, func() bool {
		res, err = http.Get(app + "/contact")
		return err == nil
	})
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /contact: %v %v; log:\n%s", res.Status, err, log)
	}
	if doc.Find("form[data-hubform-form] #hubform-demo-contact-email").Length() != 1 {
		t.Fatalf("/contact does not render the README's form; log:\n%s\npage: %s", log, doc.Text())
	}
	htmx := doc.Find("head script[data-hubform-loader]").AttrOr("data-htmx", "")
	if !strings.HasPrefix(htmx, "/hubform/static/htmx.min.js?v=") {
		t.Fatalf("the page loads htmx from %q, want the module's copy from the static route", htmx)
	}
	wantHTMX, err := os.ReadFile("../../static/dist/htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	if got := getBody(t, app+htmx); !bytes.Equal(got, wantHTMX) {
		t.Errorf("%s serves %d bytes, not the module's htmx.min.js (%d bytes)", htmx, len(got), len(wantHTMX))
	}

	t.Run("without JavaScript the pages keep the layout", func(t *testing.T) {
		noJSPostKeepsLayout(t, app)
	})
	t.Run("with htmx in a browser", func(t *testing.T) {
		tab := browsertest.New(t)
		if err := chromedp.Do(tab, chromedp.Navigate(app+"/contact")); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitFor(t, tab, 10*time.Second, `typeof window.htmx !== 'undefined'`)
		if err := chromedp.Do(tab,
			chromedp.SendKeys(chromedp.ID("hubform-demo-contact-email"), "jane@example.com"),
			chromedp.SendKeys(chromedp.ID("hubform-demo-contact-message"), "Hello"),
			chromedp.Evaluate[chromedp.Void](`window.samePage = true`),
			chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('[data-vendor-hubform-submitted]') !== null`)
		if !browsertest.Eval[bool](t, tab, 5*time.Second, `window.samePage === true`) {
			t.Error("the post reloaded the page: it was not sent by htmx")
		}
	})
}

// noJSPostKeepsLayout posts the form of app's /contact natively, as a
// browser without JavaScript does, first with a required field empty, then
// filled: the 422 page with the field's error and the thank-you page both
// carry the app's header, which the README's Config.Page adds.
func noJSPostKeepsLayout(t *testing.T, app string) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	// The page's CSRF token matches the cookie of the request that got it.
	res, err := client.Get(app + "/contact")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	formEl := doc.Find("form[data-hubform-form]")
	action := formEl.AttrOr("action", "")
	post := func(message string) (int, *goquery.Document) {
		values := url.Values{}
		formEl.Find("input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
			values.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
		})
		values.Set("email", "jane@example.com")
		values.Set("message", message)
		res, err := client.PostForm(app+action, values)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		page, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if page.Find(`body > header a[href="/contact"]`).Length() != 1 {
			t.Errorf("the page after a post (%d) lacks the app's header: %s", res.StatusCode, page.Find("body").Text())
		}
		return res.StatusCode, page
	}
	status, page := post("")
	if status != http.StatusUnprocessableEntity || page.Find("#hubform-demo-contact-message-error").Length() != 1 {
		t.Errorf("post without a message: status %d, want 422 with the field's error", status)
	}
	status, page = post("Hello")
	if status != http.StatusOK || page.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Errorf("post: status %d, want 200 with the thank-you panel", status)
	}
}

// readmeBlock returns the first submatch of the regular expression expr in
// the README, failing the test when there is none.
func readmeBlock(t *testing.T, readme []byte, expr string) string {
	t.Helper()
	m := regexp.MustCompile(expr).FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md holds nothing matching %s", expr)
	}
	return string(m[1])
}

// buildAsNewcomer builds the program src in a new module, as its author
// would: go mod init, hubform required (from the copy at module: the
// stand-in for go get), the newest templ with go get, go mod tidy. It
// reaches the Go module proxy. A build that fails says in one line with
// which templ release.
func buildAsNewcomer(t *testing.T, module, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd := func(args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{
		{"mod", "init", "example.com/app"},
		{"mod", "edit", "-require", "github.com/hubform/hubform@v0.0.0", "-replace", "github.com/hubform/hubform=" + module},
		{"get", "github.com/a-h/templ@latest"},
		{"mod", "tidy"},
	} {
		if out, err := goCmd(args...); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	templVersion, err := goCmd("list", "-m", "-f", "{{.Version}}", "github.com/a-h/templ")
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, templVersion)
	}
	bin := filepath.Join(dir, "app")
	if out, err := goCmd("build", "-o", bin, "."); err != nil {
		t.Logf("go build:\n%s", out)
		t.Fatalf("hubform does not build with templ %s, the newest release: %s", strings.TrimSpace(templVersion), firstError(out))
	}
	return bin
}

// firstError returns the first line of the go command's output out that
// is not the heading of a package ("# pkg").
func firstError(out string) string {
	for line := range strings.Lines(out) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return "no output"
}

// getBody returns the body of a GET of target, failing the test unless
// it answers 200.
func getBody(t *testing.T, target string) []byte {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", target, res.Status, err)
	}
	return body
}

// copyCommitted copies the files git would commit in the repository at
// root, as they are in the work tree, to a new directory: those it tracks
// and new ones it does not ignore. On a clean checkout that is what git
// archive HEAD holds, and so what the module proxy serves.
func copyCommitted(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "hubform")
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in git
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// runApp starts bin and returns what it logs, stopping it when the test
// ends.
func runApp(t *testing.T, bin string) *testkit.Buffer {
	t.Helper()
	log := &testkit.Buffer{}
	cmd := exec.Command(bin)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return log
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := testkit.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}
