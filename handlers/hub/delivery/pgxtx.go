package delivery

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// connTx is a transaction that database/sql began on a pgx connection, as
// River's pgx driver takes it: statements run on the connection, inside
// the transaction, which its owner alone ends.
type connTx struct{ conn *pgx.Conn }

var _ pgx.Tx = connTx{}

var errOwned = errors.New("delivery: the submission's transaction is ended by its owner")

func (t connTx) Begin(ctx context.Context) (pgx.Tx, error) { return nil, errOwned }
func (t connTx) Commit(ctx context.Context) error          { return errOwned }
func (t connTx) Rollback(ctx context.Context) error        { return errOwned }

func (t connTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	return t.conn.CopyFrom(ctx, table, columns, src)
}

func (t connTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.conn.SendBatch(ctx, b)
}

func (t connTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t connTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}

func (t connTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return t.conn.Exec(ctx, sql, args...)
}

func (t connTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.conn.Query(ctx, sql, args...)
}

func (t connTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.conn.QueryRow(ctx, sql, args...)
}

func (t connTx) Conn() *pgx.Conn { return t.conn }
