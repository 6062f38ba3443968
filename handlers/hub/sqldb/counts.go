package sqldb

import (
	"context"
	"database/sql"
	"time"
)

// compactWeek is how many quarters of an hour, a week's, one transaction
// of CompactCounts compacts.
const compactWeek = 7 * 24 * 4

// CompactCounts rewrites the rows of submission_counts of the quarters of
// an hour before before: it sums the slots that concurrent writers spread
// a quarter over (PostgreSQL's) into slot 0, and deletes the rows that
// reached 0. A count then sums at most one row a quarter. It works a week
// of quarters per transaction, and returns how many rows it deleted, slots
// summed into slot 0 among them. Writers may go on meanwhile: a slot
// written after it read the quarter stays, for the next time. The hub
// runs it with its sweep.
func (db *DB) CompactCounts(ctx context.Context, before time.Time) (int, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	end := millis(before) / 900000
	var first sql.NullInt64
	err = db.r.QueryRowContext(ctx, `SELECT MIN(quarter) FROM (SELECT quarter FROM submission_counts WHERE quarter < $1
		GROUP BY site, form, quarter, spam HAVING COUNT(*) > 1 OR SUM(CASE WHEN n = 0 THEN 1 ELSE 0 END) > 0) compactable`, end).Scan(&first)
	if err != nil {
		return 0, db.errorf("compact counts: %w", err)
	}
	if !first.Valid {
		return 0, nil
	}
	removed := 0
	for from := first.Int64; from < end; from += compactWeek {
		n, err := db.compactQuarters(ctx, w, from, min(from+compactWeek, end))
		removed += n
		if err != nil {
			return removed, db.errorf("compact counts: %w", err)
		}
	}
	return removed, nil
}

// compactQuarters is CompactCounts for the quarters from from to to, in
// one transaction.
func (db *DB) compactQuarters(ctx context.Context, w *sql.DB, from, to int64) (int, error) {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	removed, err := mergeSlots(ctx, tx, db.countSlots, from, to)
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM submission_counts WHERE quarter >= $1 AND quarter < $2 AND n = 0`, from, to)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return removed + int(n), tx.Commit()
}

// withSibling is the condition on a row c of submission_counts that
// another slot holds its form, quarter and spam mark: a quarter of one row
// is compact whatever its slot, and rewriting it would only leave a dead
// row behind.
const withSibling = ` AND EXISTS (SELECT 1 FROM submission_counts o
	WHERE o.site = c.site AND o.form = c.form AND o.quarter = c.quarter AND o.spam = c.spam AND o.slot <> c.slot)`

// mergeSlots sums the slots of the quarters from from to to that several
// slots hold into slot 0, and returns how many slot rows it deleted. With
// concurrent writers (PostgreSQL) it is one statement, so that the slots
// summed are those deleted: the DELETE waits for a writer holding a slot and returns the
// slot as that writer left it. With one writer (SQLite, which has no
// modifying WITH), two statements in one transaction do the same.
func mergeSlots(ctx context.Context, tx *sql.Tx, concurrent bool, from, to int64) (int, error) {
	if concurrent {
		var n int
		err := tx.QueryRowContext(ctx, `WITH slots AS (
			DELETE FROM submission_counts c WHERE quarter >= $1 AND quarter < $2 AND slot <> 0`+withSibling+`
			RETURNING site, form, quarter, spam, n
		), merged AS (
			INSERT INTO submission_counts AS c (site, form, quarter, spam, slot, n)
			SELECT site, form, quarter, spam, 0, SUM(n) FROM slots GROUP BY site, form, quarter, spam
			ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = c.n + EXCLUDED.n
		)
		SELECT COUNT(*) FROM slots`, from, to).Scan(&n)
		return n, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO submission_counts AS c (site, form, quarter, spam, slot, n)
		SELECT site, form, quarter, spam, 0, SUM(n) FROM submission_counts c
		WHERE quarter >= $1 AND quarter < $2 AND slot <> 0`+withSibling+` GROUP BY site, form, quarter, spam
		ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = c.n + EXCLUDED.n`, from, to); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM submission_counts AS c WHERE quarter >= $1 AND quarter < $2 AND slot <> 0`+withSibling, from, to)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
