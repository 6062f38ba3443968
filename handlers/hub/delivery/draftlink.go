package delivery

import (
	"context"
	"errors"
	"fmt"
	"html"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// DraftLinksPerDay is the most e-mails with a draft's link the hub sends
// to one address on one day (UTC), whatever the form: saving a draft must
// not become a way to mail strangers.
const DraftLinksPerDay = 3

// draftLinkBudget is the site and form the budgets of draft links are
// counted under, in the confirmations' table: no form has an empty name,
// and one table is pruned for both.
const draftLinkBudget = ""

// Drafts reads the drafts whose links the queue mails, and gives them the
// tokens the links carry.
type Drafts interface {
	DraftByID(ctx context.Context, id string) (hub.Draft, error)
	AddDraftToken(ctx context.Context, id, tokenHash string) error
}

// DraftLinkArgs is a job that e-mails the visitor who saved a draft a link
// to it. It names the draft only: the address is read from it at each
// attempt, and the token the link carries is made then, so that the queue
// never holds one.
type DraftLinkArgs struct {
	DraftID string `json:"draftId"`
}

// Kind is the River kind of draft links.
func (DraftLinkArgs) Kind() string { return "draft_link" }

// DraftHook returns the hook that inserts the e-mail of a draft's link in
// the transaction that saves the draft, within DraftLinksPerDay of its
// address: it reports false, and the draft is saved all the same, when
// the address has had them, or the hub sends no e-mail.
func (q *Queue) DraftHook() sqldb.DraftHook {
	return func(ctx context.Context, tx sqldb.Tx, d hub.Draft) (bool, error) {
		log := q.cfg.Logger.With("site", d.Site, "form", d.Slug, "draft", d.ID)
		if q.cfg.Mailer == nil || q.cfg.Drafts == nil {
			log.Warn("a visitor asked for a draft's link but the hub has no SMTP server (--smtp-url): none sent")
			return false, nil
		}
		now := q.cfg.Now()
		if err := q.pruneAutoresponses(ctx, tx, now); err != nil {
			return false, err
		}
		ok, err := sqldb.TakeAutoresponse(ctx, tx, draftLinkBudget, draftLinkBudget, d.Email, sqldb.Day(now), DraftLinksPerDay)
		if err != nil {
			return false, err
		}
		if !ok {
			log.Info("no draft link e-mailed: the address has had today's", "limit", DraftLinksPerDay)
			return false, nil
		}
		params := []river.InsertManyParams{{
			Args:       DraftLinkArgs{DraftID: d.ID},
			InsertOpts: &river.InsertOpts{Queue: QueueName, MaxAttempts: q.schedule.maxAttempts()},
		}}
		if err := q.insert(ctx, tx, params); err != nil {
			return false, fmt.Errorf("delivery: inserting a draft's link: %w", err)
		}
		return true, nil
	}
}

type draftLinkWorker struct{ worker[DraftLinkArgs] }

// Work mails the link of a draft that still lives, with a token made for
// this attempt.
func (w *draftLinkWorker) Work(ctx context.Context, job *river.Job[DraftLinkArgs]) error {
	q := w.q
	d, err := q.cfg.Drafts.DraftByID(ctx, job.Args.DraftID)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return river.JobCancel(fmt.Errorf("draft %s %w", job.Args.DraftID, errGone))
	case err != nil:
		return err
	case !q.cfg.Now().Before(d.ExpiresAt):
		return river.JobCancel(fmt.Errorf("draft %s expired", d.ID))
	case d.Email == "" || d.ResumeURL == "":
		return river.JobCancel(fmt.Errorf("draft %s has no address or page to link", d.ID))
	}
	log := q.cfg.Logger.With("job", job.ID, "draft", d.ID, "site", d.Site, "form", d.Slug, "attempt", job.Attempt)
	form, err := q.cfg.Forms.Lookup(d.Site, d.Slug)
	if errors.Is(err, hub.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("form %s/%s %w", d.Site, d.Slug, errGone))
	} else if err != nil {
		return err
	}
	token := hub.NewDraftToken()
	link, err := hubclient.ResumeLink(d.ResumeURL, token)
	if err != nil {
		return river.JobCancel(fmt.Errorf("draft %s: resume URL: %w", d.ID, err))
	}
	if err := q.cfg.Drafts.AddDraftToken(ctx, d.ID, hub.DraftHash(token)); errors.Is(err, hub.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("draft %s %w", d.ID, errGone))
	} else if err != nil {
		return err
	}
	m, err := q.draftLink(form, d, link, job.ID)
	if err != nil {
		return err
	}
	if err := q.takeMail(ctx, log, job.Attempt, d.Site, 1); err != nil {
		return err
	}
	return q.send(ctx, log, job.JobRow, m)
}

// draftLink builds the e-mail of d's link, as text and as HTML.
func (q *Queue) draftLink(form *hub.Form, d hub.Draft, link string, jobID int64) (*gomail.Msg, error) {
	m, err := q.newMessage([]string{d.Email}, "draft's address", fmt.Sprintf("draft-%s-%d", d.ID, jobID), true)
	if err != nil {
		return nil, err
	}
	title := form.Schema.Title
	if t, ok := form.Schema.I18n.Translations[d.Locale]; ok && t.Title != "" {
		title = t.Title
	}
	if title == "" {
		title = "your form"
	}
	until := d.ExpiresAt.UTC().Format("2 January 2006")
	m.Subject("Continue " + title)
	m.SetBodyString(gomail.TypeTextPlain, fmt.Sprintf("You saved %s to finish later. Open this link to go on where you left off, on any device:\n\n%s\n\n"+
		"The link works until %s. Anyone who has it can read what you entered: keep it to yourself. "+
		"If you did not ask for it, ignore this e-mail.\n", title, link, until))
	m.AddAlternativeString(gomail.TypeTextHTML, fmt.Sprintf(`<!DOCTYPE html><html><body><p>You saved %s to finish later. `+
		`Open this link to go on where you left off, on any device:</p><p><a href="%s">Continue %s</a></p>`+
		`<p>The link works until %s. Anyone who has it can read what you entered: keep it to yourself. `+
		`If you did not ask for it, ignore this e-mail.</p></body></html>`+"\n",
		html.EscapeString(title), html.EscapeString(link), html.EscapeString(title), until))
	return m, nil
}
