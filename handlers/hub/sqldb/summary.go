package sqldb

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// AnswerCounts returns the counts of the answers of the form's
// submissions created since since, or of all of them when since is zero,
// by whole days in UTC: since is taken back to the start of its day. It
// sums the form's rows of summary_counts, a day's row per answer and slot,
// and the tallies of its submissions queued for them (migration 00029),
// in one statement, which sees the queue and the counts at one moment.
// Answers whose count is 0 are left out.
func (db *DB) AnswerCounts(ctx context.Context, site, slug string, since time.Time) ([]hub.AnswerCount, error) {
	counted := `SELECT field, answer, n, total FROM summary_counts WHERE site = $1 AND form = $2`
	// CROSS JOIN has SQLite walk the queue and look its submissions up.
	queued := `SELECT ` + db.tallyColumns("s") + ` FROM ` + db.summaryQueue() + ` q CROSS JOIN submissions s` + db.tallyRows("s") +
		` WHERE ` + db.queued("s", "q") + ` AND s.site = $1 AND s.form = $2 AND NOT s.spam AND s.deleted_at IS NULL`
	args := []any{site, slug}
	if !since.IsZero() {
		day := millis(since) / dayMillis
		counted += ` AND day >= $3`
		queued += ` AND s.created_at >= $4`
		args = append(args, day, day*dayMillis)
	}
	out, err := queryAll(ctx, db.r, func(s scanner) (hub.AnswerCount, error) {
		var c hub.AnswerCount
		err := s.Scan(&c.Field, &c.Answer, &c.N, &c.Sum)
		return c, err
	}, `SELECT field, answer, CAST(SUM(n) AS BIGINT), CAST(SUM(total) AS DOUBLE PRECISION) FROM (`+counted+` UNION ALL `+queued+
		`) answers GROUP BY field, answer HAVING SUM(n) <> 0 ORDER BY field, answer`, args...)
	if err != nil {
		return nil, db.errorf("answer counts of %s/%s: %w", site, slug, err)
	}
	return out, nil
}

// summaryQueue returns the table of the submissions queued for the
// summary: SQLite's summary_queue, keyed by rowid; on PostgreSQL the rows
// of the search queue, keyed by id, marked uncounted (migration 35).
func (db *DB) summaryQueue() string {
	if db.countSlots {
		return `(SELECT id FROM submission_search_queue WHERE uncounted)`
	}
	return `summary_queue`
}

// queued returns the condition that the row q of summaryQueue is the
// submission s's: by id on PostgreSQL, by rowid on SQLite.
func (db *DB) queued(s, q string) string {
	if db.countSlots {
		return s + ".id = " + q + ".id"
	}
	return s + ".rowid = " + q + ".rowid"
}

// tallyRows returns the join of a row per tally of the submissions s,
// whose columns tallyColumns names.
func (db *DB) tallyRows(s string) string {
	if db.countSlots {
		return ` CROSS JOIN jsonb_array_elements(` + s + `.tallies::jsonb) t`
	}
	return ` JOIN json_each(` + s + `.tallies) t`
}

// tallyColumns returns the field, answer, 1 and sum of each tally of
// tallyRows.
func (db *DB) tallyColumns(s string) string {
	if db.countSlots {
		return `t->>0, t->>1, 1, CAST(t->>2 AS DOUBLE PRECISION)`
	}
	return `json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), 1, json_extract(t.value, '$[2]')`
}

