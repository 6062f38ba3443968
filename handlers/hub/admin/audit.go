package admin

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

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

// audit logs what the request's token did and records it in the audit log
// of the token's workspace. The action has happened: a failure to record
// is logged as an error, and the action stands.
func (a *API) audit(c echo.Context, action, target, detail string) {
	ctx := c.Request().Context()
	t := TokenOf(c)
	e := accounts.Event{Workspace: t.Workspace, At: a.cfg.Now(), Actor: "token " + t.Name, Action: action, Target: target,
		Client: c.RealIP(), Detail: detail}
	a.cfg.Logger.InfoContext(ctx, action, slog.String("workspace", e.Workspace), slog.String("target", target),
		slog.String("detail", detail), slog.String("token", t.Name))
	if err := a.cfg.Audit.RecordEvents(ctx, e); err != nil {
		a.cfg.Logger.ErrorContext(ctx, "audit event not recorded", slog.Any("event", e), slog.Any("error", err))
	}
}

// EventList is the answer of GET /v1/admin/audit: a page of the token's
// workspace's audit log, newest first.
type EventList struct {
	OK     bool             `json:"ok"`
	Events []accounts.Event `json:"events"`
	// Next is the cursor of the next page, to send as before=Next.
	Next string `json:"next,omitempty"`
}

func (a *API) listEvents(c echo.Context) error {
	limit := DefaultPageSize
	if s := c.QueryParam("limit"); s != "" {
		var err error
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > MaxPageSize {
			return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("limit %q: want a number from 1 to %d", s, MaxPageSize)}
		}
	}
	events, err := a.cfg.Audit.Events(c.Request().Context(), TokenOf(c).Workspace, c.QueryParam("before"), limit+1)
	if err != nil {
		return hub.Internal("reading the audit log", err)
	}
	out := EventList{OK: true, Events: events}
	if out.Events == nil {
		out.Events = []accounts.Event{}
	}
	if len(events) > limit {
		out.Events = events[:limit]
		out.Next = out.Events[limit-1].ID
	}
	return c.JSON(http.StatusOK, out)
}
