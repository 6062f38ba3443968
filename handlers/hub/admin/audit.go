package admin

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Auditor reads the audit log, as sqldb.DB does; the services of package
// manage write it.
type Auditor interface {
	// Events returns a page of a workspace's log, newest first.
	Events(ctx context.Context, workspace, before string, limit int) ([]accounts.Event, error)
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