// CountQueued counts every submission queued for the summary, and
// returns how many it took off the queue. A DB counts them by itself
// when writing is quiet; a program that has just filled a database calls
// it to have the queue empty at once. It returns once the queue is empty,
// including the submissions another counter (this DB's own, in the
// background, or another hub's) was counting meanwhile.
func (db *DB) CountQueued(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := db.countQueued(ctx, summaryQueueChunk)
		total += n
		if err != nil {
			return total, db.errorf("count queued submissions: %w", err)
		}
		if n > 0 {
			continue
		}
		queued, err := db.SummaryQueueLength(ctx)
		if err != nil {
			return total, db.errorf("count queued submissions: %w", err)
		}
		if queued == 0 {
			return total, nil
		}
		// Another counter holds them: wait for its transaction to end.
		select {
		case <-ctx.Done():
			return total, db.errorf("count queued submissions: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// SummaryQueueLength returns how many submissions are queued for the
// summary, stored but not counted yet.
func (db *DB) SummaryQueueLength(ctx context.Context) (int, error) {
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+db.summaryQueue()+` q`).Scan(&n); err != nil {
		return 0, db.errorf("length of the summary's queue: %w", err)
	}
	return n, nil
}

// summaryQueueChunk is how many queued submissions one transaction
// counts: a submission of a form that gets few adds a dozen rows of its
// own to summary_counts, and a transaction of SQLite's holds its one
// writer for tens of milliseconds at most.
const summaryQueueChunk = 250

// countKey is a row of summary_counts, but for its slot.
type countKey struct {
	site, form    string
	day           int64
	field, answer string
}

// countSum is what a countKey adds.
type countSum struct {
	n   int64
	sum float64
}

// countQueued counts up to limit submissions of the summary's queue in
// one transaction, the tallies of those neither spam nor deleted summed
// by row of summary_counts first, and takes them off the queue; it
// returns how many it took. On PostgreSQL the queue is the search
// queue's (migration 35), which indexQueued works through, counting as
// it goes.
func (db *DB) countQueued(ctx context.Context, limit int) (int, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	if db.countSlots {
		return db.indexQueuedPg(ctx, w, limit)
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// The queue's first rowids, then their submissions: the planner is
	// not left to walk the submissions looking for queued ones.
	rowids, err := db.countSubmissions(ctx, tx, `SELECT q.rowid, s.id, s.site, s.form, s.created_at, s.tallies, s.spam, s.deleted_at IS NULL
		FROM (SELECT rowid FROM summary_queue ORDER BY rowid LIMIT $1) q CROSS JOIN submissions s WHERE s.rowid = q.rowid ORDER BY q.rowid`, limit)
	if err != nil || len(rowids) == 0 {
		return 0, err
	}
	for chunk := range slices.Chunk(rowids, maxIDs) {
		marks := make([]string, len(chunk))
		for i := range chunk {
			marks[i] = "$" + strconv.Itoa(i+1)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM summary_queue WHERE rowid IN (`+strings.Join(marks, ", ")+`)`, chunk...); err != nil {
			return 0, err
		}
	}
	return len(rowids), tx.Commit()
}

// countSubmissions adds to summary_counts, in tx, the tallies of the
// submissions query returns, as its columns key, id, site, form,
// created_at, tallies, spam and not deleted, those neither spam nor
// deleted summed by row of summary_counts first; it returns the keys of
// the rows, in their order.
func (db *DB) countSubmissions(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]any, error) {
	sums := map[countKey]countSum{}
	var keys []any
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var (
			key              any
			k                countKey
			id, tallies      string
			created          int64
			spam, notDeleted bool
		)
		if err := rows.Scan(&key, &id, &k.site, &k.form, &created, &tallies, &spam, &notDeleted); err != nil {
			rows.Close()
			return nil, err
		}
		keys = append(keys, key)
		if spam || !notDeleted {
			continue
		}
		k.day = created / dayMillis
		if err := addTallies(sums, k, tallies); err != nil {
			rows.Close()
			return nil, fmt.Errorf("tallies of %s: %w", id, err)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil || len(keys) == 0 {
		return nil, err
	}
	return keys, db.addCounts(ctx, tx, sums)
}

// countChunk is how many rows of summary_counts one statement of
// addCounts writes: 7 parameters each, far under both databases' limits.
const countChunk = 500

// addCounts adds sums to summary_counts, in the order of their keys, so
// that transactions adding to the same rows at once take them in the
// same order, and wait rather than deadlock.
func (db *DB) addCounts(ctx context.Context, tx *sql.Tx, sums map[countKey]countSum) error {
	keys := slices.SortedFunc(maps.Keys(sums), func(a, b countKey) int {
		return cmp.Or(cmp.Compare(a.site, b.site), cmp.Compare(a.form, b.form), cmp.Compare(a.day, b.day),
			cmp.Compare(a.field, b.field), cmp.Compare(a.answer, b.answer))
	})
	slot := "0"
	if db.countSlots {
		slot = "pg_backend_pid() % 8"
	}
	for chunk := range slices.Chunk(keys, countChunk) {
		var b strings.Builder
		args := make([]any, 0, len(chunk)*7)
		b.WriteString(`INSERT INTO summary_counts AS c (site, form, day, field, answer, slot, n, total) VALUES `)
		for i, k := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			n := len(args)
			fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d, %s, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, slot, n+6, n+7)
			s := sums[k]
			args = append(args, k.site, k.form, k.day, k.field, k.answer, s.n, s.sum)
		}
		b.WriteString(` ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = c.n + EXCLUDED.n, total = c.total + EXCLUDED.total`)
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// TallySubmissions gives up to limit submissions of the form stored
// without tallies the tallies tally returns for their payloads, oldest
// first, and counts those neither spam nor deleted, in one transaction
// (the triggers count changes of tallied submissions alone). The
// submissions are locked as they are read: on PostgreSQL another hub
// doing the same skips them, and a change of one waits, then sees it
// counted. It reports how many it tallied and whether more are left.
func (db *DB) TallySubmissions(ctx context.Context, site, slug string, limit int, tally func(payload json.RawMessage) string) (int, bool, error) {
	// Once a form's submissions are tallied, which they are as soon as
	// its summary is first shown, a read of the partial index answers
	// without a transaction that writes.
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM submissions WHERE site = $1 AND form = $2 AND tallies IS NULL LIMIT 1`, site, slug).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, db.errorf("tally submissions of %s/%s: %w", site, slug, err)
	}
	n, more := 0, false
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		type row struct {
			id, payload      string
			created          int64
			spam, notDeleted bool
		}
		query := `SELECT id, payload, created_at, spam, deleted_at IS NULL FROM submissions
			WHERE site = $1 AND form = $2 AND tallies IS NULL ORDER BY id LIMIT $3`
		if db.countSlots {
			query += ` FOR UPDATE SKIP LOCKED`
		}
		rows, err := queryAll(ctx, tx, func(s scanner) (row, error) {
			var r row
			err := s.Scan(&r.id, &r.payload, &r.created, &r.spam, &r.notDeleted)
			return r, err
		}, query, site, slug, limit+1)
		if err != nil {
			return err
		}
		if more = len(rows) > limit; more {
			rows = rows[:limit]
		}
		sums := map[countKey]countSum{}
		for chunk := range slices.Chunk(rows, maxIDs) {
			// One statement a chunk: PostgreSQL's trigger runs once a
			// statement.
			var b strings.Builder
			args := make([]any, 0, 2*len(chunk))
			for i, r := range chunk {
				t := tally(json.RawMessage(r.payload))
				if !r.spam && r.notDeleted {
					if err := addTallies(sums, countKey{site: site, form: slug, day: r.created / dayMillis}, t); err != nil {
						return fmt.Errorf("tallies of %s: %w", r.id, err)
					}
				}
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "($%d, $%d)", len(args)+1, len(args)+2)
				args = append(args, r.id, t)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE submissions SET tallies = v.t
				FROM (SELECT column1 AS id, column2 AS t FROM (VALUES `+b.String()+`) AS vals) AS v WHERE submissions.id = v.id`, args...); err != nil {
				return err
			}
			n += len(chunk)
		}
		return db.addCounts(ctx, tx, sums)
	})
	if err != nil {
		return 0, false, db.errorf("tally submissions of %s/%s: %w", site, slug, err)
	}
	return n, more, nil
}

// addTallies adds to sums the tallies, a JSON list of [field, answer,
// sum], of a submission of k's form and day.
func addTallies(sums map[countKey]countSum, k countKey, tallies string) error {
	var ts [][3]any
	if err := json.Unmarshal([]byte(tallies), &ts); err != nil {
		return err
	}
	for _, t := range ts {
		k.field, _ = t[0].(string)
		k.answer, _ = t[1].(string)
		sum, _ := t[2].(float64)
		c := sums[k]
		sums[k] = countSum{c.n + 1, c.sum + sum}
	}
	return nil
}
