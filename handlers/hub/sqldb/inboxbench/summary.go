package inboxbench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// SurveySlug is the form of the summary's benchmark: a survey of one
// question of each way of summing up, in the site of the inbox's.
const SurveySlug = "survey"

// surveySchema is the survey. A submission adds about a dozen counts to
// its summary: more than most forms would.
var surveySchema = &hubclient.Schema{Fields: []hubclient.Field{
	{Name: "topic", Type: hubclient.FieldSelect, Options: options("sales", "support", "billing", "other")},
	{Name: "tags", Type: hubclient.FieldCheckboxes, Options: options("a", "b", "c", "d", "e")},
	{Name: "ok", Type: hubclient.FieldCheckbox},
	{Name: "stars", Type: hubclient.FieldRating},
	{Name: "score", Type: hubclient.FieldNPS},
	{Name: "order", Type: hubclient.FieldRanking, Options: options("x", "y", "z")},
	{Name: "note", Type: hubclient.FieldTextarea},
	{Name: "email", Type: hubclient.FieldEmail},
}}

func options(values ...string) []hubclient.Option {
	out := make([]hubclient.Option, len(values))
	for i, v := range values {
		out[i] = hubclient.Option{Value: v, Label: strings.ToUpper(v[:1]) + v[1:]}
	}
	return out
}

// writtenSlug is the form the writes measured go to, a survey beside it.
const writtenSlug = "written"

// survey makes the answers of the survey, deterministic for a seed.
type survey struct{ rng *rand.Rand }

func newSurvey(seed uint64) *survey { return &survey{rng: rand.New(rand.NewPCG(seed, 29))} }

// next returns the payload of a new answer and its tallies.
func (s *survey) next() (string, string) {
	p, answers := s.answers()
	return p, hub.Tallies(surveySchema, answers)
}

// answers returns the payload of a new answer, and its values as the
// submit route holds them.
func (s *survey) answers() (string, map[string]any) {
	r := s.rng
	p := map[string]any{
		"topic": surveySchema.Fields[0].Options[min(r.IntN(6), 3)].Value,
		"ok":    r.IntN(3) > 0,
		"stars": 1 + r.IntN(5),
		"score": r.IntN(11),
	}
	var tags []string
	for _, o := range surveySchema.Fields[1].Options {
		if r.IntN(4) == 0 {
			tags = append(tags, o.Value)
		}
	}
	p["tags"] = tags
	order := []string{"x", "y", "z"}
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	p["order"] = order
	if r.IntN(3) == 0 {
		p["note"] = fmt.Sprintf("Answer number %d, with a few words.", r.IntN(1_000_000))
	}
	if r.IntN(2) == 0 {
		p["email"] = fmt.Sprintf("person%d@example.com", r.IntN(1_000_000))
	}
	b, _ := json.Marshal(p) // values of these types always encode
	return string(b), p
}

// SummaryOptions are what differs between the databases.
type SummaryOptions struct {
	// Settle is Options.Settle.
	Settle func(ctx context.Context, w *sql.DB) error
	// Uncounted returns another empty database of the same kind that
	// keeps no counts of answers (its triggers and its index of
	// submissions left to tally dropped), whose write rate, of
	// submissions without tallies, is the baseline: the hub without a
	// summary.
	Uncounted func() *sqldb.DB
	// Hub starts the hubs of the writes through the submit route; nil
	// leaves them out.
	Hub HubStarter
	// ServerCPU, if not nil, returns the CPU time the database's server,
	// a process apart, has used so far: the CPU time of a write is then
	// the server's and this process's together.
	ServerCPU func() (time.Duration, error)
}

