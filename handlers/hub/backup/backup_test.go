package backup_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/backup"
)

// dataDir returns a data directory holding a database (which the
// snapshot stands for), its journal, files and their sidecars, an upload
// under way and the signing key.
func dataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"hub.db": "live database", "hub.db-wal": "journal", "signing.key": "secret",
		"files/acme/contact/k1": "a file", "files/acme/contact/k1.attrs": `{"ContentType":"text/plain"}`,
		"files/acme/contact/k2.1f2e.tmp": "half a file", "files/.parts/x/1": "a part",
		"files/images/0123.png": "png",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot writes a database as of the backup's moment.
func snapshot(_ context.Context, to string) (int64, error) {
	return 34, os.WriteFile(to, []byte("snapshot"), 0o600)
}

func TestTakeAndRestore(t *testing.T) {
	ctx := context.Background()
	data, dest := dataDir(t), t.TempDir()
	at := time.Date(2026, 11, 29, 0, 30, 0, 0, time.UTC)
	m, err := backup.Copy{DataDir: data, Snapshot: snapshot, To: backup.Dir(dest)}.Take(ctx, backup.Name(at), at)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range m.Files {
		paths = append(paths, e.Path)
	}
	if got := strings.Join(paths, " "); got != "hub.db files/acme/contact/k1 files/acme/contact/k1.attrs files/images/0123.png signing.key" {
		t.Errorf("backed up %s", got)
	}
	if m.Schema != 34 || !m.CreatedAt.Equal(at) || m.Bytes() != int64(len("snapshot")+len("a file")+len(`{"ContentType":"text/plain"}`)+len("png")+len("secret")) {
		t.Errorf("manifest %+v", m)
	}
	folder := filepath.Join(dest, "hubform-20261129T003000Z")
	var written backup.Manifest
	if b, err := os.ReadFile(filepath.Join(folder, backup.ManifestName)); err != nil || json.Unmarshal(b, &written) != nil || len(written.Files) != 5 {
		t.Fatalf("the manifest written: %v", err)
	}

	restored := filepath.Join(t.TempDir(), "restored")
	if _, err := backup.Restore(ctx, backup.Dir(folder), restored); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"hub.db": "snapshot", "files/acme/contact/k1": "a file", "signing.key": "secret"} {
		if got, err := os.ReadFile(filepath.Join(restored, filepath.FromSlash(name))); err != nil || string(got) != want {
			t.Errorf("restored %s: %q, %v", name, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(restored, "hub.db-wal")); err == nil {
		t.Error("the live database's journal was restored")
	}

	// Into a directory that holds something: refused, and left alone.
	if _, err := backup.Restore(ctx, backup.Dir(folder), restored); !errors.Is(err, backup.ErrNotEmpty) {
		t.Errorf("a restore into a data directory in use: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(restored, "signing.key")); string(got) != "secret" {
		t.Error("a refused restore changed the data directory")
	}

	// A file changed since: refused, naming it, nothing left.
	os.WriteFile(filepath.Join(folder, "files", "acme", "contact", "k1"), []byte("a fail"), 0o600)
	damaged := t.TempDir()
	_, err = backup.Restore(ctx, backup.Dir(folder), damaged)
	if err == nil || !strings.Contains(err.Error(), "files/acme/contact/k1: SHA-256") || !strings.Contains(err.Error(), "the backup is damaged") {
		t.Errorf("a damaged backup: %v", err)
	}
	if entries, _ := os.ReadDir(damaged); len(entries) != 0 {
		t.Errorf("a refused restore left %d entries", len(entries))
	}
	// Cut short: a file shorter than the manifest says.
	os.WriteFile(filepath.Join(folder, "files", "acme", "contact", "k1"), []byte("a f"), 0o600)
	if _, err := backup.Restore(ctx, backup.Dir(folder), t.TempDir()); err == nil || !strings.Contains(err.Error(), "3 bytes, the manifest says 6") {
		t.Errorf("a file cut short: %v", err)
	}
	// Without a manifest, a backup cut short.
	os.Remove(filepath.Join(folder, backup.ManifestName))
	if _, err := backup.Restore(ctx, backup.Dir(folder), t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a complete backup") {
		t.Errorf("a backup without its manifest: %v", err)
	}
}

// TestRestoreStaysInTheDataDirectory: a manifest naming a path outside
// the data directory is refused.
func TestRestoreStaysInTheDataDirectory(t *testing.T) {
	src := t.TempDir()
	outside := filepath.Join(filepath.Dir(src), "evil")
	os.WriteFile(filepath.Join(src, backup.ManifestName), []byte(`{"format":1,"files":[{"path":"../evil","size":4,"sha256":"x"}]}`), 0o600)
	if _, err := backup.Restore(context.Background(), backup.Dir(src), t.TempDir()); err == nil || !strings.Contains(err.Error(), "outside the data directory") {
		t.Errorf("a path outside: %v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a file was written outside the data directory")
	}
	os.WriteFile(filepath.Join(src, backup.ManifestName), []byte(`{"format":2,"files":[]}`), 0o600)
	if _, err := backup.Restore(context.Background(), backup.Dir(src), t.TempDir()); err == nil || !strings.Contains(err.Error(), "format 2") {
		t.Errorf("a later format: %v", err)
	}
}

// TestMaxRate: a backup's database and files are written at its MaxRate.
// A rate limiter refuses at once a wait past its context's deadline, so
// a backup of 8 MiB at 100 kB a second is refused within 30 seconds
// while the same backup without a limit is taken.
func TestMaxRate(t *testing.T) {
	big := make([]byte, 8<<20)
	bigSnapshot := func(_ context.Context, to string) (int64, error) {
		return 34, os.WriteFile(to, big, 0o600)
	}
	withBigFile := dataDir(t)
	os.WriteFile(filepath.Join(withBigFile, "files", "acme", "contact", "k3"), big, 0o600)
	for _, c := range []struct {
		name     string
		data     string
		snapshot backup.Snapshotter
	}{
		{"the database", dataDir(t), bigSnapshot},
		{"a file", withBigFile, snapshot},
	} {
		for _, rate := range []int64{0, 100e3} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, err := backup.Copy{DataDir: c.data, Snapshot: c.snapshot, To: backup.Dir(t.TempDir()), MaxRate: rate}.Take(ctx, "b", time.Now())
			cancel()
			if limited := err != nil && strings.Contains(err.Error(), "exceed context deadline"); limited != (rate > 0) {
				t.Errorf("%s at %d bytes a second: %v", c.name, rate, err)
			}
		}
	}
}
