package sqlite

import (
	"container/list"
	"context"
	"database/sql/driver"
	"errors"
)

// stmtCacheSize is how many prepared statements one connection keeps. The
// hub's queries and its job queue's are a few dozen texts; queries built
// per request (filters, IN lists) pass through without crowding them out
// for long.
const stmtCacheSize = 128

// cachingConnector opens connections that keep their prepared statements.
// SQLite parses a statement's text every time it is run unless it is kept
// prepared, and database/sql prepares nothing it is not asked to: for the
// small statements a hub runs, parsing took as long as running them, on
// the one connection that writes. The job queue's statements, which the
// hub cannot prepare itself, gain the most.
type cachingConnector struct{ driver.Connector }

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newCachingConn(conn)
}

// sqliteConn is what cachingConn needs of the driver's connections.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.SessionResetter
	driver.Validator
}

// sqliteStmt is what cachingConn needs of the driver's statements.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

func newCachingConn(conn driver.Conn) (driver.Conn, error) {
	c, ok := conn.(sqliteConn)
	if !ok {
		conn.Close()
		return nil, errors.New("sqlite: the driver's connection cannot keep statements")
	}
	return &cachingConn{sqliteConn: c, byQuery: map[string]*list.Element{}, lru: list.New()}, nil
}

// cachingConn runs each query text through a statement it prepared once,
// the most recently used stmtCacheSize of them. database/sql uses a
// connection from one goroutine at a time, so it needs no lock; but rows
// may still be open on a statement when the same text runs again on the
// connection (a transaction reading while it writes), and that run gets
// a statement of its own.
type cachingConn struct {
	sqliteConn
	byQuery map[string]*list.Element // of *cachedStmt, in lru
	lru     *list.List               // front: most recently used
}

type cachedStmt struct {
	query string
	stmt  sqliteStmt
	// reading is true while rows from stmt are open; evicted, once the
	// cache has let go of it, so that the rows close it.
	reading, evicted bool
}

// stmt returns the statement kept for query, preparing it if needed, or
// nil when it is busy reading.
func (c *cachingConn) stmt(ctx context.Context, query string) (*cachedStmt, error) {
	if e, ok := c.byQuery[query]; ok {
		c.lru.MoveToFront(e)
		cs := e.Value.(*cachedStmt)
		if cs.reading {
			return nil, nil
		}
		return cs, nil
	}
	s, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	stmt, ok := s.(sqliteStmt)
	if !ok {
		s.Close()
		return nil, errors.New("sqlite: the driver's statement cannot run with a context")
	}
	cs := &cachedStmt{query: query, stmt: stmt}
	c.byQuery[query] = c.lru.PushFront(cs)
	for c.lru.Len() > stmtCacheSize {
		c.evict(c.lru.Back())
	}
	return cs, nil
}

// evict forgets the statement e holds, and closes it unless rows are open
// on it, which close it in turn.
func (c *cachingConn) evict(e *list.Element) {
	cs := c.lru.Remove(e).(*cachedStmt)
	delete(c.byQuery, cs.query)
	cs.evicted = true
	if !cs.reading {
		cs.stmt.Close()
	}
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	return cs.stmt.ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	rows, err := cs.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	r, ok := rows.(sqliteRows)
	if !ok {
		rows.Close()
		return nil, errors.New("sqlite: the driver's rows do not describe their columns")
	}
	cs.reading = true
	return &cachedRows{sqliteRows: r, cs: cs}, nil
}

// Close closes the kept statements, then the connection.
func (c *cachingConn) Close() error {
	for e := c.lru.Front(); e != nil; e = c.lru.Front() {
		c.evict(e)
	}
	return c.sqliteConn.Close()
}

// sqliteRows is what the driver's rows are, column types included.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// cachedRows are rows read from a kept statement, which they give back
// when closed.
type cachedRows struct {
	sqliteRows
	cs *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.sqliteRows.Close()
	r.cs.reading = false
	if r.cs.evicted {
		r.cs.stmt.Close()
	}
	return err
}
