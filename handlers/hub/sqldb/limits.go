package sqldb

import (
	"context"
	"fmt"

	"github.com/hubform/hubform/handlers/hub"
)

// countUpTo counts the submissions of site and form not marked as spam,
// reading at most limit of them: a form's limit bounds what is read, not
// the number of submissions it holds.
const countUpTo = `SELECT COUNT(*) FROM (SELECT 1 FROM submissions WHERE site = $1 AND form = $2 AND NOT spam AND deleted_at IS NULL LIMIT $3) AS counted`

// FormFull reports whether site and form hold max submissions not marked
// as spam, or more. It only reads: the store's own check, as a submission
// is stored, is the one that holds against races.
func (db *DB) FormFull(ctx context.Context, site, slug string, max int) (bool, error) {
	if max <= 0 {
		return false, nil
	}
	var n int
	if err := db.r.QueryRowContext(ctx, countUpTo, site, slug, max).Scan(&n); err != nil {
		return false, db.errorf("count submissions of %s/%s: %w", site, slug, err)
	}
	return n >= max, nil
}

// enforceLimits checks, in the transaction tx that has just inserted s,
// that s keeps its form within s.Limits, and records its unique values.
// It returns an error wrapping hub.ErrClosed when the form already held
// its maximum before s, and a *hub.DuplicateError when another submission
// of the form carries one of s's unique values; the caller rolls back.
//
// The form's row in form_locks is locked first, so that of the
// transactions storing submissions of one form with a maximum, one at a
// time counts, and its count includes every submission committed before
// it: on PostgreSQL, in READ COMMITTED, the upsert waits for the holder's
// commit and each statement after it reads what that committed; on
// SQLite, writers are serialized anyway. The lock is taken after the
// idempotency key was claimed and before any unique value is, so that a
// transaction waiting for it holds nothing another holder waits for.
func enforceLimits(ctx context.Context, tx Tx, s hub.Submission) error {
	if max := s.Limits.MaxSubmissions; max > 0 {
		// An upsert locks the row whether it is new or not, in one
		// statement that both databases understand.
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO form_locks (site, form) VALUES ($1, $2) ON CONFLICT (site, form) DO UPDATE SET site = excluded.site`,
			s.Site, s.Slug); err != nil {
			return fmt.Errorf("locking the form: %w", err)
		}
		// s is counted: one more than max means the form was full.
		var n int
		if err := tx.QueryRowContext(ctx, countUpTo, s.Site, s.Slug, max+1).Scan(&n); err != nil {
			return fmt.Errorf("counting the form's submissions: %w", err)
		}
		if n > max {
			return fmt.Errorf("form %s/%s holds its %d submissions: %w", s.Site, s.Slug, max, hub.ErrClosed)
		}
	}
	for _, u := range s.Limits.Unique {
		// A value already held makes the insert do nothing rather than
		// fail, which on PostgreSQL would abort the transaction: a batch
		// goes on with its other submissions.
		res, err := tx.ExecContext(ctx,
			`INSERT INTO unique_values (site, form, field, value, submission_id) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
			s.Site, s.Slug, u.Field, u.Value, s.ID)
		if err != nil {
			return fmt.Errorf("recording the value of %q: %w", u.Field, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("recording the value of %q: %w", u.Field, err)
		}
		if n == 0 {
			return &hub.DuplicateError{Field: u.Field}
		}
	}
	return nil
}
