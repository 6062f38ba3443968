package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

const submissionColumns = insertedColumns + ", ending, calculations"

// insertedColumns are the columns every insert of a submission names: all
// but ending and calculations, each named only when the submission has one.
const insertedColumns = "id, site, form, created_at, payload, attachments, client_addr, user_agent, idempotency_key, form_version, spam, spam_reasons, held, locale"

// CreateSubmission stores s and, in the same transaction, claims the upload
// each of its attachments names. An upload can be claimed only if it exists,
// belongs to s.Site and s.Slug, is uploaded, is not claimed yet, and has the
// attachment's size and MIME type; otherwise nothing is stored and the
// error, which wraps hub.ErrUploadClaim, names the key. When a submission of
// s.Site and s.Slug already carries s.IdempotencyKey, nothing is stored and
// the error is a *hub.KeyUsedError naming that submission; of several
// racing with one key, exactly one is stored. The DB's SubmissionHook, if
// any, runs in the same transaction; its error stores nothing.
// CreateSubmission returns nil only once the transaction is durably
// committed.
func (db *DB) CreateSubmission(ctx context.Context, s hub.Submission) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if s.ID == "" || s.Site == "" || s.Slug == "" {
		return db.errorf("create submission: id, site and form must be set")
	}
	if err := hubclient.CheckIdempotencyKey(s.IdempotencyKey); err != nil {
		return db.errorf("create submission %s: %w", s.ID, err)
	}
	payload := s.Payload
	if len(payload) == 0 {
		payload = json.RawMessage("{}")
	}
	// JSON may carry bytes that are not UTF-8 in its strings; PostgreSQL's
	// TEXT refuses them, so both databases do.
	if !json.Valid(payload) || !utf8.Valid(payload) {
		return db.errorf("create submission %s: payload is not valid JSON in UTF-8", s.ID)
	}
	if s.Tallies != "" && !json.Valid([]byte(s.Tallies)) {
		return db.errorf("create submission %s: tallies are not valid JSON", s.ID)
	}
	atts := s.Attachments
	if atts == nil {
		atts = []hubclient.Attachment{}
	}
	attsJSON, err := json.Marshal(atts)
	if err != nil {
		return db.errorf("create submission %s: %w", s.ID, err)
	}
	var reasons sql.NullString
	if len(s.SpamReasons) > 0 {
		b, err := json.Marshal(s.SpamReasons)
		if err != nil {
			return db.errorf("create submission %s: %w", s.ID, err)
		}
		reasons = sql.NullString{String: string(b), Valid: true}
	}

	r := &storeRequest{ctx: ctx, s: s, payload: string(payload), attachments: string(attsJSON), reasons: reasons}
	if db.batch == nil {
		return db.full(db.storeAlone(w, r))
	}
	return db.full(db.batch.store(r, func(batch []*storeRequest) { db.storeTogether(w, batch) }))
}

// A storeRequest is a submission to store, and then what became of it.
type storeRequest struct {
	ctx                  context.Context
	s                    hub.Submission
	payload, attachments string
	reasons              sql.NullString
	err                  error
}

// storeAlone stores r in a transaction of its own.
func (db *DB) storeAlone(w *sql.DB, r *storeRequest) error {
	err := db.inSubmissionTx(r.ctx, w, func(tx Tx) error { return db.insertSubmission(tx, r) })
	if err != nil {
		return db.errorf("create submission %s: %w", r.s.ID, err)
	}
	return nil
}

