package sqldb

import (
	"context"
	"database/sql"
)

// scanner reads one row: a *sql.Row, or *sql.Rows at a row.
type scanner interface{ Scan(dest ...any) error }

// rowsQuerier runs queries of many rows: the database, or a transaction.
type rowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs query with args on q and returns its rows, each read by
// scan, in their order.
func queryAll[T any](ctx context.Context, q rowsQuerier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
