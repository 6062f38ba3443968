package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
)

// recentWindows are how many submissions of a form, from the cursor on, a
// page that the indexes would answer reads first, in the order of the
// list, one window after the other. A term or dates that many of the
// newest submissions have fill the page from the first, whatever the
// database's planner would guess; a term common in older submissions
// only, from the second, which a search alone reads: the index would
// return all its matches to be sorted. Only when neither fills the page
// is it asked of the indexes, which then have few matches to sort.
var recentWindows = [...]int{2000, 50000}

// minIndexed is the shortest term, in characters as the payload's JSON
// text writes them, that the trigram indexes find; a shorter one is
// looked for in every payload of the form.
const minIndexed = 3

// searchPattern returns the LIKE pattern, escaped with '\', that finds
// term in a payload's JSON text: term is written as the hub writes
// payloads (encoding/json), so a quote or a < in it matches what is
// stored, and lowered as the query lowers the payload.
func searchPattern(term string) string {
	inner := searchText(term)
	inner = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(inner)
	return "%" + inner + "%"
}

// searchText returns term lowered and written as encoding/json writes it
// in a string, without the quotes.
func searchText(term string) string {
	enc, _ := json.Marshal(strings.ToLower(term)) // a string always encodes
	return string(enc[1 : len(enc)-1])
}

// indexed reports whether the trigram indexes find term.
func indexed(term string) bool {
	return utf8.RuneCountInString(searchText(term)) >= minIndexed
}

// filter is the SQL of a hub.Filter: the conditions that choose the rows
// to walk (form, cursor, spam), those that narrow what the walk keeps
// (dates, search), and the arguments of both, numbered in that order.
type filter struct {
	walk, narrow []string
	args         []any
}

// arg adds v to the arguments and returns its placeholder.
func (q *filter) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// spam adds the condition of a spam filter, if it has one.
func (q *filter) spam(s hub.SpamFilter) {
	switch s {
	case hub.NotSpam:
		q.walk = append(q.walk, "NOT spam")
	case hub.OnlySpam:
		q.walk = append(q.walk, "spam")
	}
}

// where returns " WHERE " and the conditions, or "" without any.
func where(conds ...string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// filterSQL returns the WHERE clause selecting f and its arguments. Only
// the set members become conditions, so a filter on site and form is
// served by the (site, form, id) index in order, in either direction, from
// a cursor on; with ask (see asksIndex), a search is served by the
// database's search index instead.
func (db *DB) filterSQL(f hub.Filter, ask bool) (string, []any) {
	q := db.filter(f, ask)
	return where(append(q.walk, q.narrow...)...), q.args
}

// filter returns the conditions of f. When ask is set, the search is asked
// of the database's search index: the form and cursor conditions compare
// their column joined to the empty string, which no index serves, so the
// planner is left the search's index. Otherwise the planner walks the
// form's (site, form, id) index, or another, as it estimates best.
func (db *DB) filter(f hub.Filter, ask bool) filter {
	// A submission deleted from the console, waiting for its grace period
	// to end, is read by no one.
	q := filter{walk: []string{"deleted_at IS NULL"}}
	add := func(column, op, value string) {
		if value == "" {
			return
		}
		if ask {
			// Walking the form's index and testing each row reads every
			// submission of the form for a rare term, which planners
			// estimating by the whole table choose.
			column += " || ''"
		}
		q.walk = append(q.walk, column+" "+op+" "+q.arg(value))
	}
	add("site", "=", f.Site)
	add("form", "=", f.Slug)
	add("id", "<", f.Before)
	add("id", ">", f.After)
	q.spam(f.Spam)
	if !f.From.IsZero() {
		q.narrow = append(q.narrow, "created_at >= "+q.arg(millis(f.From)))
	}
	if !f.To.IsZero() {
		q.narrow = append(q.narrow, "created_at < "+q.arg(millis(f.To)))
	}
	if ask {
		q.narrow = append(q.narrow, db.indexedSearch(&q, f.Search))
	}
	if f.Search != "" {
		q.narrow = append(q.narrow, `LOWER(payload) LIKE `+q.arg(searchPattern(f.Search))+` ESCAPE '\'`)
	}
	return q
}

// maxAskedMatches is how many submissions, of all forms, a search index
// may find for a term for the search to start from the index's matches.
// Reading that many rows to test them takes milliseconds; a more common
// term fills a page sooner from the form's newest submissions.
const maxAskedMatches = 5000

// asksIndex reports whether f's search is asked of the database's search
// index: PostgreSQL's for any term of minIndexed characters or more,
// SQLite's for those it finds in at most maxAskedMatches submissions
// (fewMatches).
func (db *DB) asksIndex(ctx context.Context, f hub.Filter) (bool, error) {
	if f.Search == "" || !indexed(f.Search) {
		return false, nil
	}
	switch db.search {
	case PgTrgmIndex:
		return true, nil
	case FTS5Index:
		return db.fewMatches(ctx, f.Search)
	}
	return false, nil
}

// fewMatches reports whether the search index finds term, which indexed
// accepts, in at most maxAskedMatches submissions of all forms. It reads
// no more than one match beyond.
func (db *DB) fewMatches(ctx context.Context, term string) (bool, error) {
	query, arg := `SELECT COUNT(*) FROM (SELECT rowid FROM submission_search
		WHERE submission_search MATCH $1 LIMIT $2) found`, trigramPhrase(term)
	if db.search == PgTrgmIndex {
		query, arg = `SELECT COUNT(*) FROM (SELECT id FROM submission_search
			WHERE payload_lower LIKE $1 ESCAPE '\' LIMIT $2) found`, searchPattern(term)
	}
	var n int
	err := db.r.QueryRowContext(ctx, query, arg, maxAskedMatches+1).Scan(&n)
	return n <= maxAskedMatches, err
}

// searchRows runs query, of submissions that f selects, on the reading
// pool; ask is asksIndex's answer for f. An indexed search on PostgreSQL
// runs in a read-only transaction that keeps the planner from reading
// submission_search whole: for a term of many common trigrams, such as an
// address at example.com, its estimates sometimes preferred that (a
// quarter of a second at a million submissions) to the index (tens of
// milliseconds). Call end once rows are read.
func (db *DB) searchRows(ctx context.Context, ask bool, query string, args ...any) (rows *sql.Rows, end func(), err error) {
	if !ask || db.search != PgTrgmIndex {
		rows, err := db.r.QueryContext(ctx, query, args...)
		return rows, func() {}, err
	}
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, err
	}
	end = func() { tx.Rollback() } // it changed nothing
	if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
		end()
		return nil, nil, err
	}
	if rows, err = tx.QueryContext(ctx, query, args...); err != nil {
		end()
		return nil, nil, err
	}
	return rows, end, nil
}

