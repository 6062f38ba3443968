package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// AutoresponsesPerDay is the most confirmation e-mails the hub sends to
// one address on one day (UTC), however many submissions carry it and
// whatever their forms and workspaces, requests to confirm an address for
// notifications included: forms must not become a way to mail strangers.
const AutoresponsesPerDay = 3

// maxAddressLen is the longest address a confirmation goes to (RFC 5321's
// limit of a path, less its angle brackets).
const maxAddressLen = 254

// pruneAutoresponsesEvery is how often one queue deletes the budgets of
// past days, in the transaction of a submission it confirms.
const pruneAutoresponsesEvery = time.Minute

// AutoresponseArgs is a job that e-mails a confirmation to the visitor who
// sent a submission, at the address in the form's autoresponder field. It
// names the submission only: the address and the values are read from it
// at each attempt, so that erasing the submission leaves nothing of them
// in the queue.
type AutoresponseArgs struct {
	SubmissionID string `json:"submissionId"`
	Site         string `json:"site"`
	Slug         string `json:"form"`
}

// Kind is the River kind of confirmation jobs.
func (AutoresponseArgs) Kind() string { return "confirmation" }

// autoresponse returns the confirmation job of s, a submission of form
// being stored in tx, or nil when it gets none: the form has no
// autoresponder, the hub no mailer, the field no valid address, or the
// address has had its AutoresponsesPerDay from the hub today. The budget
// is taken in tx, so a submission rolled back takes nothing of it.
func (q *Queue) autoresponse(ctx context.Context, tx sqldb.Tx, s hub.Submission, form *hub.Form) (*river.InsertManyParams, error) {
	ar := form.Settings.Autoresponder
	if ar == nil {
		return nil, nil
	}
	log := q.cfg.Logger.With("site", s.Site, "form", s.Slug, "submission", s.ID)
	if q.cfg.Mailer == nil {
		log.Warn("form asks for a confirmation e-mail but the hub has no SMTP server (--smtp-url): none sent")
		return nil, nil
	}
	to, ok := recipient(s, ar)
	if !ok {
		log.Info("no confirmation e-mail: the submission holds no valid address", "field", ar.EmailField)
		return nil, nil
	}
	now := q.cfg.Now()
	if err := q.pruneAutoresponses(ctx, tx, now); err != nil {
		return nil, err
	}
	ok, err := sqldb.TakeAutoresponse(ctx, tx, draftLinkBudget, confirmationBudget, to, sqldb.Day(now), AutoresponsesPerDay)
	if err != nil {
		return nil, err
	}
	if !ok {
		log.Info("no confirmation e-mail: the address has had today's", "limit", AutoresponsesPerDay)
		return nil, nil
	}
	return &river.InsertManyParams{
		Args:       AutoresponseArgs{SubmissionID: s.ID, Site: s.Site, Slug: s.Slug},
		InsertOpts: q.insertOpts(s),
	}, nil
}

// pruneAutoresponses deletes the budgets of past days, at most once every
// pruneAutoresponsesEvery per queue: the rows are few and only garbage.
func (q *Queue) pruneAutoresponses(ctx context.Context, tx sqldb.Tx, now time.Time) error {
	next, nowMS := q.nextPrune.Load(), now.UnixMilli()
	if nowMS < next || !q.nextPrune.CompareAndSwap(next, nowMS+pruneAutoresponsesEvery.Milliseconds()) {
		return nil
	}
	_, err := sqldb.PruneAutoresponses(ctx, tx, sqldb.Day(now))
	return err
}

// recipient returns the address in the autoresponder's field of s, and
// whether it is one to send to: a bare address alone, which net/mail
// parses to itself, with no display name, brackets, spaces or line breaks.
func recipient(s hub.Submission, ar *hub.Autoresponder) (string, bool) {
	var values map[string]any
	if json.Unmarshal(s.Payload, &values) != nil {
		return "", false
	}
	to, _ := values[ar.EmailField].(string)
	if len(to) > maxAddressLen || !isAddress(to) {
		return "", false
	}
	return to, true
}

type autoresponseWorker struct{ worker[AutoresponseArgs] }

// Work sends the confirmation of a submission, as the form's autoresponder
// says now, to the address the submission holds.
func (w *autoresponseWorker) Work(ctx context.Context, job *river.Job[AutoresponseArgs]) error {
	a := job.Args
	return w.q.mailAbout(ctx, job.JobRow, a.Site, a.Slug, a.SubmissionID, func(form *hub.Form, sub hub.Submission) (*gomail.Msg, error) {
		if form.Settings.Autoresponder == nil {
			return nil, river.JobCancel(errors.New("the form no longer sends confirmations"))
		}
		to, ok := recipient(sub, form.Settings.Autoresponder)
		if !ok {
			return nil, river.JobCancel(errors.New("the submission holds no valid address in the autoresponder's field"))
		}
		return w.q.confirmation(form, sub, to, job.ID)
	})
}

// confirmation builds the confirmation of sub to the address to: the
// autoresponder's subject and body in the visitor's locale, placeholders
// filled with the values as the owners' e-mail writes them, as text and
// as HTML escaped from it. Replies go to the form's first owner, and the
// Message-ID is the same on every attempt.
func (q *Queue) confirmation(form *hub.Form, sub hub.Submission, to string, jobID int64) (*gomail.Msg, error) {
	m, err := q.newMessage([]string{to}, "autoresponder address", WebhookID(sub.ID, jobID), true)
	if err != nil {
		return nil, err
	}
	if n := form.Settings.Notify; n != nil && len(n.Email) > 0 {
		if err := m.ReplyTo(n.Email[0]); err != nil {
			return nil, river.JobCancel(fmt.Errorf("notify.email: %w", err))
		}
	}
	var values map[string]any
	json.Unmarshal(sub.Payload, &values)
	fields := map[string]hubclient.Field{}
	if form.Schema != nil {
		for _, f := range form.Schema.Fields {
			fields[f.Name] = f
		}
	}
	value := func(name string) string {
		if hubclient.IsHoneypot(name) || fields[name].Type == hubclient.FieldFile {
			return ""
		}
		return formatValue(fields[name], values[name])
	}
	subject, body := form.Settings.Autoresponder.Text(sub.Locale)
	subject = hub.Fill(subject, identity, func(name string) string {
		return strings.ReplaceAll(value(name), "\n", ", ")
	})
	m.Subject(strings.Join(strings.Fields(subject), " "))
	m.SetDateWithValue(sub.CreatedAt)
	m.SetBodyString(gomail.TypeTextPlain, hub.Fill(body, identity, value))
	escape := func(s string) string { return strings.ReplaceAll(html.EscapeString(s), "\n", "<br>\n") }
	m.AddAlternativeString(gomail.TypeTextHTML, `<!DOCTYPE html><html><body><p>`+
		hub.Fill(body, escape, func(name string) string { return escape(value(name)) })+
		"</p></body></html>\n")
	return m, nil
}

func identity(s string) string { return s }
