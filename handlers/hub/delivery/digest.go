package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// Digests keeps the members' daily digests (hub.Digest) and reads what
// they show, as sqldb.DB does.
type Digests interface {
	DueDigests(ctx context.Context, now time.Time, limit int) ([]hub.Digest, error)
	AdvanceDigest(ctx context.Context, d hub.Digest, next time.Time) (bool, error)
	DeleteDigest(ctx context.Context, d hub.Digest) error
	DigestDay(ctx context.Context, d hub.Digest, from, to time.Time, newest int) ([]hub.FormDay, error)
	DigestReader(ctx context.Context, workspace, email string) (bool, error)
}

// Limits of digests.
const (
	// digestSweepEvery is how often the digests due are looked for: a
	// digest goes out within this of its hour.
	digestSweepEvery = time.Minute
	// digestSweepMax is how many digests one sweep queues; the next takes
	// the rest.
	digestSweepMax = 500
	// digestNewest is how many of a form's submissions a digest shows in
	// short.
	digestNewest = 5
	// digestLine is how many characters a submission's line may take.
	digestLine = 100
)

// DigestSweepArgs is the periodic job that queues the digests due. River
// runs it on one hub at a time, its leader's, every digestSweepEvery.
type DigestSweepArgs struct{}

// Kind is the River kind of the sweep.
func (DigestSweepArgs) Kind() string { return "digest_sweep" }

// DigestArgs is a job that e-mails a member's digest of one day.
type DigestArgs struct {
	Workspace string `json:"workspace"`
	Email     string `json:"email"`
	Site      string `json:"site,omitempty"`
	Slug      string `json:"form,omitempty"`
	TimeZone  string `json:"timeZone"`
	// From and To bound the day, in Unix milliseconds: with the digest,
	// they make the job unique, so that a day is mailed once.
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Kind is the River kind of digests.
func (DigestArgs) Kind() string { return "digest" }

func (a DigestArgs) digest() hub.Digest {
	return hub.Digest{Workspace: a.Workspace, Email: a.Email, Site: a.Site, Slug: a.Slug, TimeZone: a.TimeZone}
}

// digestSweep is the periodic job of the sweep.
func digestSweep() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(digestSweepEvery), func() (river.JobArgs, *river.InsertOpts) {
		return DigestSweepArgs{}, &river.InsertOpts{Queue: QueueName, MaxAttempts: 1}
	}, &river.PeriodicJobOpts{ID: "digest_sweep", RunOnStart: true})
}

type digestSweepWorker struct{ worker[DigestSweepArgs] }

// Work queues each digest due, about the day before now in its time
// zone, then moves it on to its next hour: a hub that was down for days
// sends the last day's alone. A digest is queued before it is moved on,
// and a day's job is unique, so that a sweep cut short between the two
// sends nothing twice.
func (w *digestSweepWorker) Work(ctx context.Context, job *river.Job[DigestSweepArgs]) error {
	q := w.q
	now := q.cfg.Now()
	due, err := q.cfg.Digests.DueDigests(ctx, now, digestSweepMax)
	if err != nil {
		return err
	}
	for _, d := range due {
		from, to := d.Day(now)
		args := DigestArgs{Workspace: d.Workspace, Email: d.Email, Site: d.Site, Slug: d.Slug, TimeZone: d.TimeZone,
			From: from.UnixMilli(), To: to.UnixMilli()}
		if _, err := q.river.Insert(ctx, args, &river.InsertOpts{Queue: QueueName, MaxAttempts: q.schedule.maxAttempts(),
			UniqueOpts: river.UniqueOpts{ByArgs: true}}); err != nil {
			return err
		}
		if _, err := q.cfg.Digests.AdvanceDigest(ctx, d, d.Next(now)); err != nil {
			return err
		}
	}
	return nil
}

type digestWorker struct{ worker[DigestArgs] }

