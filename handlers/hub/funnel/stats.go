package funnel

import (
	"context"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// Store keeps the counts of events: sqldb.DB.
type Store interface {
	// AddFunnelCounts adds counts to those stored, in one transaction.
	AddFunnelCounts(ctx context.Context, counts []hub.FunnelCount) error
	// FunnelCounts returns the counts of the form of site and slug of the
	// days from from, included, to to, excluded, summed by day, event and
	// step.
	FunnelCounts(ctx context.Context, site, slug string, from, to time.Time) ([]hub.FunnelCount, error)
}

// Submissions counts a form's submissions: sqldb.DB.
type Submissions interface {
	CountSubmissions(ctx context.Context, f hub.Filter) (int, error)
}

// Stats is a form's funnel over a period.
type Stats struct {
	// From and To are the period's first day and the day after its last,
	// at midnight UTC.
	From, To time.Time
	Views    int64
	Starts   int64
	// Steps are the form's steps, in order, with how many visitors reached
	// each; a visitor who started is on the first.
	Steps       []StepStat
	Submissions int64
	Spam        int64
}

// StepStat is how many visitors reached a step.
type StepStat struct {
	ID, Title string
	Reached   int64
}
