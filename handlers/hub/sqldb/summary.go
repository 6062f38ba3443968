package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// AnswerCounts returns the counts of the answers of the form's
// submissions created since since, or of all of them when since is zero,
// by whole days in UTC: since is taken back to the start of its day. It
// sums the form's rows of summary_counts, which triggers keep in step with
// the submissions (migration 00029): a day's row per answer and slot, not
// a row per submission. Answers whose count is 0 are left out.
func (db *DB) AnswerCounts(ctx context.Context, site, slug string, since time.Time) ([]hub.AnswerCount, error) {
	query := `SELECT field, answer, CAST(SUM(n) AS BIGINT), CAST(SUM(total) AS DOUBLE PRECISION) FROM summary_counts WHERE site = $1 AND form = $2`
	args := []any{site, slug}
	if !since.IsZero() {
		query += ` AND day >= $3`
		args = append(args, millis(since)/dayMillis)
	}
	out, err := queryAll(ctx, db.r, func(s scanner) (hub.AnswerCount, error) {
		var c hub.AnswerCount
		err := s.Scan(&c.Field, &c.Answer, &c.N, &c.Sum)
		return c, err
	}, query+` GROUP BY field, answer HAVING SUM(n) <> 0 ORDER BY field, answer`, args...)
	if err != nil {
		return nil, db.errorf("answer counts of %s/%s: %w", site, slug, err)
	}
	return out, nil
}

// TallySubmissions gives up to limit submissions of the form stored
// without tallies the tallies tally returns for their payloads, oldest
// first, in one transaction: the triggers count each one as it gets them,
// if it is neither spam nor deleted. A submission another hub tallied
// meanwhile is left as it is, so that none is counted twice. It reports
// how many it tallied and whether more are left.
func (db *DB) TallySubmissions(ctx context.Context, site, slug string, limit int, tally func(payload json.RawMessage) string) (int, bool, error) {
	n, more := 0, false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		type row struct{ id, payload string }
		rows, err := queryAll(ctx, tx, func(s scanner) (row, error) {
			var r row
			err := s.Scan(&r.id, &r.payload)
			return r, err
		}, `SELECT id, payload FROM submissions WHERE site = $1 AND form = $2 AND tallies IS NULL ORDER BY id LIMIT $3`, site, slug, limit+1)
		if err != nil {
			return err
		}
		if more = len(rows) > limit; more {
			rows = rows[:limit]
		}
		for _, r := range rows {
			t := tally(json.RawMessage(r.payload))
			if !json.Valid([]byte(t)) {
				return db.errorf("tallies of %s are not JSON", r.id)
			}
			res, err := tx.ExecContext(ctx, `UPDATE submissions SET tallies = $1 WHERE id = $2 AND tallies IS NULL`, t, r.id)
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
		return 0, false, db.errorf("tally submissions of %s/%s: %w", site, slug, err)
	}
	return n, more, nil
}
