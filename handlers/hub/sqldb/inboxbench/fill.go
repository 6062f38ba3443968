package inboxbench

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// The forms filled: the large one, and others beside it in the same table,
// so that every query must tell them apart.
const (
	Site        = "bench"
	Slug        = "inbox"
	otherForms  = 100
	otherRows   = 300
	spanDays    = 400
	spamOneIn   = 50 // 2% of submissions are marked as spam
	rowsPerStmt = 500
	rowsPerTx   = 50_000
)

// fillColumns are the columns the fill sets; the others keep their
// defaults (no idempotency key, no form version, not held).
const fillColumns = "id, site, form, created_at, payload, attachments, client_addr, user_agent, spam, spam_reasons, locale, tallies"

// row is a submission as the fill inserts it.
type row struct {
	id, site, slug string
	created        time.Time
	payload        string
	spam           bool
	// tallies, when set, are what the submission adds to its form's
	// summary, which the database's triggers count as it is inserted;
	// unset, it is stored as before the hub kept them.
	tallies string
}

func (r row) args() []any {
	var reasons sql.NullString
	if r.spam {
		reasons = sql.NullString{String: `["phrase"]`, Valid: true}
	}
	return []any{r.id, r.site, r.slug, r.created.UnixMilli(), r.payload, "[]", "192.0.2.1", "Mozilla/5.0 (bench)", r.spam, reasons, "en",
		sql.NullString{String: r.tallies, Valid: r.tallies != ""}}
}

// insertRows inserts rows through pool, rowsPerTx to a transaction and
// rowsPerStmt to a statement. The store's CreateSubmission commits each
// submission (or each batch of those arriving together) and would take
// minutes for a million; a multi-row INSERT straight into the table, in
// transactions of tens of thousands, stores the same rows in seconds.
// 500 rows of 12 values stay under both databases' limit on parameters.
func insertRows(ctx context.Context, pool *sql.DB, rows []row) error {
	for len(rows) > 0 {
		n := min(len(rows), rowsPerTx)
		if err := insertTx(ctx, pool, rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

func insertTx(ctx context.Context, pool *sql.DB, rows []row) error {
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	args := make([]any, 0, rowsPerStmt*strings.Count(fillColumns, ",")+rowsPerStmt)
	for len(rows) > 0 {
		n := min(len(rows), rowsPerStmt)
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, r.args()...)
		}
		if _, err := tx.ExecContext(ctx, insertSQL(n), args...); err != nil {
			return fmt.Errorf("inserting submissions: %w", err)
		}
		rows = rows[n:]
	}
	return tx.Commit()
}

// insertSQL returns the INSERT of n rows, in the $n placeholders both
// databases take.
func insertSQL(n int) string {
	cols := strings.Count(fillColumns, ",") + 1
	var b strings.Builder
	b.WriteString("INSERT INTO submissions (" + fillColumns + ") VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := range cols {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("$" + strconv.Itoa(i*cols+j+1))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// Fill is what filling made: where the words searched for are.
type Fill struct {
	Size int
	// Start and End bound the large form's submissions in time.
	Start, End time.Time
	// Frequent is the word in most messages, Medium one in about a
	// thousandth of them; FrequentN and MediumN count those messages.
	Frequent, Medium   string
	FrequentN, MediumN int
	// Took is how long filling took.
	Took time.Duration
}

// At returns when the large form's i-th oldest submission was created.
func (f Fill) At(i int) time.Time {
	return f.Start.Add(time.Duration(int64(f.End.Sub(f.Start)) / int64(f.Size) * int64(i)))
}

// fill inserts size submissions of the large form, spread evenly over
// spanDays up to end, and otherRows of each other form over the same days.
// Rows are made and inserted a transaction's worth at a time, oldest
// first, as a hub would have stored them.
func fill(ctx context.Context, pool *sql.DB, size int, end time.Time) (Fill, error) {
	began := time.Now()
	f := Fill{Size: size, Start: end.Add(-spanDays * 24 * time.Hour), End: end}
	c := newCorpus(1)
	// The rare word and the known address are each in submissions at
	// even steps, half and a third of a step in: never the same ones.
	special := func(i, count, within int) bool {
		step := size / count
		return i%step == step/within && i/step < count
	}
	batch := make([]row, 0, rowsPerTx)
	for i := range size {
		rare, email := special(i, RareCount, 2), special(i, EmailCount, 3)
		at := f.At(i)
		batch = append(batch, row{id: hub.NewID(at), site: Site, slug: Slug, created: at,
			payload: c.next(rare, email), spam: i%spamOneIn == spamOneIn-1 && !rare && !email})
		if len(batch) == cap(batch) || i == size-1 {
			if err := insertRows(ctx, pool, batch); err != nil {
				return Fill{}, err
			}
			batch = batch[:0]
		}
	}
	f.Frequent, f.FrequentN = c.wordNear(size)
	f.Medium, f.MediumN = c.wordNear(size / 1000)
	others := newCorpus(2)
	for k := range otherForms {
		site := fmt.Sprintf("site-%02d", k)
		for i := range otherRows {
			at := f.Start.Add(time.Duration(int64(end.Sub(f.Start)) / otherRows * int64(i)))
			batch = append(batch, row{id: hub.NewID(at), site: site, slug: "contact", created: at,
				payload: others.next(false, false), spam: i%spamOneIn == 0})
		}
	}
	if err := insertRows(ctx, pool, batch); err != nil {
		return Fill{}, err
	}
	f.Took = time.Since(began)
	return f, nil
}

// FillDB fills db as Run does before it measures: size submissions of the
// large form up to now and the other forms' beside, in bulk.
func FillDB(ctx context.Context, db *sqldb.DB, size int) (Fill, error) {
	return fill(ctx, db.Writer(), size, time.Now())
}
