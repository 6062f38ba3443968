package hubclient

import (
	"context"
	"errors"
	"net/http"
)

// Funnel events an app counts for a form and sends its hub in batches
// (PROTOCOL.md §10, "Counts"): counts only, nothing of the visitor.
const (
	// EventView is the form rendered to a visitor.
	EventView = "view"
	// EventStart is a visitor's first change, or first step posted.
	EventStart = "start"
	// EventStep is a step reached, named by EventCount.Step.
	EventStep = "step"
)

// MaxAnonymousCount is the most of each event (views, starts, each step)
// that a post of counts without a token may carry on this project's hub:
// what one visitor could have caused between two posts. An app that
// aggregates its visitors' counts presents a token of scope counts:write
// to send more (SendEventsWithToken); without one it sends batches no
// larger than this.
const MaxAnonymousCount = 10

// MaxEventCount is the most of one event a post of counts may carry in one
// count, with a token.
const MaxEventCount = 100_000

// EventCount is N events of one kind, of a step for EventStep.
type EventCount struct {
	Event string `json:"event"`
	Step  string `json:"step,omitempty"`
	N     int64  `json:"n"`
}

// EventsRequest is the body of the events route.
type EventsRequest struct {
	Counts []EventCount `json:"counts"`
}

// SendEvents sends counts of a form's events with POST {base}/events, an
// extension of the protocol: a hub that does not count answers 404, a
// *HubError with that status. Sent without a token, they are a client's
// own: at most MaxAnonymousCount of each event, and rate-limited as
// submissions are.
func (c *Client) SendEvents(ctx context.Context, site, slug string, counts []EventCount) error {
	return c.SendEventsWithToken(ctx, site, slug, "", counts)
}

// SendEventsWithToken is SendEvents presenting token, an API token of
// scope counts:write of the form's workspace, as "Authorization: Bearer":
// the hub then takes counts an app aggregated from many visitors. It
// answers 401 for a token it does not know, 403 for one of another scope,
// and 404 for a form of another workspace. An empty token sends none.
func (c *Client) SendEventsWithToken(ctx context.Context, site, slug, token string, counts []EventCount) error {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return err
	}
	var h http.Header
	if token != "" {
		h = http.Header{"Authorization": {"Bearer " + token}}
	}
	var res struct {
		OK bool `json:"ok"`
	}
	if _, err := c.exchange(ctx, http.MethodPost, base+"/events", h, EventsRequest{Counts: counts}, maxAnswerBytes, &res); err != nil {
		return err
	}
	if !res.OK {
		return errors.New(`events: answer says "ok": false`)
	}
	return nil
}

// NotCounting reports whether err, from SendEvents, says the hub counts no
// events of the form: it answered 404, as a hub without the extension, or
// one that does not know the form, does.
func NotCounting(err error) bool {
	var hubErr *HubError
	return errors.As(err, &hubErr) && hubErr.StatusCode == http.StatusNotFound
}
