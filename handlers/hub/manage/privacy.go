package manage

import (
	"context"
	"io"
	"net/http"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/privacy"
)

// People finds, exports and erases one person's data, as privacy.People
// does.
type People interface {
	Export(ctx context.Context, workspace, email string, w io.Writer) error
	ServeExport(ctx context.Context, w http.ResponseWriter, workspace, email string)
	Erase(ctx context.Context, workspace, email string) (privacy.Erased, error)
}

// answerPeople is what a person's data needs, across the workspace's
// forms: an admin, or a token of scope all.
var answerPeople = Need{Role: accounts.Admin, Scope: accounts.ScopeAll}

// Privacy answers the requests of a person about their data in the
// actor's workspace. The audit log names the person by their masked
// address (privacy.Mask) alone: it must not keep what they asked to have
// forgotten.
type Privacy struct {
	guard
	people People
}

// NewPrivacy returns the service of the data in people.
func NewPrivacy(cfg Config, people People) *Privacy {
	return &Privacy{guard: newGuard(cfg), people: people}
}

// Export writes every submission and draft of the actor's workspace that
// holds the address email, as privacy.People.Export does, and records the
// export once written whole.
func (p *Privacy) Export(ctx context.Context, a Actor, email string, w io.Writer) error {
	if err := p.allow(a, answerPeople); err != nil {
		return err
	}
	if err := p.people.Export(ctx, a.Workspace, email, w); err != nil {
		return err
	}
	p.record(ctx, a, accounts.ActionSubmissionsExport, privacy.Mask(email), privacy.ExportDetail)
	return nil
}

// ServeExport answers a request with Export's document, as
// privacy.People.ServeExport does, recorded before it begins: once begun
// it reaches whoever asked. An error is the refusal, before anything was
// written.
func (p *Privacy) ServeExport(ctx context.Context, a Actor, email string, w http.ResponseWriter) error {
	if err := p.allow(a, answerPeople); err != nil {
		return err
	}
	p.record(ctx, a, accounts.ActionSubmissionsExport, privacy.Mask(email), privacy.ExportDetail)
	p.people.ServeExport(ctx, w, a.Workspace, email)
	return nil
}

// Erase deletes every submission and draft of the actor's workspace that
// holds the address email, as privacy.People.Erase does, and records what
// it deleted: on a failure, what was erased before it is returned with the
// error, and recorded when it is anything.
func (p *Privacy) Erase(ctx context.Context, a Actor, email string) (privacy.Erased, error) {
	if err := p.allow(a, answerPeople); err != nil {
		return privacy.Erased{}, err
	}
	e, err := p.people.Erase(ctx, a.Workspace, email)
	if e.Submissions > 0 || e.Drafts > 0 || err == nil {
		p.record(ctx, a, accounts.ActionSubmissionsDeleted, privacy.Mask(email), e.Detail())
	}
	if err != nil {
		return e, hub.Internal("erasing a person's data", err)
	}
	return e, nil
}
