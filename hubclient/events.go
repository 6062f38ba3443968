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
// *HubError with that status.
func (c *Client) SendEvents(ctx context.Context, site, slug string, counts []EventCount) error {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return err
	}
	var res struct {
		OK bool `json:"ok"`
	}
	if err := c.do(ctx, http.MethodPost, base+"/events", EventsRequest{Counts: counts}, maxAnswerBytes, &res); err != nil {
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
