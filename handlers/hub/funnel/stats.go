package funnel

import (
	"context"
	"fmt"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
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
	// CountSubmissionsByEnding counts them by the ending each reached, ""
	// for none.
	CountSubmissionsByEnding(ctx context.Context, f hub.Filter) (map[string]int, error)
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
	Steps []StepStat
	// Submissions and Spam are the submissions created in the period,
	// those not marked as spam and those marked.
	Submissions int64
	Spam        int64
	// Endings are the form's endings, in order, with how many of
	// Submissions reached each, and last the thank-you panel (an empty
	// ID) for those that reached none; nil for a form without endings.
	Endings []EndingStat
}

// EndingStat is how many submissions reached an ending.
type EndingStat struct {
	ID, Title string
	Reached   int64
}

// StepStat is how many visitors reached a step.
type StepStat struct {
	ID, Title string
	Reached   int64
}

// MaxDays is the most days Read reads at once.
const MaxDays = 366

// Read returns the funnel of form over the UTC days from from's to to's,
// excluded: both are truncated to the midnight UTC of their day, so that a
// period that ends today ends at tomorrow's midnight. to must be after
// from, at most MaxDays later.
//
// Views and Starts are the events counted. Steps are the form's steps, in
// the schema's order, the first reached by every visitor who started
// (Starts), each other by the visitors counted reaching it; counts of
// steps the schema no longer has are left out. Submissions and Spam are
// the submissions created in the period, not marked and marked as spam;
// Endings count the former by the ending the hub chose for each.
func Read(ctx context.Context, store Store, subs Submissions, form *hub.Form, from, to time.Time) (Stats, error) {
	from, to = from.UTC().Truncate(24*time.Hour), to.UTC().Truncate(24*time.Hour)
	switch {
	case !to.After(from):
		return Stats{}, fmt.Errorf("funnel of %s/%s: the period from %s to %s is empty", form.Site, form.Slug, from.Format(time.DateOnly), to.Format(time.DateOnly))
	case to.Sub(from) > MaxDays*24*time.Hour:
		return Stats{}, fmt.Errorf("funnel of %s/%s: the period from %s to %s is over %d days", form.Site, form.Slug, from.Format(time.DateOnly), to.Format(time.DateOnly), MaxDays)
	}
	counts, err := store.FunnelCounts(ctx, form.Site, form.Slug, from, to)
	if err != nil {
		return Stats{}, fmt.Errorf("funnel of %s/%s: %w", form.Site, form.Slug, err)
	}
	st := Stats{From: from, To: to}
	steps := map[string]int64{}
	for _, c := range counts {
		switch c.Event {
		case hubclient.EventView:
			st.Views += c.N
		case hubclient.EventStart:
			st.Starts += c.N
		case hubclient.EventStep:
			steps[c.Step] += c.N
		}
	}
	if form.Schema != nil {
		for i, s := range form.Schema.Steps {
			reached := steps[s.ID]
			if i == 0 {
				reached = st.Starts
			}
			st.Steps = append(st.Steps, StepStat{ID: s.ID, Title: s.Title, Reached: reached})
		}
	}
	for _, c := range []struct {
		spam hub.SpamFilter
		n    *int64
	}{{hub.NotSpam, &st.Submissions}, {hub.OnlySpam, &st.Spam}} {
		n, err := subs.CountSubmissions(ctx, hub.Filter{Site: form.Site, Slug: form.Slug, Spam: c.spam, From: from, To: to})
		if err != nil {
			return Stats{}, fmt.Errorf("funnel of %s/%s: %w", form.Site, form.Slug, err)
		}
		*c.n = int64(n)
	}
	if form.Schema != nil && len(form.Schema.Endings) > 0 {
		by, err := subs.CountSubmissionsByEnding(ctx, hub.Filter{Site: form.Site, Slug: form.Slug, Spam: hub.NotSpam, From: from, To: to})
		if err != nil {
			return Stats{}, fmt.Errorf("funnel of %s/%s: %w", form.Site, form.Slug, err)
		}
		st.Endings = endingStats(form.Schema.Endings, by)
	}
	return st, nil
}

// endingStats lists the endings with their counts in by, then the
// thank-you panel with the count of none. Submissions that reached an
// ending the form no longer has are left out, as steps it no longer has
// are.
func endingStats(endings []hubclient.Ending, by map[string]int) []EndingStat {
	out := make([]EndingStat, 0, len(endings)+1)
	for _, e := range endings {
		out = append(out, EndingStat{ID: e.ID, Title: e.Title, Reached: int64(by[e.ID])})
	}
	return append(out, EndingStat{Reached: int64(by[""])})
}

// CompletionRate is the share of views that ended in a submission, spam
// left out: Submissions / Views, 0 without views. It may exceed 1 when
// submissions come from pages that do not count their views.
func (s Stats) CompletionRate() float64 {
	if s.Views == 0 {
		return 0
	}
	return float64(s.Submissions) / float64(s.Views)
}
