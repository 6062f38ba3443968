package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"

	"github.com/hubform/hubform/hubclient"
)

// maxIDs is the most ids one statement names; longer lists are taken in
// several statements of one transaction.
const maxIDs = 500

// in returns "IN ($n, …)" for ids, appending them to args.
func in(ids []string, args []any) (string, []any) {
	marks := make([]string, len(ids))
	for i, id := range ids {
		args = append(args, id)
		marks[i] = "$" + strconv.Itoa(len(args))
	}
	return "IN (" + strings.Join(marks, ", ") + ")", args
}

// DeleteSubmissions deletes the submissions of site and form with the
// given ids, and the records of their files, in one transaction. Ids of
// another form, or of no submission, are left alone: they count for
// nothing. The caller deletes the files named in the result.
func (db *DB) DeleteSubmissions(ctx context.Context, site, slug string, ids []string) (hub.Deleted, error) {
	var d hub.Deleted
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		for chunk := range slices.Chunk(ids, maxIDs) {
			if err := deleteIDs(ctx, tx, site, slug, chunk, &d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return hub.Deleted{}, db.errorf("delete submissions of %s/%s: %w", site, slug, err)
	}
	return d, nil
}

// DeleteSubmissionsBefore deletes at most limit submissions of site and
// form created before before, oldest first, with the records of their
// files, as DeleteSubmissions does. Hubs sharing the database may run it
// at once: a submission is deleted, and counted, by one of them only.
func (db *DB) DeleteSubmissionsBefore(ctx context.Context, site, slug string, before time.Time, limit int) (hub.Deleted, error) {
	var d hub.Deleted
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx,
			`SELECT id FROM submissions WHERE site = $1 AND form = $2 AND created_at < $3 ORDER BY created_at, id LIMIT $4`,
			site, slug, millis(before), limit)
		if err != nil {
			return err
		}
		ids, err := scanStrings(rows)
		if err != nil || len(ids) == 0 {
			return err
		}
		return deleteIDs(ctx, tx, site, slug, ids, &d)
	})
	if err != nil {
		return hub.Deleted{}, db.errorf("delete submissions of %s/%s before %s: %w", site, slug, before.Format(time.RFC3339), err)
	}
	return d, nil
}

// deleteIDs deletes the submissions of site and form with the ids, their
// upload records first, which reference them, and adds what it deleted to
// d. Of transactions racing to delete one submission, the statements of
// the later ones find nothing left and report nothing.
func deleteIDs(ctx context.Context, tx *sql.Tx, site, slug string, ids []string, d *hub.Deleted) error {
	inIDs, args := in(ids, []any{site, slug})
	rows, err := tx.QueryContext(ctx, `DELETE FROM uploads WHERE submission_id IN
		(SELECT id FROM submissions WHERE site = $1 AND form = $2 AND id `+inIDs+`) RETURNING key`, args...)
	if err != nil {
		return err
	}
	keys, err := scanStrings(rows)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM submissions WHERE site = $1 AND form = $2 AND id `+inIDs, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	d.Submissions += int(n)
	d.Files = append(d.Files, keys...)
	return nil
}

// SetSpam marks the submissions of site and form with the given ids as
// spam, or as not spam, and returns how many it found. Ids of another
// form are left alone.
//
// Marking as not spam releases the submissions the hub flagged, whose
// deliveries are held: in the same transaction each loses its held mark
// and the DB's SubmissionHook runs for it as for a submission just stored,
// so that its deliveries are made now, and once, however often it is
// marked again. A released submission is not held to the form's limits:
// they were not checked when it was stored, and are not now, as a
// submission an owner wants is not refused; its unique values are not
// recorded either. Marking as spam leaves the held mark as it is.
func (db *DB) SetSpam(ctx context.Context, site, slug string, ids []string, spam bool) (int, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	n := 0
	err = db.inSubmissionTx(ctx, w, func(tx Tx) error {
		for chunk := range slices.Chunk(ids, maxIDs) {
			var released []hub.Submission
			if !spam {
				var err error
				if released, err = release(ctx, tx, site, slug, chunk); err != nil {
					return err
				}
			}
			inIDs, args := in(chunk, []any{site, slug, spam})
			res, err := tx.ExecContext(ctx, `UPDATE submissions SET spam = $3 WHERE site = $1 AND form = $2 AND id `+inIDs, args...)
			if err != nil {
				return err
			}
			m, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n += int(m)
			if db.onSubmission == nil {
				continue
			}
			for _, s := range released {
				s.Spam = false
				if err := db.onSubmission(ctx, tx, s); err != nil {
					return fmt.Errorf("releasing submission %s: %w", s.ID, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, db.errorf("mark submissions of %s/%s as spam %v: %w", site, slug, spam, err)
	}
	return n, nil
}

// release clears the held mark of the submissions of site and form among
// ids that carry it, and returns them. They are read whole before the
// caller runs its hook on the transaction's connection.
func release(ctx context.Context, tx Tx, site, slug string, ids []string) ([]hub.Submission, error) {
	inIDs, args := in(ids, []any{site, slug, false})
	return queryAll(ctx, tx, scanSubmission, `UPDATE submissions SET held = $3
		WHERE site = $1 AND form = $2 AND held AND id `+inIDs+` RETURNING `+submissionColumns, args...)
}

// SubmissionForms returns the forms that have submissions, in no
// particular order: those whose retention the hub applies.
func (db *DB) SubmissionForms(ctx context.Context) ([]hubclient.FormID, error) {
	out, err := queryAll(ctx, db.r, func(row scanner) (hubclient.FormID, error) {
		var k hubclient.FormID
		if err := row.Scan(&k.Site, &k.Slug); err != nil {
			return k, err
		}
		return k, nil
	}, `SELECT DISTINCT site, form FROM submissions`)
	if err != nil {
		return nil, db.errorf("forms with submissions: %w", err)
	}
	return out, nil
}

// inTx runs fn in a transaction on the writing pool and commits it when
// fn returns nil.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// scanStrings reads and closes rows of one text column.
func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
