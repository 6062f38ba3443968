package manage

import (
	"context"
	"errors"
	"fmt"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// QuotaStore keeps the workspaces' quotas, as sqldb.DB does.
type QuotaStore interface {
	// SetQuota sets a workspace's quota, or returns an error wrapping
	// hub.ErrNotFound when there is no such workspace.
	SetQuota(ctx context.Context, workspace string, q accounts.Quota) error
}

// Quotas limits what workspaces take: submissions a month, bytes stored
// and e-mails a day. The operator sets them; no member of a workspace sets
// its own.
type Quotas struct {
	guard
	store QuotaStore
}

// NewQuotas returns the quotas' service on store.
func NewQuotas(cfg Config, store QuotaStore) *Quotas {
	return &Quotas{guard: newGuard(cfg), store: store}
}

// Set sets the quota of the actor's workspace to q. The error wraps
// hub.ErrNotFound when there is no such workspace.
func (s *Quotas) Set(ctx context.Context, a Actor, q accounts.Quota) error {
	if err := s.allow(a, Need{}); err != nil {
		return err
	}
	err := s.store.SetQuota(ctx, a.Workspace, q)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return err
	case err != nil:
		return hub.Internal("setting a quota", err)
	}
	s.record(ctx, a, accounts.ActionQuotaSet, a.Workspace, QuotaText(q))
	return nil
}

// QuotaText says what q limits, as the audit log and the command line
// say it.
func QuotaText(q accounts.Quota) string {
	mail := fmt.Sprintf("%d e-mails a day", q.MailLimit())
	if q.MailPerDay == 0 {
		mail += " (the default)"
	}
	if q.Unlimited() {
		return "no quota of submissions or bytes, " + mail
	}
	limit := func(n int64, what string) string {
		if n == 0 {
			return "any number of " + what
		}
		return fmt.Sprintf("%d %s", n, what)
	}
	return limit(q.SubmissionsPerMonth, "submissions a month") + ", " + limit(q.StoredBytes, "bytes stored") + ", " + mail
}