// Summary measures the Summary tab of a survey of HUBFORM_BENCH_SUBMISSIONS
// submissions: the write rate of survey submissions on db, empty, with
// their tallies counted, against that on an uncounted database, round by
// round (countedWriteRates), with the CPU time of a write and the cost of
// counting what the writes queued; then,
// once db is filled with the survey and a hundred small surveys beside it,
// what the console asks of the store for a summary of each period (the
// submissions left to tally, the counts of the answers, the newest
// submissions for the text answers), the write rate on the full database,
// the rate of counting the queue, and the rate of tallying submissions
// stored before the hub kept counts. Run it with -benchtime 1x.
func Summary(b *testing.B, db *sqldb.DB, opts SummaryOptions) {
	ctx := context.Background()
	size, err := Size()
	if err != nil {
		b.Fatal(err)
	}
	writes := min(maxWrites, max(1000, size/50))
	bare := opts.Uncounted()
	wc, err := countedWriteRates(ctx, db, bare, writes, opts.ServerCPU)
	if err != nil {
		b.Fatal(err)
	}
	var sc writeComparison
	if opts.Hub != nil {
		if sc, err = submitWriteRates(ctx, db, bare, writes, opts.ServerCPU, opts.Hub); err != nil {
			b.Fatal(err)
		}
	}
	// The writes stay, a form beside the survey: deleting them in one
	// statement would have PostgreSQL's trigger update the same few rows
	// of counts 100,000 times in one transaction, each update a version
	// that the next must walk past.
	end := time.Now().Add(-time.Minute)
	took, err := fillSurveys(ctx, db, size, end)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d submissions of %s/%s and %d of %d other surveys in %v", size, Site, SurveySlug, otherForms*otherRows, otherForms, took.Round(time.Second))
	// As the DB does when writing is quiet: the fill's submissions were
	// queued for counting (on PostgreSQL, whose summary shares the search
	// queue, counting indexes them too) and for search.
	queued, err := db.SummaryQueueLength(ctx)
	if err != nil {
		b.Fatal(err)
	}
	counting := time.Now()
	if _, err := db.CountQueued(ctx); err != nil {
		b.Fatal(err)
	}
	countRate := float64(queued) / time.Since(counting).Seconds()
	if _, err := indexQueued(ctx, db); err != nil {
		b.Fatal(err)
	}
	if opts.Settle != nil {
		if err := opts.Settle(ctx, db.Writer()); err != nil {
			b.Fatal(err)
		}
	}
	if err := checkSummary(ctx, db, size); err != nil {
		b.Fatal(err)
	}

	var reads []result
	var fullRate, tallyRate float64
	for b.Loop() {
		if reads, err = measureSummaries(ctx, db, end); err != nil {
			b.Fatal(err)
		}
		if fullRate, err = surveyWriteRate(ctx, db, writes, true); err != nil {
			b.Fatal(err)
		}
		if _, err := indexQueued(ctx, db); err != nil {
			b.Fatal(err)
		}
		if _, err := db.CountQueued(ctx); err != nil {
			b.Fatal(err)
		}
		if tallyRate, err = measureTally(ctx, db, writes, end); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "submissions")
	b.ReportMetric(took.Seconds(), "fill-s")
	for _, r := range reads {
		b.ReportMetric(ms(r.ts.quantile(0.5)), r.name+"-p50-ms")
		b.ReportMetric(ms(r.ts.quantile(0.99)), r.name+"-p99-ms")
		b.Logf("%-16s p50 %8.2f ms  p99 %8.2f ms  (%d runs)", r.name, ms(r.ts.quantile(0.5)), ms(r.ts.quantile(0.99)), len(r.ts))
	}
	b.ReportMetric(wc.uncounted, "write-uncounted-subs/s")
	b.ReportMetric(wc.counted, "write-counted-subs/s")
	b.ReportMetric(wc.ratio, "write-summary-ratio")
	b.ReportMetric(wc.withCounting, "write-and-count-subs/s")
	b.Logf("survey writes on empty databases, %d clients, %d each run, %d rounds: with the summary's counts %.0f/s, without %.0f/s (medians, %.2fx); "+
		"each round's ratio %s, median %.2fx",
		writeClients, writes, summaryWriteRounds, wc.counted, wc.uncounted, wc.counted/wc.uncounted, ratios(wc.ratios), wc.ratio)
	if wc.cpuCounted > 0 {
		b.ReportMetric(wc.cpuCounted, "write-counted-cpu-us")
		b.ReportMetric(wc.cpuUncounted, "write-uncounted-cpu-us")
		whose := "this process's"
		if opts.ServerCPU != nil {
			whose += " and the server's"
		}
		b.Logf("CPU time a write, %s: with the summary's counts %.0f µs, without %.0f µs (medians, %.2fx as a rate)",
			whose, wc.cpuCounted, wc.cpuUncounted, wc.cpuUncounted/wc.cpuCounted)
	}
	b.Logf("counting each run's queue once it ended: %.0f/s; the writes and their counting together %.0f/s (%.2fx the writes without)",
		wc.countRate, wc.withCounting, wc.withCounting/wc.uncounted)
	if opts.Hub != nil {
		reportSubmitWrites(b, writes, sc)
	}
	b.ReportMetric(fullRate, "write-full-subs/s")
	b.Logf("survey writes on the full database: %.0f/s (%.2fx the empty one's)", fullRate, fullRate/wc.counted)
	b.ReportMetric(countRate, "count-queued-subs/s")
	b.Logf("counted %d queued submissions in %v (%.0f/s)", queued, time.Since(counting).Round(time.Millisecond), countRate)
	b.ReportMetric(tallyRate, "tally-subs/s")
	b.Logf("tallying submissions stored before the counts: %.0f/s", tallyRate)
}

