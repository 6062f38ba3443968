package console

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
)

// overviewPath is the first tab of a form: its figures and its newest
// submissions.
func overviewPath(site, slug string) string { return formURL(site, slug) + "/overview" }

// chartDays is how many days the overview's chart shows.
const chartDays = 30

// dayCount is the number of submissions of one day.
type dayCount struct {
	Day time.Time
	N   int
}

// overviewProps are what a form's overview shows.
type overviewProps struct {
	Site, Slug, Title string
	// Days are the last chartDays days in the user's time zone, oldest
	// first, today last; Week is the sum of the last seven.
	Days        []dayCount
	Today, Week int
	Month       int
	Recent      []inboxRow
	Inbox       string
	// Record is the form's record when the hub's database keeps it, nil
	// for a form of the forms directory.
	Record *formsource.Record
}

func (con *Console) overview(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	loc := con.location(ctx)
	p := overviewProps{Site: form.Site, Slug: form.Slug, Title: inbox.Title(form), Inbox: inboxPath(form.Site, form.Slug)}
	p.Days = lastDays(con.cfg.Now(), loc, chartDays)
	f := hub.Filter{Site: form.Site, Slug: form.Slug, Spam: hub.NotSpam, From: p.Days[0].Day}
	counts, err := con.cfg.Inbox.Store.CountSubmissionsBy(ctx, f, 15*time.Minute)
	if err != nil {
		return hub.Internal("counting submissions", err)
	}
	addCounts(p.Days, counts)
	for i, d := range p.Days {
		p.Month += d.N
		if i >= len(p.Days)-7 {
			p.Week += d.N
		}
	}
	p.Today = p.Days[len(p.Days)-1].N
	labels := inbox.Labels(form.Schema)
	f.From, f.Newest, f.Limit = time.Time{}, true, 5
	err = con.cfg.Inbox.Store.ListSubmissions(ctx, f, func(s hub.Submission) error {
		p.Recent = append(p.Recent, inboxRow{ID: s.ID, Created: formatTime(s.CreatedAt, loc), Summary: inbox.Summary(s.Payload, labels), Files: len(s.Attachments)})
		return nil
	})
	if err != nil {
		return hub.Internal("listing submissions", err)
	}
	if con.cfg.Store != nil {
		if rec, err := con.cfg.Store.FormRecord(ctx, form.Site, form.Slug); err == nil {
			p.Record = &rec
		}
	}
	return con.render(c, http.StatusOK, overviewPage(p))
}

// lastDays returns the n days that end with today in loc, each at its
// midnight there, oldest first.
func lastDays(now time.Time, loc *time.Location, n int) []dayCount {
	now = now.In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	days := make([]dayCount, n)
	for i := range days {
		days[i].Day = today.AddDate(0, 0, i-n+1)
	}
	return days
}

// addCounts adds each count to the day it falls in; counts before the
// first day or after the last are not shown.
func addCounts(days []dayCount, counts []hub.TimeCount) {
	for _, tc := range counts {
		for i := len(days) - 1; i >= 0; i-- {
			if !tc.Start.Before(days[i].Day) {
				if i < len(days)-1 || tc.Start.Before(days[i].Day.AddDate(0, 0, 1)) {
					days[i].N += tc.N
				}
				break
			}
		}
	}
}
