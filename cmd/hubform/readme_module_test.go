package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub/testhub"
)

// TestReadmeExampleFromModule builds the README's app as someone who ran
// `go get` would: against a copy of the committed files only, as the module
// proxy serves them, so without static/dist/htmx.min.js (fetched by npm,
// never committed). It runs the app against a hub and checks the head of
// its page: the host's htmx when the example sets Config.HTMXURL, else no
// htmx at all and one warning in the log. Only the module cache is used.
func TestReadmeExampleFromModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example twice")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md shows no complete Go program")
	}
	module := copyCommitted(t, "../..")
	if _, err := os.Stat(filepath.Join(module, "static", "dist", "htmx.min.js")); err == nil {
		t.Fatal("the copy holds static/dist/htmx.min.js, which the module does not")
	}
	hub := testhub.Start(t, exampleFormFiles(t))

	const hostHTMX = `"/assets/htmx.min.js"`
	tests := []struct {
		name      string
		configure func(src string) string
		wantHTMX  string // the src of the htmx script; "" for none
	}{
		{"without HTMXURL", func(src string) string { return src }, ""},
		{"with HTMXURL", func(src string) string {
			return strings.Replace(src, "// HTMXURL: "+hostHTMX, "HTMXURL: "+hostHTMX, 1)
		}, strings.Trim(hostHTMX, `"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := freeAddr(t)
			src := tt.configure(string(block[1]))
			for _, r := range []struct{ old, new string }{
				{`"http://127.0.0.1:8081/v1"`, `"` + hub.URL + `"`},
				{`"127.0.0.1:3000"`, `"` + addr + `"`},
			} {
				if !strings.Contains(src, r.old) {
					t.Fatalf("the README's example no longer holds %s", r.old)
				}
				src = strings.Replace(src, r.old, r.new, 1)
			}
			if tt.wantHTMX != "" && !strings.Contains(src, "HTMXURL: "+hostHTMX) {
				t.Fatalf("the README's example does not show // HTMXURL: %s", hostHTMX)
			}
			bin := buildAgainst(t, module, src)
			log := runApp(t, bin)

			var res *http.Response
			waitFor(t, func() bool {
				res, err = http.Get("http://" + addr + "/contact")
				return err == nil
			})
			doc, err := goquery.NewDocumentFromReader(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("GET /contact: %v %v", res.Status, err)
			}
			if doc.Find("form[data-hubform-form]").Length() != 1 || doc.Find("head style[data-hubform-styles]").Length() != 1 {
				t.Error("the page lacks the form or its styles")
			}
			var htmx []string // what the head's loader adds beside hubform.js
			doc.Find("head script[data-hubform-loader][data-htmx]").Each(func(_ int, s *goquery.Selection) {
				htmx = append(htmx, s.AttrOr("data-htmx", ""))
			})
			warned := strings.Count(log.String(), "Config.HTMXURL is empty")
			if tt.wantHTMX == "" && (len(htmx) != 0 || warned != 1) {
				t.Errorf("scripts %q, %d warnings; want no htmx and one warning. Log:\n%s", htmx, warned, log)
			}
			if tt.wantHTMX != "" && (len(htmx) != 1 || htmx[0] != tt.wantHTMX || warned != 0) {
				t.Errorf("scripts %q, %d warnings; want htmx from %s and no warning. Log:\n%s", htmx, warned, tt.wantHTMX, log)
			}
		})
	}
}

// copyCommitted copies the files git tracks in the repository at root, as
// they are in the work tree, to a new directory.
func copyCommitted(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
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

// buildAgainst builds the program src as a module of its own that requires
// hubform, replaced by the copy at module, and returns the binary. The
// network is off: everything comes from the module cache.
func buildAgainst(t *testing.T, module, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	sum, err := os.ReadFile(filepath.Join(module, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/app\n\ngo 1.26.0\n\nrequire github.com/hubform/hubform v0.0.0\n\nreplace github.com/hubform/hubform => " + module + "\n"
	for name, data := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": src} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "app")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's example does not build against the module: %v\n%s", err, out)
	}
	return bin
}

// runApp starts bin and returns what it logs, stopping it when the test
// ends.
func runApp(t *testing.T, bin string) *lockedWriter {
	t.Helper()
	log := &lockedWriter{w: &strings.Builder{}}
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
