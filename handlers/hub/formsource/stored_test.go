package formsource

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// fakeSource is a Source in memory that counts the bodies it reads.
type fakeSource struct {
	live     map[string]int64
	versions map[string][]byte
	reads    int
}

func (f *fakeSource) LiveVersion(_ context.Context, site, slug string) (int64, error) {
	n, ok := f.live[site+"/"+slug]
	if !ok {
		return 0, fmt.Errorf("form: %w", hub.ErrNotFound)
	}
	return n, nil
}

func (f *fakeSource) FormVersion(_ context.Context, site, slug string, n int64) (Version, error) {
	f.reads++
	body, ok := f.versions[fmt.Sprintf("%s/%s/%d", site, slug, n)]
	if !ok {
		return Version{}, fmt.Errorf("version: %w", hub.ErrNotFound)
	}
	return Version{Site: site, Slug: slug, Version: n, Body: body, CreatedAt: time.Unix(n, 0)}, nil
}

func TestStoredServesTheLiveVersion(t *testing.T) {
	src := &fakeSource{
		live: map[string]int64{"acme/contact": 1},
		versions: map[string][]byte{
			"acme/contact/1": []byte(`{"title":"one","hub":{"maxFiles":2}}`),
			"acme/contact/2": []byte(`{"title":"two"}`),
			"acme/bad/1":     []byte(`{"fields":[{"name":"","type":"text"}]}`),
		},
	}
	s := NewStored(src, slog.New(slog.DiscardHandler))
	title := func() string {
		t.Helper()
		f, err := s.Lookup("acme", "contact")
		if err != nil {
			t.Fatal(err)
		}
		return f.Schema.Title
	}
	if got := title(); got != "one" {
		t.Errorf("title = %q, want one", got)
	}
	f, _ := s.Lookup("acme", "contact")
	if f.Version != 1 {
		t.Errorf("Version = %d, want the live version, 1", f.Version)
	}
	if f.Settings.MaxFiles != 2 || strings.Contains(string(f.JSON), `"hub"`) {
		t.Errorf("settings %+v, served %s: want the hub member apart", f.Settings, f.JSON)
	}
	if src.reads != 1 {
		t.Errorf("%d bodies read for two lookups of one version, want 1", src.reads)
	}
	src.live["acme/contact"] = 2
	if got := title(); got != "two" {
		t.Errorf("after publishing 2, title = %q", got)
	}
	src.live["acme/contact"] = 1 // rollback
	if got := title(); got != "one" {
		t.Errorf("after rolling back, title = %q", got)
	}
	if _, err := s.Lookup("acme", "missing"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("missing form: %v", err)
	}
	if _, err := s.Lookup("..", "contact"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("invalid site: %v", err)
	}
	src.live["acme/bad"] = 1
	var invalid *InvalidError
	if _, err := s.Lookup("acme", "bad"); !errors.As(err, &invalid) {
		t.Errorf("a stored version that does not validate: %v, want an InvalidError", err)
	}
}

func TestLayeredDirectoryWins(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "acme", "contact.json"), []byte(`{"title":"file"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "acme", "broken.json"), []byte(`nope`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := Open(root, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	src := &fakeSource{
		live: map[string]int64{"acme/contact": 1, "acme/about": 1, "acme/broken": 1},
		versions: map[string][]byte{
			"acme/contact/1": []byte(`{"title":"db"}`),
			"acme/about/1":   []byte(`{"title":"about"}`),
			"acme/broken/1":  []byte(`{"title":"db"}`),
		},
	}
	l := &Layered{Dir: dir, Stored: NewStored(src, nil)}
	if f, err := l.Lookup("acme", "contact"); err != nil || f.Schema.Title != "file" {
		t.Errorf("clash: %v, %v; want the directory's form", f, err)
	}
	if f, err := l.Lookup("acme", "about"); err != nil || f.Schema.Title != "about" {
		t.Errorf("database form: %v, %v", f, err)
	}
	var invalid *InvalidError
	if _, err := l.Lookup("acme", "broken"); !errors.As(err, &invalid) {
		t.Errorf("a broken file: %v; want its error, not the database's form", err)
	}
	for slug, want := range map[string]bool{"contact": true, "broken": true, "about": false} {
		if got := l.InDirectory("acme", slug); got != want {
			t.Errorf("InDirectory(%s) = %v, want %v", slug, got, want)
		}
	}
	none := &Layered{Stored: NewStored(src, nil)}
	if none.InDirectory("acme", "contact") {
		t.Error("InDirectory without a directory")
	}
	if f, err := none.Lookup("acme", "contact"); err != nil || f.Schema.Title != "db" {
		t.Errorf("without a directory: %v, %v", f, err)
	}
}
