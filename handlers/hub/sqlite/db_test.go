package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
)

func TestOpenCreatesDirsAndEscapesPath(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{
		"a/b/c/hub.db",
		"with space/hub.db",
		"q?mark/hub#1.db",
		"per%20cent/hub%3F.db",
		"amp&eq=/hub;x.db",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), filepath.FromSlash(name))
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer db.Close()
			if err := db.CreateSubmission(ctx, storetest.Submission("01")); err != nil {
				t.Fatalf("CreateSubmission: %v", err)
			}
			// The file SQLite wrote must be the one named, not a
			// misparsed neighbour.
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatalf("database file not at the path given: %v", err)
			}
			if mode := fi.Mode().Perm(); mode != 0o600 {
				t.Errorf("file mode = %v, want 0600", mode)
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			for _, e := range entries {
				if !strings.HasPrefix(e.Name(), filepath.Base(path)) {
					t.Errorf("unexpected file %q beside the database", e.Name())
				}
			}
		})
	}
}

func TestOpenTwiceAndReopen(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	if err := db.CreateSubmission(ctx, storetest.Submission("01")); err != nil {
		t.Fatal(err)
	}
	storetest.MustCreateUpload(t, db, storetest.Upload("uploads/k"))

	// A second handle on the same file applies no migration again.
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	if n := storetest.Count(t, db2, hub.Filter{}); n != 1 {
		t.Errorf("second handle counts %d submissions, want 1", n)
	}
	if err := db2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened after both closed, the data is still there.
	db3, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db3.Close()
	want := storetest.Submission("01")
	want.Attachments = []hubclient.Attachment{}
	if got := storetest.ListAll(t, db3, hub.Filter{}); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("after reopen: %+v", got)
	}
	if _, err := db3.Upload(ctx, "uploads/k"); err != nil {
		t.Errorf("after reopen: %v", err)
	}
	var versions int
	if err := db3.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if want := len(mustSources(t)); versions != want {
		t.Errorf("%d migrations recorded, want %d (each once)", versions, want)
	}
}

func mustSources(t *testing.T) []fs.DirEntry {
	t.Helper()
	entries, err := fs.ReadDir(sqldb.Migrations(dialect), ".")
	if err != nil || len(entries) == 0 {
		t.Fatalf("embedded migrations: %v, %d files", err, len(entries))
	}
	return entries
}

func TestReaderPoolIsQueryOnly(t *testing.T) {
	// The methods that read use a pool that cannot write, so a read can
	// never take the write lock from the writer.
	db, _ := openTest(t)
	if _, err := db.Reader().ExecContext(context.Background(), `DELETE FROM submissions`); err == nil {
		t.Error("DELETE through the reading pool succeeded")
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	rw, path := openTest(t)
	storetest.MustCreateUpload(t, rw, storetest.Upload("uploads/a"))
	if err := rw.CreateSubmission(ctx, storetest.Submission("01", storetest.Attachment(storetest.Upload("uploads/a")))); err != nil {
		t.Fatal(err)
	}

	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	defer ro.Close()
	if n := storetest.Count(t, ro, hub.Filter{}); n != 1 {
		t.Errorf("read-only handle counts %d, want 1", n)
	}
	// Writes of the other handle become visible while both are open.
	if err := rw.CreateSubmission(ctx, storetest.Submission("02")); err != nil {
		t.Fatal(err)
	}
	if got := storetest.ListAll(t, ro, hub.Filter{}); len(got) != 2 || got[1].ID != "02" {
		t.Errorf("read-only handle lists %+v, want 01 and 02", got)
	}
	if u, err := ro.Upload(ctx, "uploads/a"); err != nil || u.SubmissionID != "01" {
		t.Errorf("Upload = %+v, %v", u, err)
	}

	writes := map[string]func() error{
		"CreateUpload":     func() error { return ro.CreateUpload(ctx, storetest.Upload("uploads/b")) },
		"MarkUploaded":     func() error { return ro.MarkUploaded(ctx, "uploads/a", storetest.T0) },
		"CreateSubmission": func() error { return ro.CreateSubmission(ctx, storetest.Submission("03")) },
		"DeleteUpload":     func() error { return ro.DeleteUpload(ctx, "uploads/a") },
		"Allow": func() error {
			_, _, err := ro.Allow(ctx, "192.0.2.1", 1, time.Minute, storetest.T0)
			return err
		},
	}
	for name, write := range writes {
		if err := write(); !errors.Is(err, sqldb.ErrReadOnly) {
			t.Errorf("%s on read-only handle: %v, want ErrReadOnly", name, err)
		}
	}
	// SQLite itself refuses too: the file is open read-only, not just
	// guarded by the methods.
	if _, err := ro.Reader().ExecContext(ctx, `DELETE FROM submissions`); err == nil {
		t.Error("DELETE through the read-only pool succeeded")
	}
	if n := storetest.Count(t, rw, hub.Filter{}); n != 2 {
		t.Errorf("after refused writes: %d submissions, want 2", n)
	}
}

func TestOpenReadOnlyAfterClose(t *testing.T) {
	// With no writer left, the WAL files are gone; a read-only open must
	// still work.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSubmission(ctx, storetest.Submission("01")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	defer ro.Close()
	if n := storetest.Count(t, ro, hub.Filter{}); n != 1 {
		t.Errorf("count = %d, want 1", n)
	}
}

func TestOpenReadOnlyRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	// An empty SQLite database: no version table at all.
	empty := filepath.Join(dir, "empty.db")
	rawExec(t, empty, `CREATE TABLE other (x INTEGER)`)

	// A database whose migrations stopped before this package's last.
	old := filepath.Join(dir, "old.db")
	store, err := database.NewStore(goose.DialectSQLite3, goose.DefaultTablename)
	if err != nil {
		t.Fatal(err)
	}
	withRaw(t, old, func(db *sql.DB) {
		if err := store.CreateVersionTable(ctx, db); err != nil {
			t.Fatal(err)
		}
		if err := store.Insert(ctx, db, database.InsertRequest{Version: 0}); err != nil {
			t.Fatal(err)
		}
	})

	tests := []struct {
		name, path string
		is         error
		msg        string
	}{
		{"missing", filepath.Join(dir, "missing.db"), fs.ErrNotExist, "missing.db"},
		{"not a hub database", empty, nil, "not a hub database"},
		{"older schema", old, nil, "older"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := OpenReadOnly(ctx, tt.path)
			if err == nil {
				db.Close()
				t.Fatal("OpenReadOnly succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
	// A missing file must stay missing.
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenReadOnly created the missing file: %v", err)
	}
}

// withRaw runs fn on a plain connection to the database file at path.
func withRaw(t *testing.T, path string, fn func(*sql.DB)) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fn(db)
}

// rawExec runs query on a plain connection to the database file at path.
func rawExec(t *testing.T, path, query string) {
	t.Helper()
	withRaw(t, path, func(db *sql.DB) {
		if _, err := db.Exec(query); err != nil {
			t.Fatal(err)
		}
	})
}
