package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// cachedConn returns a connection of a pool opened as Open opens them, and
// the cache behind it.
func cachedConn(t *testing.T) (*sql.Conn, *cachingConn) {
	t.Helper()
	ctx := context.Background()
	pool, err := openPool(ctx, filepath.Join(t.TempDir(), "cache.db"), readWrite)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	conn, err := pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var cc *cachingConn
	if err := conn.Raw(func(dc any) error { cc = dc.(*cachingConn); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if _, err := conn.ExecContext(ctx, `INSERT INTO t (n) VALUES ($1)`, n); err != nil {
			t.Fatal(err)
		}
	}
	return conn, cc
}

func TestConnectionKeepsStatements(t *testing.T) {
	ctx := context.Background()
	conn, cc := cachedConn(t)
	insert := cc.byQuery[`INSERT INTO t (n) VALUES ($1)`]
	if insert == nil {
		t.Fatal("the insert was not kept")
	}
	kept := insert.Value.(*cachedStmt).stmt
	if _, err := conn.ExecContext(ctx, `INSERT INTO t (n) VALUES ($1)`, 3); err != nil {
		t.Fatal(err)
	}
	if got := cc.byQuery[`INSERT INTO t (n) VALUES ($1)`].Value.(*cachedStmt).stmt; got != kept {
		t.Error("the insert was prepared again")
	}
	// A kept statement survives a change of the table: SQLite prepares it
	// again by itself.
	if _, err := conn.ExecContext(ctx, `ALTER TABLE t ADD COLUMN m INTEGER NOT NULL DEFAULT 7`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO t (n) VALUES ($1)`, 4); err != nil {
		t.Fatal(err)
	}
	var n, m int
	if err := conn.QueryRowContext(ctx, `SELECT count(*), sum(m) FROM t`).Scan(&n, &m); err != nil || n != 5 || m != 35 {
		t.Errorf("count, sum(m) = %d, %d (%v); want 5, 35", n, m, err)
	}
}

// TestStatementReadTwiceAtOnce reads a query while the same query runs
// again on the connection, as a transaction may: each run reads its own
// rows.
func TestStatementReadTwiceAtOnce(t *testing.T) {
	ctx := context.Background()
	conn, _ := cachedConn(t)
	const query = `SELECT n FROM t WHERE n >= $1 ORDER BY n`
	outer, err := conn.QueryContext(ctx, query, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for outer.Next() && len(got) < 10 {
		var n int
		outer.Scan(&n)
		inner, err := conn.QueryContext(ctx, query, n)
		if err != nil {
			t.Fatal(err)
		}
		var ns []int
		for inner.Next() {
			var m int
			inner.Scan(&m)
			ns = append(ns, m)
		}
		if err := inner.Close(); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(n, ns))
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if want := "[0 [0 1 2] 1 [1 2] 2 [2]]"; fmt.Sprint(got) != want {
		t.Errorf("read %v, want %v", got, want)
	}
}

// TestStatementsKeptAreBounded runs more distinct queries than a connection
// keeps, one of them still being read when the cache lets go of it.
func TestStatementsKeptAreBounded(t *testing.T) {
	ctx := context.Background()
	conn, cc := cachedConn(t)
	open, err := conn.QueryContext(ctx, `SELECT n FROM t WHERE n < 10 ORDER BY n`)
	if err != nil {
		t.Fatal(err)
	}
	insert := cc.byQuery[`INSERT INTO t (n) VALUES ($1)`]
	for i := range stmtCacheSize + 10 {
		var n int
		if err := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT %d`, i)).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d, %v", i, n, err)
		}
		// The insert, run all along, is the last to go.
		if _, err := conn.ExecContext(ctx, `INSERT INTO t (n) VALUES ($1)`, 10+i); err != nil {
			t.Fatal(err)
		}
	}
	if cc.byQuery[`INSERT INTO t (n) VALUES ($1)`] != insert {
		t.Error("the statement used most recently was let go")
	}
	if len(cc.byQuery) != stmtCacheSize || cc.lru.Len() != stmtCacheSize {
		t.Errorf("kept %d statements (%d in order), want %d", len(cc.byQuery), cc.lru.Len(), stmtCacheSize)
	}
	var ns []int
	for open.Next() {
		var n int
		open.Scan(&n)
		ns = append(ns, n)
	}
	if err := open.Close(); err != nil || fmt.Sprint(ns) != "[0 1 2]" {
		t.Errorf("the evicted statement read %v (%v), want [0 1 2]", ns, err)
	}
}
