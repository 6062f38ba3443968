package sqldb

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
)

// recentWindow is how many submissions of a form, from the cursor on, a
// page that searches or filters by date reads first, in the order of the
// list. A term or dates that most submissions have fill the page from
// these, whatever the database's planner would guess; only when they do
// not is the page asked of the indexes, which then have few matches to
// sort: fewer than about Limit/recentWindow of the form's submissions.
const recentWindow = 2000

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

// searchPhrase returns the FTS5 query that finds the payloads holding
// term's text anywhere: a phrase, which the trigram tokenizer matches as a
// substring, ignoring case.
func searchPhrase(term string) string {
	return `"` + strings.ReplaceAll(searchText(term), `"`, `""`) + `"`
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
// a cursor on; a search of 3 characters or more is served by the trigram
// index instead.
func (db *DB) filterSQL(f hub.Filter) (string, []any) {
	q := db.filter(f, true)
	return where(append(q.walk, q.narrow...)...), q.args
}

// filter returns the conditions of f. When ask is set and f searches for
// a term the trigram indexes find, the search is asked of them: the form
// and cursor conditions compare their column joined to the empty string,
// which no index serves, so the planner is left the search's index, and on
// SQLite the candidates come from the FTS5 table by rowid. Those are then
// kept as LIKE decides, so the result is the same as LIKE's alone.
// Otherwise the planner walks the form's (site, form, id) index, or
// another, as it estimates best.
func (db *DB) filter(f hub.Filter, ask bool) filter {
	var q filter
	ask = ask && f.Search != "" && indexed(f.Search)
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
	switch f.Spam {
	case hub.NotSpam:
		q.walk = append(q.walk, "NOT spam")
	case hub.OnlySpam:
		q.walk = append(q.walk, "spam")
	}
	if !f.From.IsZero() {
		q.narrow = append(q.narrow, "created_at >= "+q.arg(millis(f.From)))
	}
	if !f.To.IsZero() {
		q.narrow = append(q.narrow, "created_at < "+q.arg(millis(f.To)))
	}
	if f.Search != "" {
		if ask && db.fts5 {
			q.narrow = append(q.narrow, `rowid IN (SELECT rowid FROM submissions_search WHERE submissions_search MATCH `+q.arg(searchPhrase(f.Search))+`)`)
		}
		q.narrow = append(q.narrow, `LOWER(payload) LIKE `+q.arg(searchPattern(f.Search))+` ESCAPE '\'`)
	}
	return q
}

// listRecent returns the page f selects if the recentWindow submissions
// from f's cursor on hold all of it, or nil when they hold fewer than
// f.Limit and the caller must ask the indexes. f.Limit is positive.
func (db *DB) listRecent(ctx context.Context, f hub.Filter) ([]hub.Submission, error) {
	q := db.filter(f, false)
	order := ` ORDER BY id`
	if f.Newest {
		order += ` DESC`
	}
	query := `SELECT ` + submissionColumns + ` FROM (SELECT ` + submissionColumns + ` FROM submissions` +
		where(q.walk...) + order + ` LIMIT ` + q.arg(recentWindow) + `) recent` +
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
// once listRecent did not fill f's page.
func (db *DB) listQuery(f hub.Filter) (string, []any) {
	where, args := db.filterSQL(f)
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
