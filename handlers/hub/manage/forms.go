package manage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
)

// FormStore keeps the versions of the forms in the hub's database, as
// sqldb.DB does. Errors wrap hub.ErrNotFound for a missing form or version.
type FormStore interface {
	SaveFormVersion(ctx context.Context, site, slug string, body []byte, by string, now time.Time) (int64, error)
	SaveFormDraft(ctx context.Context, site, slug string, body []byte, by string, now time.Time, revision int64) (formsource.Saved, error)
	PublishFormVersion(ctx context.Context, site, slug string, version int64, now time.Time) error
	PublishFormDraft(ctx context.Context, site, slug string, revision int64, now time.Time) (int64, error)
	FormRecord(ctx context.Context, site, slug string) (formsource.Record, error)
}

// editForms is what saving and publishing a form's version need: an
// editor in the console, a token of scope forms in the admin API.
var editForms = Need{Role: accounts.Editor, Scope: accounts.ScopeForms}

// Forms saves the versions of the forms kept in the database and makes
// them live. What a version holds (fields, translations, settings) is the
// caller's: it validates the file with formsource.Parse before saving it.
type Forms struct {
	guard
	store FormStore
}

// NewForms returns the service of the forms kept in store.
func NewForms(cfg Config, store FormStore) *Forms {
	return &Forms{guard: newGuard(cfg), store: store}
}

// Save stores body as a new version of the form, its draft, not yet live,
// and returns its number: a push of the admin API, or a form's first
// version.
func (f *Forms) Save(ctx context.Context, a Actor, site, slug string, body []byte) (int64, error) {
	if err := f.site(ctx, a, site, editForms); err != nil {
		return 0, err
	}
	n, err := f.store.SaveFormVersion(ctx, site, slug, body, savedBy(a), f.cfg.Now())
	if err != nil {
		return 0, hub.Internal("saving a form", err)
	}
	f.record(ctx, a, accounts.ActionFormSaved, site+"/"+slug, fmt.Sprintf("version %d", n))
	return n, nil
}

// SaveDraft stores body as the form's draft, if the form is still at
// revision: the newest version, overwritten while it was never published,
// else a new version. The audit log records a draft's first save alone,
// so that a form built field by field does not flood it; its publication
// is recorded too. A form saved since revision answers 409 and changes
// nothing; a missing form is an error wrapping hub.ErrNotFound.
func (f *Forms) SaveDraft(ctx context.Context, a Actor, site, slug string, body []byte, revision int64) (formsource.Saved, error) {
	if err := f.site(ctx, a, site, editForms); err != nil {
		return formsource.Saved{}, err
	}
	s, err := f.store.SaveFormDraft(ctx, site, slug, body, savedBy(a), f.cfg.Now(), revision)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return s, err
	case errors.Is(err, formsource.ErrChanged):
		return s, errChanged(err)
	case err != nil:
		return s, hub.Internal("saving a form", err)
	}
	if s.New {
		f.record(ctx, a, accounts.ActionFormSaved, site+"/"+slug, fmt.Sprintf("version %d", s.Version))
	}
	return s, nil
}

// PublishDraft makes the form's newest version live, if the form is still
// at revision, and returns its number: what the owner reviewed is what
// goes live. A form saved since answers 409 and changes nothing.
func (f *Forms) PublishDraft(ctx context.Context, a Actor, site, slug string, revision int64) (int64, error) {
	if err := f.site(ctx, a, site, editForms); err != nil {
		return 0, err
	}
	rec, err := f.store.FormRecord(ctx, site, slug)
	if err != nil {
		return 0, err
	}
	n, err := f.store.PublishFormDraft(ctx, site, slug, revision, f.cfg.Now())
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return 0, err
	case errors.Is(err, formsource.ErrChanged):
		return 0, errChanged(err)
	case err != nil:
		return 0, hub.Internal("publishing a form", err)
	}
	f.record(ctx, a, accounts.ActionFormPublished, site+"/"+slug, accounts.PublishedDetail(n, rec.LiveVersion))
	return n, nil
}

// errChanged refuses a change made from a page older than the form.
func errChanged(err error) error {
	return &hub.Error{Status: http.StatusConflict, Message: "The form was saved again since this page was loaded: nothing was changed.", Err: err}
}

// Publish makes version n of the form live: a newer one, or an earlier
// one again, which is a rollback. A missing form or version is an error
// wrapping hub.ErrNotFound.
func (f *Forms) Publish(ctx context.Context, a Actor, site, slug string, n int64) error {
	if err := f.site(ctx, a, site, editForms); err != nil {
		return err
	}
	rec, err := f.store.FormRecord(ctx, site, slug)
	if err != nil {
		return err
	}
	if err := f.store.PublishFormVersion(ctx, site, slug, n, f.cfg.Now()); err != nil {
		return err
	}
	f.record(ctx, a, accounts.ActionFormPublished, site+"/"+slug, accounts.PublishedDetail(n, rec.LiveVersion))
	return nil
}

// savedBy names the actor in a form's list of versions: a member's
// address, a token's name, or the operator.
func savedBy(a Actor) string {
	if a.Scope != "" {
		return strings.TrimPrefix(a.Name, "token ")
	}
	return a.Name
}