// storeTogether stores the submissions of batch in one transaction, each
// within a savepoint: one refused leaves the others stored. A commit that
// fails fails them all.
func (db *DB) storeTogether(w *sql.DB, batch []*storeRequest) {
	// The batch is everyone's: its transaction ends when it is done, not
	// when the request that began it is cancelled.
	ctx := context.WithoutCancel(batch[0].ctx)
	err := db.inSubmissionTx(ctx, w, func(tx Tx) error {
		for _, r := range batch {
			if r.err = r.ctx.Err(); r.err != nil {
				continue
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT submission`); err != nil {
				return err
			}
			if r.err = db.insertSubmission(tx, r); r.err != nil {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO submission`); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE submission`); err != nil {
				return err
			}
		}
		return nil
	})
	for _, r := range batch {
		if r.err == nil {
			r.err = err
		}
		if r.err != nil {
			r.err = db.errorf("create submission %s: %w", r.s.ID, r.err)
		}
	}
}

// inSubmissionTx is inHookTx for writes of submissions, which tell the
// search queue that writing goes on once they commit.
func (db *DB) inSubmissionTx(ctx context.Context, w *sql.DB, f func(Tx) error) error {
	if err := inHookTx(ctx, w, f); err != nil {
		return err
	}
	if db.queue != nil {
		db.queue.written()
	}
	return nil
}

// inHookTx runs f in a transaction on a connection of its own, which a
// hook may reach through Tx.Raw, and commits unless f fails.
func inHookTx(ctx context.Context, w *sql.DB, f func(Tx) error) error {
	conn, err := w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(Tx{Tx: tx, conn: conn}); err != nil {
		return err
	}
	return tx.Commit()
}

// insertSubmission inserts r's submission in tx, enforces its limits,
// claims its uploads, deletes the draft it finishes and runs the hook. A
// repeated idempotency key is answered before the limits are: a repeat is
// told of the first send.
func (db *DB) insertSubmission(tx Tx, r *storeRequest) error {
	ctx, s := r.ctx, r.s
	// A used key makes the insert do nothing rather than fail, which on
	// PostgreSQL would abort the transaction before the winner could be
	// read. A racing transaction holding the key makes the insert wait for
	// its outcome; any other conflict, such as a duplicate id, still fails.
	args := []any{s.ID, s.Site, s.Slug, millis(s.CreatedAt), r.payload, r.attachments, text(s.ClientAddr), text(s.UserAgent),
		nullString(s.IdempotencyKey), nullInt(s.FormVersion), s.Spam, r.reasons, s.Held, s.Locale}
	// A column a submission leaves empty (no ending reached, nothing to
	// tally) is not named: the statement also stores into a database of a
	// schema before that column's, as the tests of the migrations fill one.
	columns, values := insertedColumns, "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14"
	var calcs []byte
	if len(s.Calculations) > 0 {
		var err error
		if calcs, err = json.Marshal(s.Calculations); err != nil {
			return fmt.Errorf("calculations: %w", err)
		}
	}
	for _, c := range []struct{ name, value string }{{"ending", s.Ending}, {"tallies", s.Tallies}, {"calculations", string(calcs)}} {
		if c.value != "" {
			args = append(args, c.value)
			columns += ", " + c.name
			values += ", $" + strconv.Itoa(len(args))
		}
	}
	res, err := tx.ExecContext(ctx,
		`INSERT INTO submissions (`+columns+`) VALUES (`+values+`)
		ON CONFLICT (site, form, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		// Read in this transaction, after the insert: on PostgreSQL the
		// statement sees the winner, committed while the insert waited.
		first, err := submissionByKey(ctx, tx, s.Site, s.Slug, s.IdempotencyKey)
		if err != nil {
			return fmt.Errorf("reading the submission with its idempotency key: %w", err)
		}
		return &hub.KeyUsedError{Key: s.IdempotencyKey, SubmissionID: first}
	}
	if err := enforceLimits(ctx, tx, s); err != nil {
		return err
	}
	for _, a := range s.Attachments {
		if err := claim(ctx, tx.Tx, s, a); err != nil {
			return err
		}
	}
	if s.DraftHash != "" {
		// Last of the checks above, so a refused submission keeps its
		// draft; within the savepoint of a batch, undone with the rest.
		if err := finishDraft(ctx, tx.Tx, s.Site, s.Slug, s.DraftHash); err != nil {
			return fmt.Errorf("deleting the draft finished: %w", err)
		}
	}
	if db.onSubmission != nil {
		return db.onSubmission(ctx, tx, s)
	}
	return nil
}

// Submission returns the submission with the id, or an error wrapping
// hub.ErrNotFound.
func (db *DB) Submission(ctx context.Context, id string) (hub.Submission, error) {
	s, err := scanSubmission(db.r.QueryRowContext(ctx, `SELECT `+submissionColumns+` FROM submissions WHERE id = $1 AND deleted_at IS NULL`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = hub.ErrNotFound
	}
	if err != nil {
		return hub.Submission{}, db.errorf("submission %s: %w", id, err)
	}
	return s, nil
}

// SubmissionByKey returns the id of the submission of site and form that
// carries the idempotency key, or an error wrapping hub.ErrNotFound. The
// empty key is carried by none.
func (db *DB) SubmissionByKey(ctx context.Context, site, slug, key string) (string, error) {
	if key == "" {
		return "", db.errorf("submission by idempotency key: empty key: %w", hub.ErrNotFound)
	}
	id, err := submissionByKey(ctx, db.r, site, slug, key)
	if err != nil {
		return "", db.errorf("submission by idempotency key: %w", err)
	}
	return id, nil
}

// querier is what *sql.DB and *sql.Tx share for reading one row.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// submissionByKey looks the key up through q, served by the unique index.
func submissionByKey(ctx context.Context, q querier, site, slug, key string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx,
		`SELECT id FROM submissions WHERE site = $1 AND form = $2 AND idempotency_key = $3`, site, slug, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", hub.ErrNotFound
	}
	return id, err
}

// claim marks the upload attachment a names as claimed by s. One
// conditional UPDATE both checks and claims, so two submissions racing for
// an upload cannot both see it unclaimed.
func claim(ctx context.Context, tx *sql.Tx, s hub.Submission, a hubclient.Attachment) error {
	res, err := tx.ExecContext(ctx,
		`UPDATE uploads SET submission_id = $1
		WHERE key = $2 AND site = $3 AND form = $4 AND size = $5 AND mime = $6
		AND uploaded_at IS NOT NULL AND submission_id IS NULL`,
		s.ID, a.Key, s.Site, s.Slug, a.Size, a.MIME)
	if err != nil {
		return fmt.Errorf("attachment %q: %w", a.Key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("attachment %q: %w", a.Key, err)
	}
	if n == 1 {
		return nil
	}
	return fmt.Errorf("attachment %q: %s: %w", a.Key, claimRefusal(ctx, tx, s, a), hub.ErrUploadClaim)
}

// claimRefusal says why the upload attachment a names cannot be claimed by
// s, for the error; the refusal itself was decided by claim.
func claimRefusal(ctx context.Context, tx *sql.Tx, s hub.Submission, a hubclient.Attachment) string {
	var (
		site, slug, mime string
		size             int64
		uploaded         sql.NullInt64
		claimedBy        sql.NullString
	)
	err := tx.QueryRowContext(ctx,
		`SELECT site, form, mime, size, uploaded_at, submission_id FROM uploads WHERE key = $1`, a.Key).
		Scan(&site, &slug, &mime, &size, &uploaded, &claimedBy)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "no such upload"
	case err != nil:
		return "upload unreadable: " + err.Error()
	case site != s.Site || slug != s.Slug:
		return "upload belongs to another form"
	case claimedBy.Valid:
		return "upload already claimed"
	case !uploaded.Valid:
		return "upload not received yet"
	case size != a.Size:
		return fmt.Sprintf("size %d differs from the upload's %d", a.Size, size)
	case mime != a.MIME:
		return fmt.Sprintf("type %q differs from the upload's %q", a.MIME, mime)
	}
	return "upload changed meanwhile"
}

// ListSubmissions calls fn for each submission f selects, at most f.Limit
// when it is positive, in id order, which is creation order, or newest
// first with f.Newest. Rows are read as fn consumes them, not loaded
// first. An error from fn stops the listing and is returned as is. The
// Attachments of a submission without files are empty, not nil.
//
// A page (f.Limit positive) of a search starts from the search index's
// matches when it finds the term in few submissions; that of a more common
// term, or of dates, is first looked for among the submissions nearest the
// cursor (see recentWindows): a common term is as fast as a rare one.
func (db *DB) ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error {
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return db.errorf("list submissions: %w", err)
	}
	windows, err := db.recentWindowsOf(ctx, f, ask)
	if err != nil {
		return db.errorf("list submissions: %w", err)
	}
	page, err := db.listRecent(ctx, f, windows)
	if err != nil {
		return db.errorf("list submissions: %w", err)
	}
	if page != nil {
		for _, s := range page {
			if err := fn(s); err != nil {
				return err
			}
		}
		return nil
	}
	query, args := db.listQuery(f, ask)
	rows, end, err := db.searchRows(ctx, ask, query, args...)
	if err != nil {
		return db.errorf("list submissions: %w", err)
	}
	defer end()
	defer rows.Close()
	for rows.Next() {
		// database/sql notices a canceled context only asynchronously;
		// a slow fn should not get more rows after it.
		if err := ctx.Err(); err != nil {
			return db.errorf("list submissions: %w", err)
		}
		s, err := scanSubmission(rows)
		if err != nil {
			return db.errorf("list submissions: %w", err)
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return db.errorf("list submissions: %w", err)
	}
	return nil
}

// CountSubmissions returns the number of submissions f selects. The whole
// quarters of an hour f selects are read from submission_counts when f
// asks for no more than a form, its spam mark and dates (see countPlan);
// the rest is counted from the submissions.
func (db *DB) CountSubmissions(ctx context.Context, f hub.Filter) (int, error) {
	p, ok := planCount(f)
	if !ok {
		n, err := db.countRows(ctx, f)
		if err != nil {
			return 0, db.errorf("count submissions: %w", err)
		}
		return n, nil
	}
	query, args := p.sumQuery()
	var n int
	err := db.r.QueryRowContext(ctx, query, args...).Scan(&n)
	if err != nil {
		return 0, db.errorf("count submissions: %w", err)
	}
	for _, e := range p.edges {
		m, err := db.countRows(ctx, e)
		if err != nil {
			return 0, db.errorf("count submissions: %w", err)
		}
		n += m
	}
	return n, nil
}

// countRows counts the submissions f selects one by one.
func (db *DB) countRows(ctx context.Context, f hub.Filter) (int, error) {
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return 0, err
	}
	where, args := db.filterSQL(f, ask)
	rows, end, err := db.searchRows(ctx, ask, `SELECT COUNT(*) FROM submissions`+where, args...)
	if err != nil {
		return 0, err
	}
	defer end()
	defer rows.Close()
	var n int
	if rows.Next() {
		err = rows.Scan(&n)
	}
	if err == nil {
		err = rows.Err()
	}
	return n, err
}

// CountSubmissionsBy returns the number of submissions f selects in each
// interval of length step that holds any, in time order, each interval
// starting at a multiple of step since the Unix epoch. With step a quarter
// of an hour the caller can sum them into the days of any time zone. As
// with CountSubmissions, whole quarters are read from submission_counts
// when step is a multiple of a quarter of an hour.
func (db *DB) CountSubmissionsBy(ctx context.Context, f hub.Filter, step time.Duration) ([]hub.TimeCount, error) {
	ms := step.Milliseconds()
	if ms <= 0 {
		return nil, fmt.Errorf("count submissions: step %v is under a millisecond", step)
	}
	p, ok := planCount(f)
	if !ok || ms%quarterMillis != 0 {
		out, err := db.countRowsBy(ctx, f, ms)
		if err != nil {
			return nil, db.errorf("count submissions by time: %w", err)
		}
		return out, nil
	}
	where, args := p.where()
	// quarter / (ms / quarterMillis) is the interval created_at / ms of
	// each of the quarter's submissions: both divisions truncate.
	args = append(args, ms/quarterMillis)
	bucket := "(quarter / $" + strconv.Itoa(len(args)) + ")"
	rows, err := db.r.QueryContext(ctx, `SELECT `+bucket+`, CAST(SUM(n) AS BIGINT) FROM submission_counts`+where+
		` GROUP BY 1 HAVING SUM(n) <> 0 ORDER BY 1`, args...)
	if err != nil {
		return nil, db.errorf("count submissions by time: %w", err)
	}
	out, err := scanTimeCounts(rows, ms)
	if err != nil {
		return nil, db.errorf("count submissions by time: %w", err)
	}
	for _, e := range p.edges {
		edge, err := db.countRowsBy(ctx, e, ms)
		if err != nil {
			return nil, db.errorf("count submissions by time: %w", err)
		}
		out = mergeTimeCounts(out, edge)
	}
	return out, nil
}

// countRowsBy counts the submissions f selects one by one, by interval
// of ms milliseconds.
func (db *DB) countRowsBy(ctx context.Context, f hub.Filter, ms int64) ([]hub.TimeCount, error) {
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return nil, err
	}
	where, args := db.filterSQL(f, ask)
	args = append(args, ms)
	bucket := "(created_at / $" + strconv.Itoa(len(args)) + ")"
	rows, end, err := db.searchRows(ctx, ask, `SELECT `+bucket+`, COUNT(*) FROM submissions`+where+` GROUP BY 1 ORDER BY 1`, args...)
	if err != nil {
		return nil, err
	}
	defer end()
	return scanTimeCounts(rows, ms)
}

// scanTimeCounts reads and closes rows of intervals, numbered from the
// epoch by ms milliseconds, and counts.
func scanTimeCounts(rows *sql.Rows, ms int64) ([]hub.TimeCount, error) {
	defer rows.Close()
	var out []hub.TimeCount
	for rows.Next() {
		var n, count int64
		if err := rows.Scan(&n, &count); err != nil {
			return nil, err
		}
		out = append(out, hub.TimeCount{Start: fromMillis(n * ms), N: int(count)})
	}
	return out, rows.Err()
}

// mergeTimeCounts adds b's counts to a's, both in time order.
func mergeTimeCounts(a, b []hub.TimeCount) []hub.TimeCount {
	if len(b) == 0 {
		return a
	}
	out := make([]hub.TimeCount, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Start.Before(b[0].Start):
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0].Start.Before(a[0].Start):
			out, b = append(out, b[0]), b[1:]
		default:
			out = append(out, hub.TimeCount{Start: a[0].Start, N: a[0].N + b[0].N})
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// quarterMillis is the length of submission_counts' intervals.
const quarterMillis = 15 * 60 * 1000

// A countPlan is how a count reads submission_counts: the quarters from
// (when hasFrom) up to to (when hasTo), of f's form and spam mark, and the
// filters of the parts of quarters at either end, counted from the
// submissions.
type countPlan struct {
	f              hub.Filter
	from, to       int64
	hasFrom, hasTo bool
	edges          []hub.Filter
}

// planCount returns how f's count reads submission_counts, or false when
// it cannot: f searches, or has a cursor, or its dates are not after the
// epoch (quarters truncate toward it, so the quarter 0 holds a half hour),
// or hold no whole quarter.
func planCount(f hub.Filter) (countPlan, bool) {
	if f.Search != "" || f.Before != "" || f.After != "" {
		return countPlan{}, false
	}
	p := countPlan{f: f}
	if !f.From.IsZero() {
		ms := millis(f.From)
		if ms <= 0 {
			return countPlan{}, false
		}
		p.from, p.hasFrom = (ms+quarterMillis-1)/quarterMillis, true
		if p.from*quarterMillis != ms {
			e := f
			e.To = fromMillis(p.from * quarterMillis)
			p.edges = append(p.edges, e)
		}
	}
	if !f.To.IsZero() {
		ms := millis(f.To)
		if ms <= 0 {
			return countPlan{}, false
		}
		p.to, p.hasTo = ms/quarterMillis, true
		if p.to*quarterMillis != ms {
			e := f
			e.From = fromMillis(p.to * quarterMillis)
			p.edges = append(p.edges, e)
		}
	}
	if p.hasFrom && p.hasTo && p.from >= p.to {
		return countPlan{}, false
	}
	return p, true
}

// sumQuery returns the query of the sum of p's quarters, and its
// arguments.
func (p countPlan) sumQuery() (string, []any) {
	where, args := p.where()
	return `SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM submission_counts` + where, args
}

// where returns the conditions on submission_counts of p's quarters.
func (p countPlan) where() (string, []any) {
	var q filter
	if p.f.Site != "" {
		q.walk = append(q.walk, "site = "+q.arg(p.f.Site))
	}
	if p.f.Slug != "" {
		q.walk = append(q.walk, "form = "+q.arg(p.f.Slug))
	}
	q.spam(p.f.Spam)
	if p.hasFrom {
		q.walk = append(q.walk, "quarter >= "+q.arg(p.from))
	}
	if p.hasTo {
		q.walk = append(q.walk, "quarter < "+q.arg(p.to))
	}
	return where(q.walk...), q.args
}

// scanSubmission reads the columns submissionColumns names.
func scanSubmission(s scanner) (hub.Submission, error) {
	var (
		sub              hub.Submission
		created          int64
		payload, attsRaw string
		key, reasons     sql.NullString
		ending, calcs    sql.NullString
		version          sql.NullInt64
	)
	err := s.Scan(&sub.ID, &sub.Site, &sub.Slug, &created, &payload, &attsRaw, &sub.ClientAddr, &sub.UserAgent, &key, &version, &sub.Spam, &reasons, &sub.Held, &sub.Locale, &ending, &calcs)
	if err != nil {
		return hub.Submission{}, err
	}
	if reasons.Valid {
		if err := json.Unmarshal([]byte(reasons.String), &sub.SpamReasons); err != nil {
			return hub.Submission{}, fmt.Errorf("submission %s: spam reasons: %w", sub.ID, err)
		}
	}
	sub.IdempotencyKey, sub.FormVersion, sub.Ending = key.String, version.Int64, ending.String
	if calcs.Valid {
		if err := json.Unmarshal([]byte(calcs.String), &sub.Calculations); err != nil {
			return hub.Submission{}, fmt.Errorf("submission %s: calculations: %w", sub.ID, err)
		}
	}
	sub.CreatedAt = fromMillis(created)
	sub.Payload = json.RawMessage(payload)
	// Never nil, so a submission without files encodes "attachments": []
	// rather than null.
	sub.Attachments = []hubclient.Attachment{}
	if attsRaw == "[]" {
		return sub, nil // most submissions: no decoding
	}
	if err := json.Unmarshal([]byte(attsRaw), &sub.Attachments); err != nil {
		return hub.Submission{}, fmt.Errorf("submission %s: attachments: %w", sub.ID, err)
	}
	return sub, nil
}
