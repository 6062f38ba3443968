package sqldb

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// funnelChunk is how many rows one INSERT of AddFunnelCounts writes: 6
// parameters each, far under SQLite's and PostgreSQL's limits.
const funnelChunk = 500

// dayMillis is a day in Unix milliseconds.
const dayMillis = 24 * 60 * 60 * 1000

// funnelRow is a row of funnel_counts.
type funnelRow struct {
	site, form  string
	day         int64
	event, step string
	n           int64
}

func compareFunnelRows(a, b funnelRow) int {
	return cmp.Or(strings.Compare(a.site, b.site), strings.Compare(a.form, b.form), cmp.Compare(a.day, b.day),
		strings.Compare(a.event, b.event), strings.Compare(a.step, b.step))
}

// AddFunnelCounts adds counts to those of funnel_counts, in one
// transaction: all are added or none. Counts of one form, day, event and
// step are summed first. Each row is one upsert that adds to the stored
// count, which the database applies atomically however many hubs add at
// once: no count is lost. The rows are written in the order of their
// keys, so that two transactions adding to the same rows (PostgreSQL's
// concurrent writers) lock them in the same order and one waits for the
// other instead of both deadlocking.
//
// A count without site, slug or event, of N under 1, or whose Day is not
// the midnight of a UTC day is an error, and nothing is added.
func (db *DB) AddFunnelCounts(ctx context.Context, counts []hub.FunnelCount) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	rows, err := funnelRows(counts)
	if err != nil {
		return db.errorf("add funnel counts: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return db.errorf("add funnel counts: %w", err)
	}
	defer tx.Rollback()
	for chunk := range slices.Chunk(rows, funnelChunk) {
		var q strings.Builder
		q.WriteString(`INSERT INTO funnel_counts (site, form, day, event, step, n) VALUES `)
		args := make([]any, 0, 6*len(chunk))
		for i, r := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(")
			for j := range 6 {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString("$" + strconv.Itoa(6*i+j+1))
			}
			q.WriteString(")")
			args = append(args, r.site, r.form, r.day, r.event, r.step, r.n)
		}
		q.WriteString(` ON CONFLICT (site, form, day, event, step) DO UPDATE SET n = funnel_counts.n + excluded.n`)
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return db.errorf("add funnel counts: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return db.errorf("add funnel counts: %w", err)
	}
	return nil
}

// funnelRows checks counts and returns them as rows, those of one key
// summed, in key order.
func funnelRows(counts []hub.FunnelCount) ([]funnelRow, error) {
	rows := make([]funnelRow, 0, len(counts))
	for i, c := range counts {
		var why string
		switch {
		case c.Site == "":
			why = "no site"
		case c.Slug == "":
			why = "no slug"
		case c.Event == "":
			why = "no event"
		case c.N < 1:
			why = fmt.Sprintf("n %d is not positive", c.N)
		case c.Day.IsZero() || c.Day.UnixMilli()%dayMillis != 0:
			why = fmt.Sprintf("day %s is not a midnight UTC", c.Day.Format(time.RFC3339Nano))
		}
		if why != "" {
			return nil, fmt.Errorf("counts[%d] (%q/%q, %q): %s", i, c.Site, c.Slug, c.Event, why)
		}
		rows = append(rows, funnelRow{site: c.Site, form: c.Slug, day: millis(c.Day), event: c.Event, step: c.Step, n: c.N})
	}
	slices.SortFunc(rows, compareFunnelRows)
	// One statement may not add to a row twice (PostgreSQL): sum them.
	out := rows[:0]
	for _, r := range rows {
		if last := len(out) - 1; last >= 0 && compareFunnelRows(out[last], r) == 0 {
			if out[last].n > math.MaxInt64-r.n {
				return nil, fmt.Errorf("counts of %q/%q, %q, %q: sum overflows", r.site, r.form, r.event, r.step)
			}
			out[last].n += r.n
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// FunnelCounts returns the counts of funnel_counts of the form site/slug
// whose day is from from, included, to to, excluded, ordered by day, then
// event and step in byte order (whatever the database's collation).
func (db *DB) FunnelCounts(ctx context.Context, site, slug string, from, to time.Time) ([]hub.FunnelCount, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT day, event, step, n FROM funnel_counts
		WHERE site = $1 AND form = $2 AND day >= $3 AND day < $4`, site, slug, millis(from), millis(to))
	if err != nil {
		return nil, db.errorf("funnel counts of %s/%s: %w", site, slug, err)
	}
	defer rows.Close()
	var out []hub.FunnelCount
	for rows.Next() {
		c := hub.FunnelCount{Site: site, Slug: slug}
		var day int64
		if err := rows.Scan(&day, &c.Event, &c.Step, &c.N); err != nil {
			return nil, db.errorf("funnel counts of %s/%s: %w", site, slug, err)
		}
		c.Day = fromMillis(day)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, db.errorf("funnel counts of %s/%s: %w", site, slug, err)
	}
	slices.SortFunc(out, func(a, b hub.FunnelCount) int {
		return cmp.Or(a.Day.Compare(b.Day), strings.Compare(a.Event, b.Event), strings.Compare(a.Step, b.Step))
	})
	return out, nil
}
