package manage

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/inbox"
)

// Inbox deletes submissions with their files, as inbox.Inbox does.
type Inbox interface {
	Delete(ctx context.Context, form *hub.Form, ids []string, by string) (hub.Deleted, error)
}

// SpamMarks marks submissions as spam or not, as sqldb.DB does.
type SpamMarks interface {
	SetSpam(ctx context.Context, site, slug string, ids []string, spam bool) (int, error)
}

// Trash keeps submissions deleted from the console for hub.UndoPeriod,
// as sqldb.DB does.
type Trash interface {
	TrashSubmissions(ctx context.Context, site, slug string, ids []string, at time.Time) (hub.Deleted, error)
	UndeleteSubmissions(ctx context.Context, site, slug string, ids []string, since time.Time) (int, error)
}

// Marks marks submissions as spam and as deleted for a while.
type Marks interface {
	SpamMarks
	Trash
}

// Deliveries has deliveries attempted again, as delivery.Queue does.
type Deliveries interface {
	// Delivery returns one, or an error wrapping hub.ErrNotFound.
	Delivery(ctx context.Context, id int64) (delivery.Delivery, error)
	// Retry has one attempted again soon, whatever its outcome, but for
	// those sent once (delivery.ErrSentOnce).
	Retry(ctx context.Context, id int64) (delivery.Delivery, error)
}

// Needs of the changes to submissions. Deleting is an editor's in the
// console and needs the scope all of a token; reading them out, a
// viewer's or the scope submissions:read. Marking spam and sending a
// delivery again are the console's alone: a token would need all.
var (
	deleteSubmissions = Need{Role: accounts.Editor, Scope: accounts.ScopeAll}
	exportSubmissions = Need{Role: accounts.Viewer, Scope: accounts.ScopeSubmissionsRead}
)

// Submissions deletes, marks and exports the submissions of forms, and
// has their deliveries made again.
type Submissions struct {
	guard
	inbox      Inbox
	spam       Marks
	deliveries Deliveries
}

// NewSubmissions returns the service of the submissions in inbox, marked
// (as spam, or deleted for a while) in spam, delivered by deliveries; a hub without a delivery queue passes
// nil, and has nothing to send again.
func NewSubmissions(cfg Config, in Inbox, spam Marks, deliveries Deliveries) *Submissions {
	return &Submissions{guard: newGuard(cfg), inbox: in, spam: spam, deliveries: deliveries}
}

// Delete deletes the submissions of form with the ids, and their files;
// ids of other forms are left alone.
func (s *Submissions) Delete(ctx context.Context, a Actor, form *hub.Form, ids []string) (hub.Deleted, error) {
	return s.delete(ctx, a, form, ids, "")
}

// DeleteOne deletes the submission of form with the id, and its files,
// recorded under its id.
func (s *Submissions) DeleteOne(ctx context.Context, a Actor, form *hub.Form, id string) (hub.Deleted, error) {
	return s.delete(ctx, a, form, []string{id}, id+": ")
}

func (s *Submissions) delete(ctx context.Context, a Actor, form *hub.Form, ids []string, prefix string) (hub.Deleted, error) {
	if err := s.site(ctx, a, form.Site, deleteSubmissions); err != nil {
		return hub.Deleted{}, err
	}
	d, err := s.inbox.Delete(ctx, form, ids, a.Name)
	if err != nil {
		return d, hub.Internal("deleting submissions", err)
	}
	s.record(ctx, a, accounts.ActionSubmissionsDeleted, form.Site+"/"+form.Slug, prefix+inbox.DeletedDetail(d))
	return d, nil
}

// Trash deletes the submissions of form with the ids for hub.UndoPeriod:
// they are left out of every read, Undelete brings them back until the
// period is over, and the hub's sweep purges them with their files after
// it. It returns how many it deleted and the keys of their files, still
// kept. Ids of other forms are left alone.
func (s *Submissions) Trash(ctx context.Context, a Actor, form *hub.Form, ids []string) (hub.Deleted, error) {
	if err := s.site(ctx, a, form.Site, deleteSubmissions); err != nil {
		return hub.Deleted{}, err
	}
	d, err := s.spam.TrashSubmissions(ctx, form.Site, form.Slug, ids, s.cfg.Now())
	if err != nil {
		return hub.Deleted{}, hub.Internal("deleting submissions", err)
	}
	s.record(ctx, a, accounts.ActionSubmissionsDeleted, form.Site+"/"+form.Slug, inbox.DeletedDetail(d)+fmt.Sprintf(", may be undone for %d minutes", int(hub.UndoPeriod.Minutes())))
	return d, nil
}

// Undelete restores the submissions of form with the ids that Trash
// deleted less than hub.UndoPeriod ago, and returns how many.
func (s *Submissions) Undelete(ctx context.Context, a Actor, form *hub.Form, ids []string) (int, error) {
	if err := s.site(ctx, a, form.Site, deleteSubmissions); err != nil {
		return 0, err
	}
	n, err := s.spam.UndeleteSubmissions(ctx, form.Site, form.Slug, ids, s.cfg.Now().Add(-hub.UndoPeriod))
	if err != nil {
		return 0, hub.Internal("restoring submissions", err)
	}
	s.record(ctx, a, accounts.ActionSubmissionsRestored, form.Site+"/"+form.Slug, fmt.Sprintf("%d submissions", n))
	return n, nil
}

// MarkSpam marks the submissions of the form with the ids as spam, or as
// not spam. The audit log does not keep it: nothing is lost by it.
func (s *Submissions) MarkSpam(ctx context.Context, a Actor, site, slug string, ids []string, spam bool) error {
	if err := s.site(ctx, a, site, deleteSubmissions); err != nil {
		return err
	}
	if _, err := s.spam.SetSpam(ctx, site, slug, ids, spam); err != nil {
		return hub.Internal("marking submissions as spam", err)
	}
	return nil
}

// Export records an export of the form's submissions, in format and
// selected by query, and then has write make it. The export is the
// caller's to write, as its surface answers; it is recorded before it
// begins, since once begun it reaches whoever asked.
func (s *Submissions) Export(ctx context.Context, a Actor, site, slug, format string, query url.Values, write func() error) error {
	if err := s.site(ctx, a, site, exportSubmissions); err != nil {
		return err
	}
	s.record(ctx, a, accounts.ActionSubmissionsExport, site+"/"+slug, inbox.ExportDetail(format, query))
	return write()
}

// Retry has delivery id of the form attempted again soon. A delivery of
// another form is an error wrapping hub.ErrNotFound, as one that does
// not exist; one sent once, delivery.ErrSentOnce. The audit log does not
// keep it: the delivery's own record does.
func (s *Submissions) Retry(ctx context.Context, a Actor, site, slug string, id int64) (delivery.Delivery, error) {
	if err := s.site(ctx, a, site, deleteSubmissions); err != nil {
		return delivery.Delivery{}, err
	}
	if s.deliveries == nil {
		return delivery.Delivery{}, fmt.Errorf("delivery %d: no delivery queue: %w", id, hub.ErrNotFound)
	}
	d, err := s.deliveries.Delivery(ctx, id)
	if err == nil && (d.Site != site || d.Slug != slug) {
		err = fmt.Errorf("delivery %d of %s/%s: %w", id, site, slug, hub.ErrNotFound)
	}
	if err != nil {
		return d, err
	}
	d, err = s.deliveries.Retry(ctx, id)
	if err != nil && !errors.Is(err, delivery.ErrSentOnce) {
		return d, hub.Internal("retrying a delivery", err)
	}
	return d, err
}
