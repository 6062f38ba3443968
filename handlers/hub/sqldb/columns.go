package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// HiddenColumns returns the names of the columns of the table of site and
// slug's submissions that the user of email hid, none when they chose
// nothing: a choice is the user's own, whoever else reads the form.
func (db *DB) HiddenColumns(ctx context.Context, email, site, slug string) ([]string, error) {
	var hidden string
	err := db.r.QueryRowContext(ctx, `SELECT hidden FROM column_choices WHERE email = $1 AND site = $2 AND form = $3`,
		email, site, slug).Scan(&hidden)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, db.errorf("columns of %s/%s for %s: %w", site, slug, email, err)
	}
	var names []string
	if err := json.Unmarshal([]byte(hidden), &names); err != nil {
		return nil, db.errorf("columns of %s/%s for %s: %w", site, slug, email, err)
	}
	return names, nil
}

// SetHiddenColumns keeps hidden as the columns of the table of site and
// slug's submissions that the user of email hid, at at, in place of their
// choice before; with none hidden it forgets the choice. It changes no one
// else's. The user must exist: their choices go with them.
func (db *DB) SetHiddenColumns(ctx context.Context, email, site, slug string, hidden []string, at time.Time) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if len(hidden) == 0 {
		_, err = w.ExecContext(ctx, `DELETE FROM column_choices WHERE email = $1 AND site = $2 AND form = $3`, email, site, slug)
	} else {
		// A name comes from a payload and may hold any character:
		// encoding/json makes invalid UTF-8 valid, and escapes NUL.
		b, _ := json.Marshal(hidden)
		_, err = w.ExecContext(ctx, `INSERT INTO column_choices (email, site, form, hidden, updated_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (email, site, form) DO UPDATE SET hidden = excluded.hidden, updated_at = excluded.updated_at`,
			email, site, slug, string(b), millis(at))
	}
	if err != nil {
		return db.errorf("choose columns of %s/%s for %s: %w", site, slug, email, err)
	}
	return nil
}
