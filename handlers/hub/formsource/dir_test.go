package formsource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// logRecorder is a slog.Handler that keeps the messages of the records it
// is given, with their "path" attribute.
type logRecorder struct {
	mu   sync.Mutex
	logs []string
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *logRecorder) WithGroup(string) slog.Handler            { return r }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	msg := rec.Message
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "path" || a.Key == "err" {
			msg += " " + a.Key + "=" + a.Value.String()
		}
		return true
	})
	r.mu.Lock()
	r.logs = append(r.logs, msg)
	r.mu.Unlock()
	return nil
}

func (r *logRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	logs := r.logs
	r.logs = nil
	return logs
}

// testDir is a Dir over a temporary directory with a clock that moves only
// when told.
type testDir struct {
	*Dir
	t     *testing.T
	path  string
	clock time.Time
	logs  *logRecorder
	// looks counts the Dir's looks at the file system.
	looks int
}

func newTestDir(t *testing.T) *testDir {
	t.Helper()
	path := filepath.Join(t.TempDir(), "forms")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	td := &testDir{t: t, path: path, clock: time.Unix(1e9, 0), logs: new(logRecorder)}
	d, err := Open(path, slog.New(td.logs))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	d.now = func() time.Time { return td.clock }
	td.Dir = d
	testHookFS = func(string) { td.looks++ }
	t.Cleanup(func() { testHookFS = nil })
	return td
}

// tick moves the clock past the recheck interval.
func (td *testDir) tick() { td.clock = td.clock.Add(recheck) }

// write writes a form file and gives it a modification time of its own, so
// that a change is seen even when the size stays the same.
func (td *testDir) write(name, content string) {
	td.t.Helper()
	path := filepath.Join(td.path, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		td.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		td.t.Fatal(err)
	}
	td.touch(name)
}

var mtime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (td *testDir) touch(name string) {
	td.t.Helper()
	mtime = mtime.Add(time.Second)
	if err := os.Chtimes(filepath.Join(td.path, filepath.FromSlash(name)), mtime, mtime); err != nil {
		td.t.Fatal(err)
	}
}

func titled(title string) string {
	return fmt.Sprintf(`{"title": %q, "fields": [{"name": "a", "type": "text"}], "steps": [{"id": "s", "fields": ["a"]}]}`, title)
}

func (td *testDir) wantTitle(site, slug, title string) {
	td.t.Helper()
	form, err := td.Lookup(site, slug)
	if err != nil {
		td.t.Fatalf("Lookup(%q, %q): %v", site, slug, err)
	}
	if form.Schema.Title != title {
		td.t.Fatalf("Lookup(%q, %q) title = %q, want %q", site, slug, form.Schema.Title, title)
	}
}

func (td *testDir) wantInvalid(site, slug string) *InvalidError {
	td.t.Helper()
	form, err := td.Lookup(site, slug)
	var invalid *InvalidError
	if !errors.As(err, &invalid) || form != nil {
		td.t.Fatalf("Lookup(%q, %q) = %v, %v; want an *InvalidError", site, slug, form, err)
	}
	return invalid
}