// summaryWriteRounds is how many times the write rates with and without
// the summary's counts are measured, in turn: more than writeRounds, as
// the two differ by less than the machine's other work moves one run.
const summaryWriteRounds = 9

// writeComparison is what countedWriteRates measured.
type writeComparison struct {
	// counted and uncounted are the median write rates with the
	// summary's counts and without.
	counted, uncounted float64
	// ratios are each round's counted rate over its uncounted one, the
	// two runs next to each other; ratio is their median.
	ratios []float64
	ratio  float64
	// countRate is the median rate of counting a run's queue once it
	// ended, as the DB does when writing is quiet; withCounting the
	// median rate of the writes and their counting together.
	countRate, withCounting float64
	// cpuCounted and cpuUncounted are the median CPU time of a write, in
	// µs, with and without; 0 when it could not be told.
	cpuCounted, cpuUncounted float64
}

// countedWriteRates measures the write rates of survey submissions on db,
// with their tallies, which the hub computes as it stores each one, and
// on bare, without, in turn, each first every other round (the second of
// two runs is a little slower), as indexedWriteRates does. Each run is
// followed by the indexing of what it queued for search, and each run on
// db by the counting of what it queued for the summary, which is timed:
// the hub does it once writing is quiet, and pays for it all the same.
// The CPU time of each run is this process's, and serverCPU's if not nil:
// it depends less than the rates on what else the machine runs.
func countedWriteRates(ctx context.Context, db, bare *sqldb.DB, n int, serverCPU func() (time.Duration, error)) (writeComparison, error) {
	return compareWrites(ctx, db, bare, n, serverCPU, func(target *sqldb.DB, tallied bool) (func() (float64, error), error) {
		subs, tally := surveyWrites(n, tallied)
		return func() (float64, error) { return storeRate(ctx, target, subs, tally) }, nil
	})
}

// compareWrites is countedWriteRates with the writes of a run made by
// prepare, for target, with the summary's tallies or without; what
// prepare does is not timed, the function it returns is.
func compareWrites(ctx context.Context, db, bare *sqldb.DB, n int, serverCPU func() (time.Duration, error),
	prepare func(target *sqldb.DB, tallied bool) (func() (float64, error), error)) (writeComparison, error) {
	var c writeComparison
	var with, without, counting, both []float64
	var cpu [2][]float64
	used := func() (time.Duration, bool, error) {
		d, ok := processCPU()
		if ok && serverCPU != nil {
			s, err := serverCPU()
			if err != nil {
				return 0, false, err
			}
			d += s
		}
		return d, ok, nil
	}
	for round := range summaryWriteRounds {
		var pair [2]float64
		for i := range 2 {
			target, tallied, k := db, true, 0
			if (round+i)%2 == 0 {
				target, tallied, k = bare, false, 1
			}
			write, err := prepare(target, tallied)
			if err != nil {
				return c, err
			}
			before, ok, err := used()
			if err != nil {
				return c, err
			}
			r, err := write()
			if err != nil {
				return c, err
			}
			after, _, err := used()
			if err != nil {
				return c, err
			}
			if ok {
				cpu[k] = append(cpu[k], float64((after-before).Microseconds())/float64(n))
			}
			pair[k] = r
			began := time.Now()
			counted, err := target.CountQueued(ctx)
			if err != nil {
				return c, err
			}
			if tallied {
				took := time.Since(began).Seconds()
				counting = append(counting, float64(counted)/took)
				both = append(both, float64(n)/(float64(n)/r+took))
			}
			if _, err := indexQueued(ctx, target); err != nil {
				return c, err
			}
		}
		with, without = append(with, pair[0]), append(without, pair[1])
		c.ratios = append(c.ratios, pair[0]/pair[1])
	}
	c.counted, c.uncounted = median(with), median(without)
	c.ratio = median(slices.Clone(c.ratios))
	c.countRate, c.withCounting = median(counting), median(both)
	if len(cpu[0]) > 0 {
		c.cpuCounted, c.cpuUncounted = median(cpu[0]), median(cpu[1])
	}
	return c, nil
}

