package protocol

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// Limits of the events route: a batch of an app's counts.
const (
	maxEventCounts = 256
	maxEventN      = hubclient.MaxEventCount
	maxEventsBody  = 64 << 10
)

// appKey marks, in a request's context, counts sent with a token that
// countsAccess accepted.
const appKey = "hubform.events.app"

// countsAccess lets a post of counts that carries a valid token through,
// an app's counts of its visitors, and counts every other post against
// limited, the client's budget, one whose token is refused included.
func (s *Server) countsAccess(limited echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		anonymous := limited(next)
		return func(c echo.Context) error {
			auth := c.Request().Header.Get(echo.HeaderAuthorization)
			if auth == "" {
				return anonymous(c)
			}
			if err := s.allowCounts(c, auth); err != nil {
				return limited(func(echo.Context) error { return err })(c)
			}
			c.Set(appKey, true)
			return next(c)
		}
	}
}

// allowCounts checks the Authorization header auth of a post of counts.
func (s *Server) allowCounts(c echo.Context, auth string) error {
	scheme, token, ok := strings.Cut(auth, " ")
	token = strings.TrimSpace(token)
	var err error
	switch {
	case !ok || !strings.EqualFold(scheme, "Bearer") || token == "":
		err = &hub.Error{Status: http.StatusUnauthorized, Message: "send an API token as Authorization: Bearer TOKEN, or none"}
	case s.cfg.CountTokens == nil:
		err = &hub.Error{Status: http.StatusUnauthorized, Message: "this hub takes no tokens with counts: send them without one"}
	default:
		form := formOf(c)
		err = s.cfg.CountTokens.AllowCounts(c.Request().Context(), token, form.Site)
		if errors.Is(err, hub.ErrNotFound) {
			err = &hub.Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no form %s/%s", form.Site, form.Slug)}
		}
	}
	if e, ok := errors.AsType[*hub.Error](err); ok && e.Status == http.StatusUnauthorized {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="hubform"`)
	}
	return err
}

// postEvents takes counts of a form's events (PROTOCOL.md §10, "Counts"),
// as of now: the hub's day is theirs. Counts sent with a token of the
// form's workspace are an app's, aggregated from its visitors, and
// believed as sent, as an analytics beacon's are, within the route's
// limits. Without one they are a client's own: at most
// hubclient.MaxAnonymousCount of each event a post, at the client's rate,
// what one visitor could have caused.
func (s *Server) postEvents(c echo.Context) error {
	form := formOf(c)
	var req hubclient.EventsRequest
	if err := s.readJSON(c, maxEventsBody, &req); err != nil {
		return err
	}
	if len(req.Counts) == 0 || len(req.Counts) > maxEventCounts {
		return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("counts: want 1 to %d", maxEventCounts)}
	}
	for i, ec := range req.Counts {
		if msg := checkEvent(form, ec); msg != "" {
			return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("counts[%d]: %s", i, msg)}
		}
	}
	if app, _ := c.Get(appKey).(bool); !app {
		if err := checkAnonymous(req.Counts); err != nil {
			return err
		}
	}
	for _, ec := range req.Counts {
		s.cfg.Funnel.Count(form.Site, form.Slug, ec.Event, ec.Step, ec.N)
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// checkEvent returns why ec is not a count of form's events, or "".
func checkEvent(form *hub.Form, ec hubclient.EventCount) string {
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

// checkAnonymous refuses counts sent without a token that hold more of an
// event, all its counts in the post summed, than one client could have
// caused.
func checkAnonymous(counts []hubclient.EventCount) error {
	sums := map[[2]string]int64{}
	for _, ec := range counts {
		k := [2]string{ec.Event, ec.Step}
		if sums[k] += ec.N; sums[k] > hubclient.MaxAnonymousCount {
			what := ec.Event
			if ec.Step != "" {
				what += " " + ec.Step
			}
			return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(
				"counts: %s: at most %d of each event a post without a token; an app that sends its visitors' counts presents an API token of scope counts:write",
				what, hubclient.MaxAnonymousCount)}
		}
	}
	return nil
}
