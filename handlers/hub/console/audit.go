package console

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Auditor keeps the audit log, as sqldb.DB does.
type Auditor interface {
	RecordEvents(ctx context.Context, events ...accounts.Event) error
	// Events returns a page of a workspace's log, newest first.
	Events(ctx context.Context, workspace, before string, limit int) ([]accounts.Event, error)
}

// AuditPageSize is how many events the audit page lists.
const AuditPageSize = 100

// record appends events to the audit log. The action they record has
// happened: a failure to record is logged as an error, and the action
// stands.
func (con *Console) record(ctx context.Context, events ...accounts.Event) {
	if err := con.cfg.Audit.RecordEvents(ctx, events...); err != nil {
		con.cfg.Logger.ErrorContext(ctx, "audit events not recorded", slog.Any("events", events), slog.Any("error", err))
	}
}

// auditUser records what the user of email did as themselves (signed in,
// failed to, changed their password) in the log of each of their
// workspaces, or in the hub's own when they have none (or no user has the
// address).
func (con *Console) auditUser(c echo.Context, email, action string) {
	ctx := c.Request().Context()
	e := accounts.Event{At: con.cfg.Now(), Actor: email, Action: action, Target: email, Client: c.RealIP()}
	ms, err := con.cfg.Workspaces.Memberships(ctx, email)
	if err != nil {
		con.cfg.Logger.ErrorContext(ctx, "audit: the user's workspaces not found", slog.Any("error", err))
	}
	events := []accounts.Event{e}
	if len(ms) > 0 {
		events = events[:0]
		for _, m := range ms {
			e.Workspace = m.Workspace
			events = append(events, e)
		}
	}
	con.record(ctx, events...)
}

// auditPage lists the current workspace's audit log, newest first, a page
// at a time.
func (con *Console) auditPage(c echo.Context) error {
	m := memberOf(c)
	before := c.QueryParam("before")
	events, err := con.cfg.Audit.Events(c.Request().Context(), m.Workspace, before, AuditPageSize+1)
	if err != nil {
		return hub.Internal("reading the audit log", err)
	}
	p := auditProps{Workspace: m.Workspace, Events: events}
	if len(events) > AuditPageSize {
		p.Events = events[:AuditPageSize]
		p.Next = auditPath + "?before=" + p.Events[AuditPageSize-1].ID
	}
	if before != "" {
		p.First = auditPath
	}
	return con.render(c, http.StatusOK, auditPageView(p))
}

// auditPath is the audit page.
const auditPath = Path + "/audit"

// auditProps are what the audit page shows.
type auditProps struct {
	Workspace   string
	Events      []accounts.Event
	Next, First string
}
