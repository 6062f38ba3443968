package sqldb

import (
	"context"
	"database/sql"

	"github.com/hubform/hubform/handlers/hub"
)

// ListPayloads calls fn with the payload of each submission f selects,
// reading the payload alone: an export gathers its columns so. The payload fn gets is valid until fn
// returns. An error from fn stops the listing and is returned as is.
func (db *DB) ListPayloads(ctx context.Context, f hub.Filter, fn func(payload []byte) error) error {
	if f.Limit > 0 {
		// A page may be read from its recent windows; listing it whole
		// keeps one way to choose it.
		return db.ListSubmissions(ctx, f, func(s hub.Submission) error { return fn(s.Payload) })
	}
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return db.errorf("list payloads: %w", err)
	}
	query, args := db.listQuery(f, ask)
	rows, end, err := db.searchRows(ctx, ask, `SELECT payload FROM (`+query+`) listed`, args...)
	if err != nil {
		return db.errorf("list payloads: %w", err)
	}
	defer end()
	defer rows.Close()
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return db.errorf("list payloads: %w", err)
		}
		var payload sql.RawBytes
		if err := rows.Scan(&payload); err != nil {
			return db.errorf("list payloads: %w", err)
		}
		if err := fn(payload); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return db.errorf("list payloads: %w", err)
	}
	return nil
}