// Work e-mails the digest of the job's day, unless nothing came that day.
// A member who left the workspace, or whose address is no longer proved,
// gets none, and their digest is deleted.
func (w *digestWorker) Work(ctx context.Context, job *river.Job[DigestArgs]) error {
	q, a := w.q, job.Args
	log := q.cfg.Logger.With("job", job.ID, "workspace", a.Workspace, "digest of", a.Site+"/"+a.Slug, "attempt", job.Attempt)
	d := a.digest()
	ok, err := q.cfg.Digests.DigestReader(ctx, a.Workspace, a.Email)
	if err != nil {
		return err
	}
	if !ok {
		log.Info("digest not sent and deleted: its member left the workspace, or their address is not proved")
		if err := q.cfg.Digests.DeleteDigest(ctx, d); err != nil {
			return err
		}
		return river.JobCancel(fmt.Errorf("digest of %s, no proved member of it: %w", a.Workspace, errGone))
	}
	from, to := time.UnixMilli(a.From), time.UnixMilli(a.To)
	days, err := q.cfg.Digests.DigestDay(ctx, d, from, to, digestNewest)
	if err != nil {
		return err
	}
	if len(days) == 0 {
		log.Debug("digest not sent: nothing came that day")
		return nil
	}
	m, err := q.newMessage([]string{a.Email}, "digest", "digest-"+strconv.FormatInt(job.ID, 10), true)
	if err != nil {
		return err
	}
	subject, body := q.digestText(d, from, days)
	m.Subject(subject)
	m.SetBodyString(gomail.TypeTextPlain, body)
	if err := q.takeMail(ctx, log, job.Attempt, days[0].Site, 1); err != nil {
		return err
	}
	return q.send(ctx, log, job.JobRow, m)
}

// digestText writes the digest of the day from: its subject, and a
// plain-text body of each form's count and newest submissions, each in a
// line of its first answers.
func (q *Queue) digestText(d hub.Digest, from time.Time, days []hub.FormDay) (string, string) {
	total := 0
	for _, f := range days {
		total += f.Count
	}
	loc := d.Location()
	day := from.In(loc).Format("Monday 2 January 2006")
	what := plural(total, "submission", "submissions")
	subject := fmt.Sprintf("%s on %s", what, from.In(loc).Format("Mon 2 Jan"))
	var b strings.Builder
	if d.Site != "" {
		subject = days[0].Site + "/" + days[0].Slug + ": " + subject
		fmt.Fprintf(&b, "On %s (%s) the form received %s.\n", day, loc, what)
	} else {
		subject = d.Workspace + ": " + subject
		fmt.Fprintf(&b, "On %s (%s) the forms of %s received %s.\n", day, loc, d.Workspace, what)
	}
	for _, f := range days {
		form, err := q.cfg.Forms.Lookup(f.Site, f.Slug)
		title := f.Site + "/" + f.Slug
		if err == nil {
			title = formTitle(form, f.Site, f.Slug) + " (" + f.Site + "/" + f.Slug + ")"
		}
		fmt.Fprintf(&b, "\n%s: %s\n", title, plural(f.Count, "submission", "submissions"))
		for _, s := range f.Newest {
			fmt.Fprintf(&b, "  %s  %s\n", s.CreatedAt.In(loc).Format("15:04"), digestLineOf(form, s.Payload))
		}
		if more := f.Count - len(f.Newest); more > 0 {
			fmt.Fprintf(&b, "  and %d more\n", more)
		}
		if q.cfg.Links != nil {
			fmt.Fprintf(&b, "  %s\n", q.cfg.Links.Inbox(f.Site, f.Slug))
		}
	}
	b.WriteString("\nYou get this e-mail once a day, on days something came, because you asked for it")
	if q.cfg.Links != nil {
		fmt.Fprintf(&b, " on your account page, where you change it:\n  %s\n", q.cfg.Links.Account())
	} else {
		b.WriteString(" on your account page.\n")
	}
	return subject, b.String()
}

// digestLineOf is a submission in one line: its first answers, as the
// owners' e-mail shows them, each on one line, cut to digestLine
// characters together.
func digestLineOf(form *hub.Form, payload json.RawMessage) string {
	var values map[string]any
	json.Unmarshal(payload, &values)
	if form == nil {
		form = &hub.Form{Schema: &hubclient.Schema{}}
	}
	var parts []string
	for _, a := range answerLines(form, values, nil) {
		if v := strings.Join(strings.Fields(a.Value), " "); v != "" {
			parts = append(parts, v)
		}
		if len(parts) == 3 {
			break
		}
	}
	if len(parts) == 0 {
		return "(no answers)"
	}
	line := strings.Join(parts, " · ")
	if r := []rune(line); len(r) > digestLine {
		line = string(r[:digestLine-1]) + "…"
	}
	return line
}
