package delivery

import (
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"mime"
	"strings"
	"time"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// RecipientLinkLifetime is how long the link that asks an address to
// confirm it takes a workspace's notifications works. The hub asks an
// address once per workspace: a link that expired is not sent again.
const RecipientLinkLifetime = 7 * 24 * time.Hour

// confirmationBudget is the form the budgets of the e-mails to visitors
// are counted under, with the site draftLinkBudget: confirmations and
// requests to confirm an address share one per address across the hub,
// whatever the form or workspace.
const confirmationBudget = "confirmation"

// Recipients is what the queue needs of the hub's database to mail only
// those who agreed to it, within each workspace's quota, as sqldb.DB
// keeps them.
type Recipients interface {
	// SiteQuota returns the workspace that owns site and its quota, or an
	// error wrapping hub.ErrNotFound when none does.
	SiteQuota(ctx context.Context, site string) (string, accounts.Quota, error)
	MailRecipient(ctx context.Context, workspace, address string) (sqldb.MailRecipient, error)
	AskMailRecipient(ctx context.Context, workspace, address string, now time.Time) (bool, error)
	SetMailRecipientToken(ctx context.Context, workspace, address, tokenHash string, expires time.Time) error
	TakeMail(ctx context.Context, workspace string, day, n, limit int64) (bool, error)
	TakeMailBudget(ctx context.Context, site, slug, address string, day int64, limit int) (bool, error)
}

// errMailQuota means a workspace has sent its e-mails of the day.
var errMailQuota = errors.New("the workspace has sent its e-mails of the day (its mail quota, hubform workspaces set-quota --mail-per-day)")

// takeMail counts n e-mails about to be sent for site's workspace, and
// returns an error river.JobCancel wraps when they would take it over its
// quota of the day. A site no workspace owns counts under the empty name,
// with the default quota. Only a job's first attempt counts: a retry
// sends what was counted.
func (q *Queue) takeMail(ctx context.Context, log *slog.Logger, attempt int, site string, n int) error {
	if q.cfg.Recipients == nil || attempt > 1 {
		return nil
	}
	ws, quota, err := q.cfg.Recipients.SiteQuota(ctx, site)
	if err != nil && !errors.Is(err, hub.ErrNotFound) {
		return err
	}
	ok, err := q.cfg.Recipients.TakeMail(ctx, ws, sqldb.Day(q.cfg.Now()), int64(n), quota.MailLimit())
	if err != nil {
		return err
	}
	if !ok {
		log.Warn("e-mail not sent: the workspace's mail quota of the day is reached", "workspace", ws, "limit", quota.MailLimit())
		return river.JobCancel(errMailQuota)
	}
	return nil
}

// notifiable returns the addresses of list that take the notifications of
// site's workspace now: its members', and those that confirmed a link the
// hub mailed them for it. Each other address is asked, once per workspace
// and address, with a job of its own; waiting is how many were left out.
func (q *Queue) notifiable(ctx context.Context, log *slog.Logger, site, slug string, list []string) (to []string, waiting int, err error) {
	if q.cfg.Recipients == nil {
		return nil, len(list), nil
	}
	ws, _, err := q.cfg.Recipients.SiteQuota(ctx, site)
	if errors.Is(err, hub.ErrNotFound) {
		return nil, len(list), nil // no workspace: no member, no one to agree for
	} else if err != nil {
		return nil, 0, err
	}
	seen := map[string]bool{}
	for _, a := range list {
		if seen[strings.ToLower(a)] {
			continue
		}
		seen[strings.ToLower(a)] = true
		r, err := q.cfg.Recipients.MailRecipient(ctx, ws, a)
		if err != nil {
			return nil, 0, err
		}
		if r.Member || r.Confirmed {
			to = append(to, a)
			continue
		}
		waiting++
		if r.Asked || !isAddress(a) || len(a) > maxAddressLen {
			continue
		}
		asked, err := q.cfg.Recipients.AskMailRecipient(ctx, ws, a, q.cfg.Now())
		if err != nil {
			return nil, 0, err
		}
		if !asked {
			continue // another job asked it first
		}
		args := ConfirmRecipientArgs{Workspace: ws, Site: site, Slug: slug, Address: a}
		opts := &river.InsertOpts{Queue: QueueName, MaxAttempts: q.schedule.maxAttempts(), Tags: []string{FormTag(site, slug)}}
		if _, err := q.river.Insert(ctx, args, opts); err != nil {
			return nil, 0, fmt.Errorf("delivery: asking an address to confirm: %w", err)
		}
	}
	if waiting > 0 {
		log.Info("notification not sent to addresses that are no member's and have not confirmed", "workspace", ws, "waiting", waiting)
	}
	return to, waiting, nil
}

// ConfirmRecipientArgs is a job that asks an address a form lists in
// notify.email, and that is no member's of the form's workspace, to
// confirm it takes the workspace's notifications. The message is the
// hub's own text alone: nothing an owner wrote, nothing of a submission.
type ConfirmRecipientArgs struct {
	Workspace string `json:"workspace"`
	Site      string `json:"site"`
	Slug      string `json:"form"`
	Address   string `json:"address"`
}

// Kind is the River kind of requests to confirm an address.
func (ConfirmRecipientArgs) Kind() string { return "recipient_confirmation" }

type confirmRecipientWorker struct{ worker[ConfirmRecipientArgs] }

// Work mails the request with a link made for this attempt, within the
// address's budget across the hub and the workspace's quota.
func (w *confirmRecipientWorker) Work(ctx context.Context, job *river.Job[ConfirmRecipientArgs]) error {
	q, a := w.q, job.Args
	log := q.cfg.Logger.With("job", job.ID, "workspace", a.Workspace, "site", a.Site, "form", a.Slug, "attempt", job.Attempt)
	if q.cfg.Recipients == nil || q.cfg.Mailer == nil || q.cfg.ConfirmURL == "" {
		return river.JobCancel(errors.New("the hub has no page to confirm an address at"))
	}
	now := q.cfg.Now()
	if job.Attempt == 1 {
		ok, err := q.cfg.Recipients.TakeMailBudget(ctx, draftLinkBudget, confirmationBudget, a.Address, sqldb.Day(now), AutoresponsesPerDay)
		if err != nil {
			return err
		}
		if !ok {
			log.Info("no request to confirm an address: it has had today's e-mails", "limit", AutoresponsesPerDay)
			return river.JobCancel(errors.New("the address has had today's e-mails from the hub"))
		}
	}
	if err := q.takeMail(ctx, log, job.Attempt, a.Site, 1); err != nil {
		return err
	}
	token := accounts.NewLinkToken()
	err := q.cfg.Recipients.SetMailRecipientToken(ctx, a.Workspace, a.Address, accounts.HashToken(token), now.Add(RecipientLinkLifetime))
	if errors.Is(err, hub.ErrNotFound) {
		return river.JobCancel(errors.New("the address has confirmed already"))
	} else if err != nil {
		return err
	}
	m, err := q.recipientRequest(a.Address, q.cfg.ConfirmURL+"/"+token, now.Add(RecipientLinkLifetime), job.ID)
	if err != nil {
		return err
	}
	return q.send(ctx, log, job.JobRow, m)
}

// recipientRequest builds the request to confirm address: the hub's fixed
// text and link, as text and as HTML.
func (q *Queue) recipientRequest(address, link string, until time.Time, jobID int64) (*gomail.Msg, error) {
	m, err := q.newMessage([]string{address}, "notify.email", fmt.Sprintf("recipient-%d", jobID), true)
	if err != nil {
		return nil, err
	}
	day := until.UTC().Format("2 January 2006")
	m.Subject("Do you want the submissions of a form by e-mail?")
	const text = "A form on this forms hub lists this address to receive its submissions by e-mail. " +
		"Nothing is sent to it unless you agree. To agree, open this link and confirm:"
	const ignore = "If you do not know why, ignore this e-mail: you will not be asked again, and get nothing more."
	m.SetBodyString(gomail.TypeTextPlain, fmt.Sprintf("%s\n\n%s\n\nThe link works until %s. %s\n", text, link, day, ignore))
	m.AddAlternativeString(gomail.TypeTextHTML, fmt.Sprintf(`<!DOCTYPE html><html><body><p>%s</p><p><a href="%s">Confirm</a></p><p>The link works until %s. %s</p></body></html>`+"\n",
		html.EscapeString(text), html.EscapeString(link), day, html.EscapeString(ignore)))
	return m, nil
}

// safeTypes are the content types files are attached with as their
// uploader claimed; any other is sent as application/octet-stream, so
// that no mail client renders an uploaded page or script as the hub's.
var safeTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"application/pdf": true, "text/plain": true, "text/csv": true,
	"application/msword": true, "application/vnd.ms-excel": true,
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": true,
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":       true,
	"application/vnd.oasis.opendocument.text":                                 true,
	"application/vnd.oasis.opendocument.spreadsheet":                          true,
}

// attachmentType returns the content type a file claimed to be is
// attached with: its media type when on safeTypes, without parameters,
// else application/octet-stream.
func attachmentType(claimed string) string {
	mt, _, err := mime.ParseMediaType(claimed)
	if err == nil && safeTypes[mt] {
		return mt
	}
	return "application/octet-stream"
}
