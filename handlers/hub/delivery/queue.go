package delivery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// QueueName is the River queue deliveries run in.
const QueueName = "delivery"

// Defaults of Config.
const (
	// DefaultTimeout is how long one attempt may take, the receiver's
	// answer included.
	DefaultTimeout = 20 * time.Second
	// DefaultWorkers is how many deliveries one hub makes at once.
	DefaultWorkers = 20
)

// Submissions reads stored submissions.
type Submissions interface {
	Submission(ctx context.Context, id string) (hub.Submission, error)
}

// Config configures a Queue. Forms and Submissions are required.
type Config struct {
	Forms       hub.FormSource
	Submissions Submissions
	// Client sends webhooks; nil means a client that refuses the
	// addresses AllowNetworks leaves out (see NewHTTPClient).
	Client *http.Client
	// AllowNetworks are the private networks webhook receivers may be in,
	// used when Client is nil.
	AllowNetworks []*Network
	// Timeout is how long one attempt may take; zero means DefaultTimeout.
	// A job in flight on a hub that died is taken for stuck once it has
	// been running one and a half Timeouts, and River's rescuer looks every
	// 30 seconds: by default it runs again within a minute.
	Timeout time.Duration
	// Backoff is the delay before the first retry; zero means
	// DefaultBackoff. Tests make it short.
	Backoff time.Duration
	// RetryFor is how long a delivery is retried; zero means
	// DefaultRetryFor.
	RetryFor time.Duration
	// Workers is how many deliveries run at once; zero means
	// DefaultWorkers.
	Workers int
	// Mailer sends the e-mail of forms whose settings ask for it, from
	// MailFrom; nil sends none, and such forms' submissions are stored
	// without it, with a warning in the log.
	Mailer   Mailer
	MailFrom string
	// Files reads files to attach, MaxAttach bytes of them at most per
	// message (zero means DefaultMaxAttach); nil lists files without
	// attaching them.
	Files     Files
	MaxAttach int64
	// Links are the console's addresses chat messages and digests link
	// to; nil sends them without links.
	Links Links
	// Digests keeps the members' daily digests, which the queue sends
	// when Mailer is set; nil sends none.
	Digests Digests
	// Drafts reads the drafts whose links visitors ask to be e-mailed;
	// nil sends no links.
	Drafts Drafts
	// Recipients tells which addresses a form's notify.email may reach
	// (its workspace's members', and those that confirmed) and counts the
	// e-mails of each workspace against its quota; nil sends notifications
	// to no one.
	Recipients Recipients
	// ConfirmURL starts the links that ask an address to confirm it takes
	// a workspace's notifications: ConfirmURL + "/" + token. Empty asks
	// none.
	ConfirmURL string
	// PollInterval is how often the queue looks for jobs when the database
	// cannot notify it (SQLite); zero means River's default, one second.
	PollInterval time.Duration
	// OnAttempt, when set, is told of every attempt this hub makes, once it
	// ends: its kind (WebhookArgs.Kind, NotifyArgs.Kind,
	// AutoresponseArgs.Kind) and what it leaves
	// the delivery as, one of the Outcome constants but OutcomePending.
	OnAttempt func(kind, outcome string)
	Logger    *slog.Logger
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

func (c *Config) defaults() {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Backoff <= 0 {
		c.Backoff = DefaultBackoff
	}
	if c.RetryFor <= 0 {
		c.RetryFor = DefaultRetryFor
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.MaxAttach <= 0 {
		c.MaxAttach = DefaultMaxAttach
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Client == nil {
		c.Client = NewHTTPClient(c.Timeout, c.AllowNetworks)
	}
}

// Queue holds the deliveries of a hub as River jobs in its database.
type Queue struct {
	cfg      Config
	schedule schedule
	// insert inserts jobs in the transaction of a submission.
	insert func(ctx context.Context, tx sqldb.Tx, params []river.InsertManyParams) error
	// river is the River client, behind what its two drivers share.
	river riverClient
	// exec runs River's queries outside a transaction.
	exec  riverdriver.Executor
	close func()
	// nextPrune is when the queue next deletes the confirmation budgets
	// of past days, in Unix milliseconds.
	nextPrune atomic.Int64
}

// riverClient is what Queue uses of a *river.Client, whatever its driver.
type riverClient interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobRetry(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error)
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// riverConfig returns the River configuration of q, with its workers.
func (q *Queue) riverConfig(work bool) *river.Config {
	rc := &river.Config{
		Logger:  slog.New(minLevel{q.cfg.Logger.Handler(), slog.LevelWarn}),
		Workers: river.NewWorkers(),
		// A job whose hub died is marked running until rescued: rescue it
		// soon after its attempt would have timed out.
		JobTimeout:           q.cfg.Timeout,
		RescueStuckJobsAfter: rescueAfter(q.cfg.Timeout),
		FetchPollInterval:    q.cfg.PollInterval,
		FetchCooldown:        min(q.cfg.PollInterval, 100*time.Millisecond),
	}
	if q.cfg.PollInterval == 0 {
		rc.FetchCooldown = 0
	}
	if q.cfg.OnAttempt != nil {
		rc.Middleware = []rivertype.Middleware{&observer{onAttempt: q.cfg.OnAttempt}}
	}
	river.AddWorker(rc.Workers, &webhookWorker{worker[WebhookArgs]{q: q}})
	river.AddWorker(rc.Workers, &chatWorker{worker[ChatArgs]{q: q}})
	if q.cfg.Digests != nil {
		river.AddWorker(rc.Workers, &digestSweepWorker{worker[DigestSweepArgs]{q: q}})
		river.AddWorker(rc.Workers, &digestWorker{worker[DigestArgs]{q: q}})
		if work && q.cfg.Mailer != nil {
			rc.PeriodicJobs = []*river.PeriodicJob{digestSweep()}
		}
	}
	river.AddWorker(rc.Workers, &notifyWorker{worker[NotifyArgs]{q: q}})
	river.AddWorker(rc.Workers, &autoresponseWorker{worker[AutoresponseArgs]{q: q}})
	river.AddWorker(rc.Workers, &draftLinkWorker{worker[DraftLinkArgs]{q: q}})
	river.AddWorker(rc.Workers, &confirmRecipientWorker{worker[ConfirmRecipientArgs]{q: q}})
	if work {
		rc.Queues = map[string]river.QueueConfig{QueueName: {MaxWorkers: q.cfg.Workers}}
	}
	return rc
}

// rescueAfter is how long after it began a job still marked running is
// taken for one whose hub died, and run again: longer than any attempt
// may take, so that no live attempt is run twice at once.
func rescueAfter(timeout time.Duration) time.Duration {
	return timeout + max(timeout/2, time.Second)
}

// Start starts working the queue, until ctx is done or Stop is called.
func (q *Queue) Start(ctx context.Context) error {
	if err := q.river.Start(ctx); err != nil {
		return fmt.Errorf("delivery: start: %w", err)
	}
	return nil
}

// Stop waits for the deliveries running to end, or ctx to be done; a job
// cut short is run again later, by this hub or another.
func (q *Queue) Stop(ctx context.Context) error { return q.river.Stop(ctx) }

// Close releases what the queue opened of its own (Postgres's pool).
func (q *Queue) Close() {
	if q.close != nil {
		q.close()
	}
}

// Hook returns the hook that inserts the deliveries of each submission in
// the transaction that stores it: a stored submission always has its
// deliveries, a refused one never.
func (q *Queue) Hook() sqldb.SubmissionHook {
	return func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		if s.Held {
			return nil // flagged as spam: delivered only if an owner says it is not
		}
		form, err := q.cfg.Forms.Lookup(s.Site, s.Slug)
		if err != nil {
			return fmt.Errorf("delivery: %w", err)
		}
		if form.Settings.Notify != nil && q.cfg.Mailer == nil {
			q.cfg.Logger.Warn("form asks for e-mail but the hub has no SMTP server (--smtp-url): none sent", "site", s.Site, "form", s.Slug, "submission", s.ID)
		}
		params := q.jobs(s, form.Settings)
		confirm, err := q.autoresponse(ctx, tx, s, form)
		if err != nil {
			return fmt.Errorf("delivery: %w", err)
		}
		if confirm != nil {
			params = append(params, *confirm)
		}
		if len(params) == 0 {
			return nil
		}
		if err := q.insert(ctx, tx, params); err != nil {
			return fmt.Errorf("delivery: inserting %d deliveries: %w", len(params), err)
		}
		return nil
	}
}

// jobs returns the deliveries of s under settings.
func (q *Queue) jobs(s hub.Submission, settings hub.Settings) []river.InsertManyParams {
	var out []river.InsertManyParams
	opts := q.insertOpts(s)
	for _, w := range settings.Webhooks {
		out = append(out, river.InsertManyParams{
			Args:       WebhookArgs{SubmissionID: s.ID, Site: s.Site, Slug: s.Slug, URL: w.URL},
			InsertOpts: opts,
		})
	}
	out = append(out, q.chatJobs(s, settings, opts)...)
	if settings.Notify != nil && len(settings.Notify.Email) > 0 && q.cfg.Mailer != nil {
		out = append(out, river.InsertManyParams{
			Args:       NotifyArgs{SubmissionID: s.ID, Site: s.Site, Slug: s.Slug},
			InsertOpts: opts,
		})
	}
	return out
}

// insertOpts returns the options of the deliveries of s.
func (q *Queue) insertOpts(s hub.Submission) *river.InsertOpts {
	return &river.InsertOpts{Queue: QueueName, MaxAttempts: q.schedule.maxAttempts(), Tags: []string{FormTag(s.Site, s.Slug)}}
}

// FormTag returns the tag of the deliveries of a form: a hash, since River
// tags admit fewer characters than names and a separator could be
// ambiguous.
func FormTag(site, slug string) string {
	sum := sha256.Sum256([]byte(site + "/" + slug))
	return "form_" + hex.EncodeToString(sum[:12])
}

// errGone means a delivery's submission or receiver no longer exists.
var errGone = errors.New("no longer exists")

// Mailer returns the queue's Mailer and the address it sends from; nil
// when the hub sends no e-mail. Others who send the hub's e-mail, such as
// the console's invitations, use the same.
func (q *Queue) Mailer() (Mailer, string) { return q.cfg.Mailer, q.cfg.MailFrom }

// worker is what every job's worker shares: the queue, and retries on its
// schedule (exponential, with jitter).
type worker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	q *Queue
}

// NextRetry is the schedule's.
func (w *worker[T]) NextRetry(job *river.Job[T]) time.Time {
	return w.q.cfg.Now().Add(w.q.schedule.delay(job.Attempt))
}
