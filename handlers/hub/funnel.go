package hub

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// FunnelCount is N events of a form on a day: views, starts and steps
// reached (hubclient.EventView and the others), which with the form's
// submissions make its funnel.
type FunnelCount struct {
	Site, Slug string
	// Day is a date in UTC, at its midnight.
	Day   time.Time
	Event string
	// Step is the step reached, for hubclient.EventStep; empty otherwise.
	Step string
	N    int64
}

// FunnelCounter counts a form's events, in memory, and stores them in
// batches (package funnel).
type FunnelCounter interface {
	Count(site, slug, event, step string, n int64)
}

// Limits of the events route: a batch of an app's counts.
const (
	maxEventCounts = 256
	maxEventN      = 100_000
	maxEventsBody  = 64 << 10
)

// postEvents takes counts of a form's events from an app that serves the
// form (PROTOCOL.md §10, "Counts"), as of now: the hub's day is theirs.
// Counts are believed as sent, as an analytics beacon's are, within the
// route's limits and rate.
func (s *Server) postEvents(c echo.Context) error {
	form := formOf(c)
	var req hubclient.EventsRequest
	if err := s.readJSON(c, maxEventsBody, &req); err != nil {
		return err
	}
	if len(req.Counts) == 0 || len(req.Counts) > maxEventCounts {
		return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("counts: want 1 to %d", maxEventCounts)}
	}
	for i, ec := range req.Counts {
		if msg := checkEvent(form, ec); msg != "" {
			return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("counts[%d]: %s", i, msg)}
		}
	}
	for _, ec := range req.Counts {
		s.cfg.Funnel.Count(form.Site, form.Slug, ec.Event, ec.Step, ec.N)
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// checkEvent returns why ec is not a count of form's events, or "".
func checkEvent(form *Form, ec hubclient.EventCount) string {
	switch {
	case ec.N < 1 || ec.N > maxEventN:
		return fmt.Sprintf("n: want 1 to %d", maxEventN)
	case ec.Event == hubclient.EventStep:
		if form.Schema.Step(ec.Step) == nil {
			return fmt.Sprintf("step %q: not a step of this form", ec.Step)
		}
	case ec.Event == hubclient.EventView || ec.Event == hubclient.EventStart:
		if ec.Step != "" {
			return "step: only for event step"
		}
	default:
		return fmt.Sprintf("event %q: want view, start or step", ec.Event)
	}
	return ""
}
