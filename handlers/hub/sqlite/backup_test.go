package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

// beforeThemeImages is the schema before migration 34, the newest but
// one.
const beforeThemeImages = 33

// TestBackupOfAnOlderSchema backs up a database one migration older than
// this hubform, while it is open, restores it, and opens the restored
// database as a hub does: migrated, its submission there.
func TestBackupOfAnOlderSchema(t *testing.T) {
	ctx := context.Background()
	pool, _ := migrated(t, beforeThemeImages)
	old := sqldb.New(dialect, pool, nil)
	var path string
	if err := pool.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		t.Fatal(err)
	}
	s := storetest.Submission(hub.NewID(time.Now()))
	if err := old.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	data, dest := t.TempDir(), t.TempDir()
	snapshot := func(ctx context.Context, to string) (int64, error) { return Snapshot(ctx, path, to) }
	m, err := backup.Copy{DataDir: data, Snapshot: snapshot, To: backup.Dir(dest)}.Take(ctx, "b", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dest, "b", backup.DatabaseName)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the backup's database: %v, %v; want it private", info, err)
	}
	if m.Schema != beforeThemeImages {
		t.Errorf("the backup's schema version %d, want %d", m.Schema, beforeThemeImages)
	}
	restored := filepath.Join(t.TempDir(), "data")
	if _, err := backup.Restore(ctx, backup.Dir(filepath.Join(dest, "b")), restored); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(restored, backup.DatabaseName)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the restored database: %v, %v; want it private", info, err)
	}
	db, err := Open(ctx, filepath.Join(restored, backup.DatabaseName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.Submission(ctx, s.ID); err != nil || got.ID != s.ID {
		t.Errorf("the submission restored: %+v, %v", got, err)
	}
	if _, err := db.Image(ctx, "images/x.png"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("the restored database was not migrated: %v", err)
	}
}