// ratios formats rs, two decimals each.
func ratios(rs []float64) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%.2f", r)
	}
	return strings.Join(out, " ")
}

// surveyWriteRate stores n survey submissions through CreateSubmission,
// with their tallies or without, and returns how many it stored a second.
// The tallies are computed as each is stored, as the submit route does.
func surveyWriteRate(ctx context.Context, db *sqldb.DB, n int, tallied bool) (float64, error) {
	subs, tally := surveyWrites(n, tallied)
	return storeRate(ctx, db, subs, tally)
}

// surveyWrites returns n survey submissions to store, without tallies,
// and if tallied what gives a submission its tallies as it is stored.
func surveyWrites(n int, tallied bool) ([]hub.Submission, func(int, *hub.Submission)) {
	s := newSurvey(3)
	subs := make([]hub.Submission, n)
	answers := make([]map[string]any, n)
	for i := range subs {
		p, a := s.answers()
		subs[i] = hub.Submission{Site: Site, Slug: writtenSlug, Payload: json.RawMessage(p)}
		answers[i] = a
	}
	var tally func(int, *hub.Submission)
	if tallied {
		tally = func(i int, s *hub.Submission) { s.Tallies = hub.Tallies(surveySchema, answers[i]) }
	}
	return subs, tally
}

// fillSurveys inserts size submissions of the survey, spread evenly over
// spanDays up to end, and otherRows of each of otherForms other surveys,
// with their tallies: the database's trigger queues them for counting, as
// it would have as the hub stored each one.
func fillSurveys(ctx context.Context, db *sqldb.DB, size int, end time.Time) (time.Duration, error) {
	began := time.Now()
	start := end.Add(-spanDays * 24 * time.Hour)
	s := newSurvey(1)
	batch := make([]row, 0, rowsPerTx)
	for i := range size {
		at := start.Add(time.Duration(int64(end.Sub(start)) / int64(size) * int64(i)))
		p, t := s.next()
		batch = append(batch, row{id: hub.NewID(at), site: Site, slug: SurveySlug, created: at, payload: p, tallies: t,
			spam: i%spamOneIn == spamOneIn-1})
		if len(batch) == cap(batch) || i == size-1 {
			if err := insertRows(ctx, db.Writer(), batch); err != nil {
				return 0, err
			}
			batch = batch[:0]
		}
	}
	for k := range otherForms {
		for i := range otherRows {
			at := start.Add(time.Duration(int64(end.Sub(start)) / otherRows * int64(i)))
			p, t := s.next()
			batch = append(batch, row{id: hub.NewID(at), site: fmt.Sprintf("site-%02d", k), slug: SurveySlug, created: at, payload: p, tallies: t})
		}
	}
	if err := insertRows(ctx, db.Writer(), batch); err != nil {
		return 0, err
	}
	return time.Since(began), nil
}

// checkSummary makes sure the counts add up to the survey's submissions
// not marked as spam.
func checkSummary(ctx context.Context, db *sqldb.DB, size int) error {
	counts, err := db.AnswerCounts(ctx, Site, SurveySlug, time.Time{})
	if err != nil {
		return err
	}
	want := int64(size - size/spamOneIn)
	for _, c := range counts {
		if c.Field == "" && c.Answer == "" && c.N != want {
			return fmt.Errorf("the summary counts %d submissions, want %d", c.N, want)
		}
	}
	return nil
}