func (td *testDir) wantNotFound(site, slug string) {
	td.t.Helper()
	form, err := td.Lookup(site, slug)
	if !errors.Is(err, hub.ErrNotFound) || form != nil {
		td.t.Fatalf("Lookup(%q, %q) = %v, %v; want hub.ErrNotFound", site, slug, form, err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing"), file} {
		if d, err := Open(path, nil); err == nil {
			d.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
	d, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open(%q): %v", dir, err)
	}
	d.Close()
}

func TestLookup(t *testing.T) {
	td := newTestDir(t)
	example, err := os.ReadFile("testdata/contact.json")
	if err != nil {
		t.Fatal(err)
	}
	td.write("acme/contact.json", string(example))
	form, err := td.Lookup("acme", "contact")
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	if form.Site != "acme" || form.Slug != "contact" || form.Settings.MaxFiles != 3 || !form.ModTime.Equal(mtime) {
		t.Errorf("Lookup = %+v", form)
	}
	if strings.Contains(string(form.JSON), `"hub"`) {
		t.Errorf("Form.JSON serves the settings: %s", form.JSON)
	}
	td.wantNotFound("acme", "other")
	td.wantNotFound("other", "contact")
}

func TestLookupRefusesPathTricks(t *testing.T) {
	td := newTestDir(t)
	// Files the tricks would reach if the names went to the file system.
	parent := filepath.Dir(td.path)
	if err := os.WriteFile(filepath.Join(parent, "secret.json"), []byte(titled("secret")), 0o644); err != nil {
		t.Fatal(err)
	}
	td.write("a/b.json", titled("nested"))
	td.write("acme/contact.json", titled("contact"))

	tests := []struct{ site, slug string }{
		{"..", "secret"},
		{"acme", "../../secret"},
		{"acme/..", "acme/contact"},
		{"a/b", "c"},
		{"a", "b/.."},
		{"%2e%2e", "secret"},
		{"acme", "%2e%2e%2fsecret"},
		{"", "contact"},
		{"acme", ""},
		{".", "contact"},
		{".acme", "contact"},
		{"acme", ".contact"},
		{"acme", "contact.json"},
		{`acme\..`, "contact"},
		{"acme\x00", "contact"},
		{"acme", "contact\n"},
		{" acme", "contact"},
		{"acmé", "contact"},
		{"ａcme", "contact"},
		{strings.Repeat("a", 65), "contact"},
		{"acme", strings.Repeat("c", 65)},
		{"/etc", "passwd"},
		{"~", "contact"},
	}
	for _, tt := range tests {
		td.looks = 0
		form, err := td.Lookup(tt.site, tt.slug)
		if !errors.Is(err, hub.ErrNotFound) || form != nil {
			t.Errorf("Lookup(%q, %q) = %v, %v; want hub.ErrNotFound", tt.site, tt.slug, form, err)
		}
		if td.looks != 0 {
			t.Errorf("Lookup(%q, %q) looked at the file system", tt.site, tt.slug)
		}
	}
}

func TestLookupSymlinks(t *testing.T) {
	td := newTestDir(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(titled("secret")), 0o644); err != nil {
		t.Fatal(err)
	}
	td.write("acme/contact.json", titled("contact"))
	links := map[string]string{
		"acme/leak.json":     filepath.Join(outside, "secret.json"), // absolute, out
		"acme/relative.json": "../../../" + filepath.Base(outside) + "/secret.json",
		"evil":               outside, // a site that is a link out
		"acme/alias.json":    "contact.json",
		"alias":              "acme",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(td.path, filepath.FromSlash(name))); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	for _, tt := range []struct{ site, slug string }{{"acme", "leak"}, {"acme", "relative"}, {"evil", "secret"}} {
		form, err := td.Lookup(tt.site, tt.slug)
		var invalid *InvalidError
		if !errors.As(err, &invalid) || form != nil {
			t.Errorf("Lookup(%q, %q) = %v, %v; want an *InvalidError", tt.site, tt.slug, form, err)
		}
	}
	// Refused links are logged once, not at every look.
	td.logs.take()
	for range 3 {
		td.tick()
		td.wantInvalid("acme", "leak")
	}
	if logs := td.logs.take(); len(logs) != 0 {
		t.Errorf("an unchanged refused link was logged again: %q", logs)
	}

	forms, errs := td.Forms()
	for _, f := range forms {
		if f.Schema.Title == "secret" {
			t.Errorf("Forms lists %s/%s from outside the directory", f.Site, f.Slug)
		}
	}
	if len(forms) != 4 || len(errs) != 5 {
		t.Errorf("Forms: %d forms, errors %v; want 4 forms and 5 errors (site alias repeats acme)", len(forms), errs)
	}
	// Links that stay inside the directory work.
	td.wantTitle("acme", "alias", "contact")
	td.wantTitle("alias", "contact", "contact")
}

func TestLookupReloads(t *testing.T) {
	td := newTestDir(t)
	td.write("acme/contact.json", titled("first"))
	td.wantTitle("acme", "contact", "first")

	// Within the interval the file is not looked at again.
	td.write("acme/contact.json", titled("second"))
	td.looks = 0
	td.wantTitle("acme", "contact", "first")
	if td.looks != 0 {
		t.Errorf("cached Lookup looked at the file system %d times", td.looks)
	}
	td.tick()
	td.wantTitle("acme", "contact", "second")
	if logs := td.logs.take(); len(logs) != 1 || !strings.HasPrefix(logs[0], "form reloaded") {
		t.Errorf("logs = %q, want one reload", logs)
	}

	// Same size, new modification time.
	td.write("acme/contact.json", titled("third!"))
	td.tick()
	td.wantTitle("acme", "contact", "third!")
	td.write("acme/contact.json", titled("fourth"))
	td.tick()
	td.wantTitle("acme", "contact", "fourth")

	// An unchanged file is looked at, not read again.
	td.tick()
	before, _ := td.Lookup("acme", "contact")
	td.tick()
	after, _ := td.Lookup("acme", "contact")
	if before != after {
		t.Error("an unchanged file was parsed again")
	}

	// Break it.
	td.logs.take()
	td.write("acme/contact.json", `{"fields": [{"name": "a", "type": "nope"}], "hub": {"maxFiles": -1}}`)
	td.tick()
	invalid := td.wantInvalid("acme", "contact")
	wantPath := filepath.Join(td.path, "acme", "contact.json")
	if invalid.Path != wantPath {
		t.Errorf("InvalidError.Path = %q, want %q", invalid.Path, wantPath)
	}
	for _, want := range []string{wantPath, `field "a": type "nope"`, "hub.maxFiles"} {
		if !strings.Contains(invalid.Error(), want) {
			t.Errorf("InvalidError %q lacks %q", invalid, want)
		}
	}
	logs := td.logs.take()
	if len(logs) != 1 || !strings.Contains(logs[0], "path="+wantPath) || !strings.Contains(logs[0], `type "nope"`) || !strings.Contains(logs[0], "hub.maxFiles") {
		t.Errorf("logs = %q, want one naming the file and its problems", logs)
	}
	// Still broken, unchanged: not logged again.
	td.tick()
	td.wantInvalid("acme", "contact")
	td.tick()
	td.wantInvalid("acme", "contact")
	if logs := td.logs.take(); len(logs) != 0 {
		t.Errorf("an unchanged invalid file was logged again: %q", logs)
	}
	// Broken differently: logged.
	td.write("acme/contact.json", `{"fields": [`)
	td.tick()
	td.wantInvalid("acme", "contact")
	if logs := td.logs.take(); len(logs) != 1 {
		t.Errorf("logs = %q, want one", logs)
	}

	// Fix it.
	td.write("acme/contact.json", titled("fixed"))
	td.tick()
	td.wantTitle("acme", "contact", "fixed")

	// Too large.
	td.write("acme/contact.json", `{"title": "`+strings.Repeat("x", maxFileSize)+`"}`)
	td.tick()
	td.wantInvalid("acme", "contact")

	// Delete it.
	if err := os.Remove(filepath.Join(td.path, "acme", "contact.json")); err != nil {
		t.Fatal(err)
	}
	td.wantInvalid("acme", "contact") // within the interval
	td.tick()
	td.wantNotFound("acme", "contact")

	// Bring it back.
	td.write("acme/contact.json", titled("back"))
	td.wantTitle("acme", "contact", "back")
}

func TestLookupNotRegular(t *testing.T) {
	td := newTestDir(t)
	if err := os.MkdirAll(filepath.Join(td.path, "acme", "dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	td.wantInvalid("acme", "dir")
	td.write("file", "")
	td.wantNotFound("file", "contact") // a site that is a file
}

func TestLookupCachedIsCheap(t *testing.T) {
	td := newTestDir(t)
	td.write("acme/contact.json", titled("contact"))
	td.wantTitle("acme", "contact", "contact")
	td.looks = 0
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := td.Lookup("acme", "contact"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("cached Lookup allocates %v times", allocs)
	}
	if td.looks != 0 {
		t.Errorf("cached Lookup looked at the file system %d times", td.looks)
	}

	// Nor does it wait while another form is being read.
	td.loadMu.Lock()
	defer td.loadMu.Unlock()
	done := make(chan error)
	go func() {
		_, err := td.Lookup("acme", "contact")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cached Lookup waits for loads")
	}
}

func TestForms(t *testing.T) {
	td := newTestDir(t)
	td.write("zeta/a.json", titled("zeta a"))
	td.write("acme/contact-2.json", titled("contact 2"))
	td.write("acme/contact.json", titled("contact"))
	td.write("acme/broken.json", `{"fields": 1}`)
	td.write("acme/bad name.json", titled("bad name"))
	td.write("acme/.hidden.json", titled("hidden"))
	td.write("acme/notes.txt", "not a form")
	td.write(".git/x.json", titled("git"))
	td.write("README.md", "# forms")
	td.write("empty/.keep", "")

	forms, errs := td.Forms()
	var got []string
	for _, f := range forms {
		got = append(got, f.Site+"/"+f.Slug)
	}
	want := []string{"acme/contact", "acme/contact-2", "zeta/a"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Forms = %q, want %q", got, want)
	}
	var paths []string
	for _, err := range errs {
		var invalid *InvalidError
		if !errors.As(err, &invalid) {
			t.Errorf("error %v is not an *InvalidError", err)
			continue
		}
		paths = append(paths, filepath.Base(invalid.Path))
	}
	if fmt.Sprint(paths) != fmt.Sprint([]string{"bad name.json", "broken.json"}) {
		t.Errorf("errors name %q, want bad name.json and broken.json", paths)
	}

	// Forms forgets deleted files.
	if err := os.Remove(filepath.Join(td.path, "zeta", "a.json")); err != nil {
		t.Fatal(err)
	}
	td.tick()
	forms, _ = td.Forms()
	if len(forms) != 2 || len(td.entries) != 3 {
		t.Errorf("after a delete: %d forms, %d cached; want 2 and 3", len(forms), len(td.entries))
	}
}

func TestLookupConcurrent(t *testing.T) {
	td := newTestDir(t)
	testHookFS = nil
	var clock sync.Mutex
	td.now = func() time.Time {
		clock.Lock()
		defer clock.Unlock()
		td.clock = td.clock.Add(10 * time.Millisecond)
		return td.clock
	}
	td.write("acme/contact.json", titled("v0"))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 500 {
				form, err := td.Lookup("acme", "contact")
				var invalid *InvalidError
				switch {
				case err == nil && !strings.HasPrefix(form.Schema.Title, "v"):
					t.Errorf("title %q", form.Schema.Title)
				case err != nil && !errors.Is(err, hub.ErrNotFound) && !errors.As(err, &invalid):
					t.Errorf("Lookup: %v", err)
				}
			}
		})
	}
	for i := range 50 {
		// Written in place, so readers may see a half-written file.
		os.WriteFile(filepath.Join(td.path, "acme", "contact.json"), []byte(titled(fmt.Sprint("v", i))), 0o644)
		td.Forms()
	}
	wg.Wait()
}

func TestDirSites(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"acme/contact.json", "beta/x.json", ".hidden/y.json", "bad name/z.json"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "file.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(root, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if sites, err := d.Sites(); err != nil || !slices.Equal(sites, []string{"acme", "beta"}) {
		t.Errorf("Sites = %q, %v; want acme and beta", sites, err)
	}
}
