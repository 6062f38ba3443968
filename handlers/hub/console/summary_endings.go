package console

import (
	"cmp"
	"context"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// summaryEndings is the Summary tab's card of a form's endings: how many
// of the period's submissions reached each, by title, and the default
// ending, as the overview's funnel counts them.
type summaryEndings struct {
	// Sent is how many submissions the bars count.
	Sent int64
	Bars []summaryBar
}

// endingsOf counts the endings the form's submissions from from on
// reached, spam left out; nil for a form without endings, or a console
// that keeps no funnel.
func (con *Console) endingsOf(ctx context.Context, form *hub.Form, from time.Time) (*summaryEndings, error) {
	if form.Schema == nil || len(form.Schema.Endings) == 0 || con.cfg.Funnel == nil {
		return nil, nil
	}
	by, err := con.cfg.Funnel.CountSubmissionsByEnding(ctx, hub.Filter{Site: form.Site, Slug: form.Slug, Spam: hub.NotSpam, From: from})
	if err != nil {
		return nil, hub.Internal("counting the endings reached", err)
	}
	out := &summaryEndings{}
	for _, n := range by {
		out.Sent += int64(n)
	}
	for _, e := range form.Schema.Endings {
		out.Bars = append(out.Bars, bar(cmp.Or(e.Title, e.ID), int64(by[e.ID]), out.Sent))
	}
	out.Bars = append(out.Bars, bar("Default ending (no other applied)", int64(by[""]), out.Sent))
	return out, nil
}