// measureSummaries times what the console's Summary tab asks of the store
// for each period: whether submissions are left to tally, the counts of
// the answers, and the newest submissions of the period for the answers
// to text questions.
func measureSummaries(ctx context.Context, db *sqldb.DB, end time.Time) ([]result, error) {
	none := func(json.RawMessage) string { return "" }
	var out []result
	for _, p := range []struct {
		name string
		days int
	}{{"summary-7d", 7}, {"summary-30d", 30}, {"summary-12m", 365}, {"summary-all", 0}} {
		var since time.Time
		if p.days > 0 {
			since = end.AddDate(0, 0, -p.days)
		}
		ts, err := repeat(func() error {
			if _, more, err := db.TallySubmissions(ctx, Site, SurveySlug, 1000, none); err != nil || more {
				return fmt.Errorf("submissions left to tally: %v", err)
			}
			if _, err := db.AnswerCounts(ctx, Site, SurveySlug, since); err != nil {
				return err
			}
			f := hub.Filter{Site: Site, Slug: SurveySlug, Spam: hub.NotSpam, Newest: true, Limit: 100, From: since}
			return db.ListSubmissions(ctx, f, func(s hub.Submission) error {
				var m map[string]any
				return json.Unmarshal(s.Payload, &m)
			})
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		out = append(out, result{p.name, ts})
	}
	return out, nil
}

// measureTally inserts n survey submissions of another form without
// tallies, as stored before the hub kept counts, then tallies them as the
// first summary of their form does, 1,000 a transaction, and returns how
// many it tallied a second.
func measureTally(ctx context.Context, db *sqldb.DB, n int, end time.Time) (float64, error) {
	const slug = "older"
	if _, err := db.Writer().ExecContext(ctx, `DELETE FROM submissions WHERE site = $1 AND form = $2`, Site, slug); err != nil {
		return 0, err
	}
	s := newSurvey(4)
	rows := make([]row, n)
	for i := range rows {
		at := end.Add(-time.Duration(n-i) * time.Second)
		p, _ := s.next()
		rows[i] = row{id: hub.NewID(at), site: Site, slug: slug, created: at, payload: p}
	}
	if err := insertRows(ctx, db.Writer(), rows); err != nil {
		return 0, err
	}
	tally := func(p json.RawMessage) string { return hub.TalliesOf(surveySchema, p) }
	began, done := time.Now(), 0
	for {
		k, more, err := db.TallySubmissions(ctx, Site, slug, 1000, tally)
		if err != nil {
			return 0, err
		}
		done += k
		if !more {
			break
		}
	}
	if done != n {
		return 0, fmt.Errorf("tallied %d submissions, want %d", done, n)
	}
	return float64(n) / time.Since(began).Seconds(), nil
}

// reportSubmitWrites reports the writes through the hub's submit route.
func reportSubmitWrites(b *testing.B, writes int, sc writeComparison) {
	b.ReportMetric(sc.uncounted, "submit-uncounted-subs/s")
	b.ReportMetric(sc.counted, "submit-counted-subs/s")
	b.ReportMetric(sc.ratio, "submit-summary-ratio")
	b.Logf("survey answers posted to the hub's submit route, %d clients, %d each run, %d rounds: with the summary %.0f/s, without %.0f/s (medians, %.2fx); "+
		"each round's ratio %s, median %.2fx", writeClients, writes, summaryWriteRounds, sc.counted, sc.uncounted, sc.counted/sc.uncounted, ratios(sc.ratios), sc.ratio)
	if sc.cpuCounted > 0 {
		b.ReportMetric(sc.cpuCounted, "submit-counted-cpu-us")
		b.ReportMetric(sc.cpuUncounted, "submit-uncounted-cpu-us")
		b.Logf("CPU time a post: with the summary %.0f µs, without %.0f µs (medians, %.2fx as a rate)", sc.cpuCounted, sc.cpuUncounted, sc.cpuUncounted/sc.cpuCounted)
	}
}
