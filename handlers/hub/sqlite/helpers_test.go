package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// openTest opens a fresh database in a temporary directory and closes it
// when the test ends.
func openTest(t testing.TB) (*sqldb.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hub.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db, path
}
