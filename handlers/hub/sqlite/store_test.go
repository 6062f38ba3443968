package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T, handles int) []*sqldb.DB {
		// Handles on one file contend in SQLite itself, as two hub
		// processes would: busy_timeout and immediate transactions must
		// keep every write.
		db, path := openTest(t)
		dbs := []*sqldb.DB{db}
		for range handles - 1 {
			other, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			dbs = append(dbs, other)
		}
		return dbs
	})
}

func BenchmarkCreateSubmission(b *testing.B) {
	ctx := context.Background()
	db, _ := openTest(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := db.CreateSubmission(ctx, storetest.Submission(hub.NewID(time.Now()))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "submissions/s")
}

// migrated returns a pool on a new database file at schema version, and
// a function that opens the file as a hub does, which migrates it.
func migrated(t *testing.T, version int64) (*sql.DB, func() *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	pool, err := openPool(ctx, path, readWrite)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	if err := sqldb.MigrateTo(ctx, dialect, pool, version); err != nil {
		t.Fatal(err)
	}
	return pool, func() *sqldb.DB {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
}

func TestWorkspacesMigration(t *testing.T) {
	old, open := migrated(t, storetest.BeforeWorkspaces)
	storetest.WorkspacesMigration(t, old, open)
}

func TestSearchMigration(t *testing.T) {
	pool, open := migrated(t, storetest.BeforeSearch)
	old := sqldb.New(dialect, pool, nil)
	defer old.Close()
	storetest.SearchMigration(t, old, open)
}

func TestCountsMigration(t *testing.T) {
	pool, open := migrated(t, storetest.BeforeCounts)
	old := sqldb.New(dialect, pool, nil)
	defer old.Close()
	storetest.CountsMigration(t, old, open)
}

func TestProvedAddressesMigration(t *testing.T) {
	old, open := migrated(t, storetest.BeforeProvedAddresses)
	storetest.ProvedAddressesMigration(t, old, open)
}

func TestSummaryMigration(t *testing.T) {
	old, open := migrated(t, storetest.BeforeSummary)
	storetest.SummaryMigration(t, old, open)
}

func TestFormDraftsMigration(t *testing.T) {
	old, open := migrated(t, storetest.BeforeFormDrafts)
	storetest.FormDraftsMigration(t, old, open)
}
