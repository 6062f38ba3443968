package hub

import (
	"context"
	"time"
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

// CountTokens checks the API tokens that apps present on the events route
// (package admin's API is one).
type CountTokens interface {
	// AllowCounts returns nil when token may send the counts of site's
	// forms, else the error to answer: an *Error, 401 for a token not
	// known, 403 for one whose scope does not allow it; or one wrapping
	// ErrNotFound for a site of another workspace, or of none, answered
	// as a form that does not exist is.
	AllowCounts(ctx context.Context, token, site string) error
}