// recentWindowsOf returns the windows (see recentWindows) in which a page
// of f is looked for before its query is run, none when the query alone
// is fast: that of a term the index finds in few submissions, or of
// SQLite's index, which is asked only then.
func (db *DB) recentWindowsOf(ctx context.Context, f hub.Filter, ask bool) ([]int, error) {
	switch {
	case f.Limit <= 0:
		return nil, nil
	case ask && db.search == PgTrgmIndex:
		few, err := db.fewMatches(ctx, f.Search)
		if few || err != nil {
			return nil, err
		}
		return recentWindows[:], nil
	case ask:
		return nil, nil
	case !f.From.IsZero() || !f.To.IsZero():
		return recentWindows[:1], nil // the index of dates sorts few ids
	}
	return nil, nil
}

// listRecent returns the page f selects if one of windows, in turn, holds
// all of it, or nil when none does and the caller must run the query.
func (db *DB) listRecent(ctx context.Context, f hub.Filter, windows []int) ([]hub.Submission, error) {
	for _, window := range windows {
		page, err := db.listWindow(ctx, f, window)
		if page != nil || err != nil {
			return page, err
		}
	}
	return nil, nil
}

// listWindow is listRecent in the window submissions from f's cursor on.
func (db *DB) listWindow(ctx context.Context, f hub.Filter, window int) ([]hub.Submission, error) {
	q := db.filter(f, false)
	order := ` ORDER BY id`
	if f.Newest {
		order += ` DESC`
	}
	query := `SELECT ` + submissionColumns + ` FROM (SELECT ` + submissionColumns + ` FROM submissions` +
		where(q.walk...) + order + ` LIMIT ` + q.arg(window) + `) recent` +
		where(q.narrow...) + order + ` LIMIT ` + q.arg(f.Limit)
	rows, err := db.r.QueryContext(ctx, query, q.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var page []hub.Submission
	for rows.Next() {
		s, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		page = append(page, s)
	}
	if err := rows.Err(); err != nil || len(page) < f.Limit {
		return nil, err
	}
	return page, nil
}

// listQuery returns the query listing what f selects, and its arguments,
// once listRecent did not fill f's page; ask is asksIndex's answer.
func (db *DB) listQuery(f hub.Filter, ask bool) (string, []any) {
	where, args := db.filterSQL(f, ask)
	order, direction := ` ORDER BY id`, ``
	if f.Newest {
		direction = ` DESC`
	}
	order += direction
	if f.Limit <= 0 {
		return `SELECT ` + submissionColumns + ` FROM submissions` + where + order, args
	}
	args = append(args, f.Limit)
	limit := ` LIMIT $` + strconv.Itoa(len(args))
	if !datesOnly(f) {
		return `SELECT ` + submissionColumns + ` FROM submissions` + where + order + limit, args
	}
	// The page's ids are sorted from the index of creation times alone,
	// which holds id and spam, and only those rows are read. The recent
	// submissions did not fill the page, so the dates are far from the
	// cursor: sorting by id || '' keeps the planner from walking the
	// form's index of ids towards them.
	return `SELECT ` + submissionColumns + ` FROM submissions WHERE id IN (SELECT id FROM submissions` +
		where + ` ORDER BY id || ''` + direction + limit + `)` + order, args
}

// datesOnly reports whether f narrows by dates and by nothing that needs
// the payload, so that the index of creation times answers it alone.
func datesOnly(f hub.Filter) bool {
	return (!f.From.IsZero() || !f.To.IsZero()) && f.Search == ""
}
