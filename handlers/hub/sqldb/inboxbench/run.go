package inboxbench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/hubclient"
)

// Options are what differs between the databases.
type Options struct {
	// Settle, when set, runs on the writing pool once the fill is done,
	// to leave the database as months of use would have, not as one bulk
	// load does: on PostgreSQL a VACUUM ANALYZE stands in for autovacuum,
	// on SQLite a checkpoint empties the write-ahead log. SQLite's hub
	// runs no ANALYZE, so its benchmark runs none either.
	Settle func(ctx context.Context, w *sql.DB) error
	// Unindexed returns another empty database of the same kind without
	// a search index, whose write rate is the baseline of the index's.
	Unindexed func() *sqldb.DB
}

// Write measurements: writeClients submissions at once, as many clients
// posting together would, and at most maxWrites of them.
const (
	writeClients = 32
	maxWrites    = 20_000
	// retentionBatch is the hub's own batch (hub.ApplyRetention's): each
	// DeleteSubmissionsBefore is one transaction deleting that many.
	retentionBatch = 100
	maxRetention   = 100_000
	// pageSize is what the console's inbox asks for: a page and one more,
	// to know whether there is a next.
	pageSize = 51
)

// Run fills db, which must be empty, and measures it, reporting each
// figure with b.ReportMetric: medians and 99th percentiles in
// milliseconds, exports in rows a second with their peak heap, the write
// rate on the full database against the empty one, and the longest
// retention transaction. Everything but retention is measured once per
// b.Loop iteration; run it with -benchtime 1x.
func Run(b *testing.B, db *sqldb.DB, opts Options) {
	ctx := context.Background()
	size, err := Size()
	if err != nil {
		b.Fatal(err)
	}
	writes := min(maxWrites, max(1000, size/50))
	end := time.Now().Add(-time.Minute)
	emptyRate, bareRate, err := indexedWriteRates(ctx, db, opts.Unindexed(), writes)
	if err != nil {
		b.Fatal(err)
	}
	// The fill is older than what was written: a search would read
	// through it first.
	if _, err := db.Writer().ExecContext(ctx, `DELETE FROM submissions`); err != nil {
		b.Fatal(err)
	}
	f, err := fill(ctx, db.Writer(), size, end)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d submissions of %s/%s and %d of %d other forms in %v", size, Site, Slug, otherForms*otherRows, otherForms, f.Took.Round(time.Second))
	catchUp, err := indexQueued(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	// As the hub's sweep does every few minutes.
	if _, err := db.CompactCounts(ctx, time.Now().Add(-time.Hour)); err != nil {
		b.Fatal(err)
	}
	if opts.Settle != nil {
		if err := opts.Settle(ctx, db.Writer()); err != nil {
			b.Fatal(err)
		}
	}
	if err := check(ctx, db); err != nil {
		b.Fatal(err)
	}

	var reads []result
	var fullRate float64
	var exports []exportResult
	for b.Loop() {
		if reads, err = measureReads(ctx, db, f); err != nil {
			b.Fatal(err)
		}
		if fullRate, err = writeRate(ctx, db, writes); err != nil {
			b.Fatal(err)
		}
		// The writes' indexing, if queued, is done before the exports,
		// not during them.
		if _, err := indexQueued(ctx, db); err != nil {
			b.Fatal(err)
		}
		if exports, err = measureExports(ctx, db); err != nil {
			b.Fatal(err)
		}
	}
	ret, deleted, err := measureRetention(ctx, db, f.At(min(maxRetention, size/10)))
	if err != nil {
		b.Fatal(err)
	}

	b.ReportMetric(float64(size), "submissions")
	b.ReportMetric(f.Took.Seconds(), "fill-s")
	b.Logf("searched: frequent %q (in %d messages), medium %q (in %d), rare %q (in %d), %s (%d), absent %q",
		f.Frequent, f.FrequentN, f.Medium, f.MediumN, RareWord, RareCount, KnownEmail, EmailCount, AbsentWord)
	for _, r := range reads {
		b.ReportMetric(ms(r.ts.quantile(0.5)), r.name+"-p50-ms")
		b.ReportMetric(ms(r.ts.quantile(0.99)), r.name+"-p99-ms")
		b.Logf("%-16s p50 %8.2f ms  p99 %8.2f ms  (%d runs)", r.name, ms(r.ts.quantile(0.5)), ms(r.ts.quantile(0.99)), len(r.ts))
	}
	for _, e := range exports {
		b.ReportMetric(e.rowsPerSec, e.name+"-rows/s")
		b.ReportMetric(float64(e.peak)/(1<<20), e.name+"-peak-heap-MiB")
		b.Logf("%-16s %d rows, %.0f rows/s, %d MB, peak heap %.1f MiB", e.name+" export", e.rows, e.rowsPerSec, e.bytes/1e6, float64(e.peak)/(1<<20))
	}
	if catchUp.n > 0 {
		b.ReportMetric(catchUp.rate(), "index-queued-subs/s")
		b.Logf("indexed %d queued submissions for search in %v (%.0f/s)", catchUp.n, catchUp.took.Round(time.Millisecond), catchUp.rate())
	}
	b.ReportMetric(bareRate, "write-unindexed-subs/s")
	b.ReportMetric(emptyRate/bareRate, "write-index-ratio")
	b.Logf("writes on empty databases, %d clients, %d each run, median of %d runs: with the search index %.0f/s, without %.0f/s (%.2fx)",
		writeClients, writes, writeRounds, emptyRate, bareRate, emptyRate/bareRate)
	b.ReportMetric(emptyRate, "write-empty-subs/s")
	b.ReportMetric(fullRate, "write-full-subs/s")
	b.ReportMetric(fullRate/emptyRate, "write-ratio")
	b.Logf("writes, %d clients, %d each run: empty %.0f/s, full %.0f/s (%.2fx)", writeClients, writes, emptyRate, fullRate, fullRate/emptyRate)
	b.ReportMetric(ms(ret.quantile(1)), "retention-max-ms")
	b.ReportMetric(ms(ret.quantile(0.5)), "retention-p50-ms")
	b.ReportMetric(float64(deleted), "retention-deleted")
	b.Logf("retention: %d deleted in %d transactions of %d, p50 %.1f ms, max %.1f ms", deleted, len(ret), retentionBatch, ms(ret.quantile(0.5)), ms(ret.quantile(1)))
}

// check makes sure the words searched for are where the fill put them.
func check(ctx context.Context, db *sqldb.DB) error {
	for term, want := range map[string]int{RareWord: RareCount, KnownEmail: EmailCount, AbsentWord: 0} {
		n, err := db.CountSubmissions(ctx, hub.Filter{Site: Site, Slug: Slug, Search: term})
		if err != nil {
			return err
		}
		if n != want {
			return fmt.Errorf("search %q finds %d submissions, want %d", term, n, want)
		}
	}
	return nil
}

// result is the timings of one operation.
type result struct {
	name string
	ts   timings
}

// measureReads times what the console asks of the large form: pages of
// its inbox as it lists them (newest first, spam left out unless asked
// for), the counts of its overview's chart and its total.
func measureReads(ctx context.Context, db *sqldb.DB, f Fill) ([]result, error) {
	page := func(filter hub.Filter) func() error {
		filter.Site, filter.Slug, filter.Newest, filter.Limit = Site, Slug, true, pageSize
		if filter.Spam == hub.AnySpam {
			filter.Spam = hub.NotSpam
		}
		return func() error {
			return db.ListSubmissions(ctx, filter, func(hub.Submission) error { return nil })
		}
	}
	mid := f.At(f.Size / 2)
	ops := []struct {
		name string
		op   func() error
	}{
		{"first-page", page(hub.Filter{})},
		{"search-frequent", page(hub.Filter{Search: f.Frequent})},
		{"search-medium", page(hub.Filter{Search: f.Medium})},
		{"search-rare", page(hub.Filter{Search: RareWord})},
		{"search-email", page(hub.Filter{Search: KnownEmail})},
		{"search-absent", page(hub.Filter{Search: AbsentWord})},
		{"range-week", page(hub.Filter{From: mid, To: mid.Add(7 * 24 * time.Hour)})},
		{"spam", page(hub.Filter{Spam: hub.OnlySpam})},
		{"per-day-30", func() error {
			_, err := db.CountSubmissionsBy(ctx, hub.Filter{Site: Site, Slug: Slug, Spam: hub.NotSpam, From: f.End.Add(-30 * 24 * time.Hour)}, 15*time.Minute)
			return err
		}},
		{"total", func() error {
			_, err := db.CountSubmissions(ctx, hub.Filter{Site: Site, Slug: Slug})
			return err
		}},
	}
	out := make([]result, 0, len(ops))
	for _, o := range ops {
		ts, err := repeat(o.op)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		out = append(out, result{o.name, ts})
	}
	return out, nil
}

// writeRounds is how many times the write rates of the empty databases,
// with and without the search index, are measured, in turn.
const writeRounds = 5

// indexedWriteRates returns the median write rates of db and of bare, an
// empty database of the same kind without a search index, measured in
// turn, each first every other round: the second of two runs is a little
// slower. Each run on db is followed by the indexing of what it queued,
// so that no run shares the machine with it.
func indexedWriteRates(ctx context.Context, db, bare *sqldb.DB, n int) (indexed, unindexed float64, err error) {
	var with, without []float64
	for round := range writeRounds {
		for i := range 2 {
			if (round+i)%2 == 0 {
				r, err := writeRate(ctx, bare, n)
				if err != nil {
					return 0, 0, err
				}
				without = append(without, r)
				continue
			}
			r, err := writeRate(ctx, db, n)
			if err != nil {
				return 0, 0, err
			}
			with = append(with, r)
			if _, err := indexQueued(ctx, db); err != nil {
				return 0, 0, err
			}
		}
	}
	return median(with), median(without), nil
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// catchUp is the indexing of the submissions queued for search.
type catchUp struct {
	n    int
	took time.Duration
}

func (c catchUp) rate() float64 { return float64(c.n) / c.took.Seconds() }

// indexQueued indexes what db queued for search, as it would once writing
// is quiet.
func indexQueued(ctx context.Context, db *sqldb.DB) (catchUp, error) {
	began := time.Now()
	n, err := db.IndexQueued(ctx)
	return catchUp{n, time.Since(began)}, err
}

// contactSchema is the large form's, whose answers the hub tallies for
// its summary as it stores each submission.
var contactSchema = &hubclient.Schema{Fields: []hubclient.Field{
	{Name: "name", Type: hubclient.FieldText}, {Name: "email", Type: hubclient.FieldEmail}, {Name: "message", Type: hubclient.FieldTextarea},
}}

// writeRate stores n submissions of the large form through
// CreateSubmission, each with its tallies as the hub's submit route
// computes them, and returns how many it stored a second (storeRate).
func writeRate(ctx context.Context, db *sqldb.DB, n int) (float64, error) {
	c := newCorpus(3)
	subs := make([]hub.Submission, n)
	for i := range subs {
		p := json.RawMessage(c.next(false, false))
		subs[i] = hub.Submission{Site: Site, Slug: Slug, Payload: p, Tallies: hub.TalliesOf(contactSchema, p)}
	}
	return storeRate(ctx, db, subs, nil)
}

// storeRate stores subs through CreateSubmission, from writeClients
// goroutines, each given its id and time as it is stored, and prepare's
// changes if prepare is not nil, and returns how many it stored a second.
func storeRate(ctx context.Context, db *sqldb.DB, subs []hub.Submission, prepare func(i int, s *hub.Submission)) (float64, error) {
	return inParallel(len(subs), func(i int) error {
		s, now := subs[i], time.Now()
		s.ID, s.CreatedAt, s.ClientAddr, s.UserAgent, s.Locale = hub.NewID(now), now, "192.0.2.1", "Mozilla/5.0 (bench)", "en"
		if prepare != nil {
			prepare(i, &s)
		}
		return db.CreateSubmission(ctx, s)
	})
}

// inParallel calls write for 0 to n-1 from writeClients goroutines, and
// returns how many it made a second, or the first error one returned:
// the goroutine that got it stops.
func inParallel(n int, write func(i int) error) (float64, error) {
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	began := time.Now()
	for range writeClients {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if err := write(int(i)); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	return float64(n) / time.Since(began).Seconds(), nil
}

// exportResult is one export of the large form.
type exportResult struct {
	name        string
	rows, bytes int64
	rowsPerSec  float64
	peak        uint64
}

// measureExports writes the whole large form as CSV and as JSON, as
// hubform submissions and the console's export links do, to a writer
// that discards it.
func measureExports(ctx context.Context, db *sqldb.DB) ([]exportResult, error) {
	rows, err := db.CountSubmissions(ctx, hub.Filter{Site: Site, Slug: Slug})
	if err != nil {
		return nil, err
	}
	var out []exportResult
	for _, e := range []struct {
		name  string
		write func(context.Context, export.Lister, hub.Filter, io.Writer) error
	}{{"csv", export.CSV}, {"json", export.JSON}, {"csv-sheet", func(ctx context.Context, db export.Lister, f hub.Filter, w io.Writer) error {
		return export.SheetCSV(ctx, db, f, benchSheet("https://hub.example/console/forms/bench/inbox/submissions"), w)
	}}} {
		w := &countingWriter{}
		h := testkit.WatchHeap()
		began := time.Now()
		err := e.write(ctx, db, hub.Filter{Site: Site, Slug: Slug}, w)
		took := time.Since(began)
		peak := h.End()
		if err != nil {
			return nil, fmt.Errorf("%s export: %w", e.name, err)
		}
		out = append(out, exportResult{name: e.name, rows: int64(rows), bytes: w.n, rowsPerSec: float64(rows) / took.Seconds(), peak: peak})
	}
	web, err := measureHTTPExport(ctx, db)
	if err != nil {
		return nil, err
	}
	return append(out, web...), nil
}

// measureRetention deletes the large form's submissions created before
// before as the hub's retention does, retentionBatch to a transaction,
// and returns how long each transaction took and how many it deleted.
func measureRetention(ctx context.Context, db *sqldb.DB, before time.Time) (timings, int, error) {
	var ts timings
	deleted := 0
	for {
		began := time.Now()
		d, err := db.DeleteSubmissionsBefore(ctx, Site, Slug, before, retentionBatch)
		if err != nil {
			return nil, 0, err
		}
		ts = append(ts, time.Since(began))
		deleted += d.Submissions
		if d.Submissions == 0 {
			return ts, deleted, nil
		}
	}
}
