package sqldb

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// TrashSubmissions marks the submissions of site and form with the given
// ids as deleted at at, and returns how many it marked and the keys of
// their files, which stay where they are: a deleted submission is left
// out of every read, UndeleteSubmissions restores it, and PurgeDeleted
// removes it with its files once its grace period is over. Ids of another
// form, of no submission, or of one deleted already count for nothing.
func (db *DB) TrashSubmissions(ctx context.Context, site, slug string, ids []string, at time.Time) (hub.Deleted, error) {
	var d hub.Deleted
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		for chunk := range slices.Chunk(ids, maxIDs) {
			inIDs, args := in(chunk, []any{site, slug, millis(at)})
			ids, err := queryAll(ctx, tx, scanString, `UPDATE submissions SET deleted_at = $3
				WHERE site = $1 AND form = $2 AND deleted_at IS NULL AND id `+inIDs+` RETURNING id`, args...)
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				continue
			}
			d.Submissions += len(ids)
			inIDs, args = in(ids, nil)
			keys, err := queryAll(ctx, tx, scanString, `SELECT key FROM uploads WHERE submission_id `+inIDs+` ORDER BY key`, args...)
			if err != nil {
				return err
			}
			d.Files = append(d.Files, keys...)
		}
		return nil
	})
	if err != nil {
		return hub.Deleted{}, db.errorf("delete submissions of %s/%s for a while: %w", site, slug, err)
	}
	return d, nil
}

// UndeleteSubmissions restores the submissions of site and form with the
// given ids that TrashSubmissions marked at since or later, and returns
// how many it restored. Those deleted before since, whose grace period is
// over, stay deleted even if PurgeDeleted has not removed them yet.
func (db *DB) UndeleteSubmissions(ctx context.Context, site, slug string, ids []string, since time.Time) (int, error) {
	n := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		for chunk := range slices.Chunk(ids, maxIDs) {
			inIDs, args := in(chunk, []any{site, slug, millis(since)})
			res, err := tx.ExecContext(ctx, `UPDATE submissions SET deleted_at = NULL
				WHERE site = $1 AND form = $2 AND deleted_at >= $3 AND id `+inIDs, args...)
			if err != nil {
				return err
			}
			m, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n += int(m)
		}
		return nil
	})
	if err != nil {
		return 0, db.errorf("restore submissions of %s/%s: %w", site, slug, err)
	}
	return n, nil
}

// PurgeDeleted removes at most limit submissions, of any form, that
// TrashSubmissions marked before before, with the records of their files,
// as DeleteSubmissions does. The caller deletes the files named in the
// result. Hubs sharing the database may run it at once: a submission is
// removed, and counted, by one of them only.
func (db *DB) PurgeDeleted(ctx context.Context, before time.Time, limit int) (hub.Deleted, error) {
	var d hub.Deleted
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		type row struct{ site, form, id string }
		rows, err := queryAll(ctx, tx, func(s scanner) (row, error) {
			var r row
			err := s.Scan(&r.site, &r.form, &r.id)
			return r, err
		}, `SELECT site, form, id FROM submissions WHERE deleted_at IS NOT NULL AND deleted_at < $1 ORDER BY deleted_at, id LIMIT $2`,
			millis(before), limit)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := deleteIDs(ctx, tx, r.site, r.form, []string{r.id}, &d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return hub.Deleted{}, db.errorf("purge deleted submissions: %w", err)
	}
	return d, nil
}

// scanString reads a row of one string.
func scanString(row scanner) (string, error) {
	var s string
	err := row.Scan(&s)
	return s, err
}
