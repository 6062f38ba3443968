package sqlite

import (
	"context"
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

func TestWorkspacesMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	old, err := openPool(ctx, path, readWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := sqldb.MigrateTo(ctx, dialect, old, storetest.BeforeWorkspaces); err != nil {
		t.Fatal(err)
	}
	storetest.WorkspacesMigration(t, old, func() *sqldb.DB {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestSearchMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	pool, err := openPool(ctx, path, readWrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqldb.MigrateTo(ctx, dialect, pool, storetest.BeforeSearch); err != nil {
		t.Fatal(err)
	}
	old := sqldb.New(dialect, pool, nil)
	defer old.Close()
	storetest.SearchMigration(t, old, func() *sqldb.DB {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestCountsMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	pool, err := openPool(ctx, path, readWrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqldb.MigrateTo(ctx, dialect, pool, storetest.BeforeCounts); err != nil {
		t.Fatal(err)
	}
	old := sqldb.New(dialect, pool, nil)
	defer old.Close()
	storetest.CountsMigration(t, old, func() *sqldb.DB {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
