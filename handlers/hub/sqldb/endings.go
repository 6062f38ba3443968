package sqldb

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hubform/hubform/handlers/hub"
)

// SubmissionEnding returns the ending the submission of site and slug with
// the id reached, "" for none, or an error wrapping hub.ErrNotFound: what
// the hub answers again to a repeated submission.
func (db *DB) SubmissionEnding(ctx context.Context, site, slug, id string) (string, error) {
	var ending sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT ending FROM submissions WHERE id = $1 AND site = $2 AND form = $3`, id, site, slug).Scan(&ending)
	if errors.Is(err, sql.ErrNoRows) {
		err = hub.ErrNotFound
	}
	if err != nil {
		return "", db.errorf("ending of submission %s: %w", id, err)
	}
	return ending.String, nil
}

// CountSubmissionsByEnding counts the submissions f selects by the ending
// each reached, "" for those that reached none. Like CountSubmissions it
// ignores f's Limit and Newest.
func (db *DB) CountSubmissionsByEnding(ctx context.Context, f hub.Filter) (map[string]int, error) {
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return nil, db.errorf("count submissions by ending: %w", err)
	}
	where, args := db.filterSQL(f, ask)
	rows, end, err := db.searchRows(ctx, ask, `SELECT COALESCE(ending, ''), COUNT(*) FROM submissions`+where+` GROUP BY 1`, args...)
	if err != nil {
		return nil, db.errorf("count submissions by ending: %w", err)
	}
	defer end()
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var ending string
		var n int
		if err := rows.Scan(&ending, &n); err != nil {
			return nil, db.errorf("count submissions by ending: %w", err)
		}
		out[ending] += n
	}
	if err := rows.Err(); err != nil {
		return nil, db.errorf("count submissions by ending: %w", err)
	}
	return out, nil
}
