package console

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/funnel"
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
	Recent      []recentRow
	Inbox       string
	// Record is the form's record when the hub's database keeps it, nil
	// for a form of the forms directory.
	Record *formsource.Record
	// Funnel is the form's funnel over the chosen period, nil when the
	// console has no Funnel.
	Funnel *funnelProps
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
		p.Recent = append(p.Recent, recentRow{ID: s.ID, Created: formatTime(s.CreatedAt, loc), Summary: inbox.Summary(s.Payload, labels), Files: len(s.Attachments)})
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
	status := http.StatusOK
	if con.cfg.Funnel != nil {
		if p.Funnel, err = con.funnelOf(ctx, form, c.QueryParam("period")); err != nil {
			return err
		}
		if p.Funnel.Error != "" {
			status = http.StatusBadRequest
		}
	}
	return con.render(c, status, overviewPage(p))
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

// FunnelStore keeps the counts of the forms' funnels and counts their
// submissions, as sqldb.DB does.
type FunnelStore interface {
	funnel.Store
	funnel.Submissions
}

// funnelPeriod is a period the overview's funnel offers: the days that
// end with today in UTC.
type funnelPeriod struct {
	Key, Label string
	Days       int
}

// funnelPeriods are the periods offered, the default defaultPeriod.
var funnelPeriods = []funnelPeriod{{"7d", "Last 7 days", 7}, {"30d", "Last 30 days", 30}, {"90d", "Last 90 days", 90}}

const defaultPeriod = "30d"

// funnelProps are what the overview's funnel shows.
type funnelProps struct {
	// Links switch to each period, the chosen one current.
	Links []periodLink
	// Error says the period asked for is none of funnelPeriods; nothing
	// else is then shown.
	Error string
	Stats funnel.Stats
	// Last is the period's last day, in UTC.
	Last time.Time
	// Stages are the bars: views, starts, each step of a form of more
	// than one, sent.
	Stages []funnelStage
	// Counted says any view, start or step was counted in the period.
	Counted bool
	// Endings are the bars of the form's endings, by title, and of the
	// thank-you panel: how many of the submissions sent reached each.
	// None for a form without endings.
	Endings []funnelStage
}

// periodLink is a link to the overview with another period.
type periodLink struct {
	Label, Href string
	Current     bool
}

// funnelStage is a bar of the funnel.
type funnelStage struct {
	Key, Label string
	N          int64
	// Width is the bar's, out of 100, of the largest stage's.
	Width int
	// Change is the change from the stage before, such as "−23%"; empty
	// for the first stage, and after a stage of none.
	Change string
}

// funnelOf returns the form's funnel over the period named by key, the
// default one when key is empty, or an Error when it names none.
func (con *Console) funnelOf(ctx context.Context, form *hub.Form, key string) (*funnelProps, error) {
	if key == "" {
		key = defaultPeriod
	}
	fp := &funnelProps{}
	var period funnelPeriod
	for _, pp := range funnelPeriods {
		fp.Links = append(fp.Links, periodLink{Label: pp.Label, Href: overviewPath(form.Site, form.Slug) + "?period=" + pp.Key + "#funnel-heading", Current: pp.Key == key})
		if pp.Key == key {
			period = pp
		}
	}
	if period.Days == 0 {
		fp.Error = "There is no such period: choose the last 7, 30 or 90 days."
		return fp, nil
	}
	// Counts are kept by day in UTC: the period is whole days there.
	now := con.cfg.Now().UTC()
	to := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	st, err := funnel.Read(ctx, con.cfg.Funnel, con.cfg.Funnel, form, to.AddDate(0, 0, -period.Days), to)
	if err != nil {
		return nil, hub.Internal("reading the funnel", err)
	}
	fp.Stats, fp.Last = st, st.To.AddDate(0, 0, -1)
	fp.Stages = append(fp.Stages, funnelStage{Key: "views", Label: "Views", N: st.Views}, funnelStage{Key: "starts", Label: "Started", N: st.Starts})
	fp.Counted = st.Views > 0 || st.Starts > 0
	for _, s := range st.Steps {
		fp.Counted = fp.Counted || s.Reached > 0
	}
	if len(st.Steps) > 1 {
		// A visitor who started is on the first step: its bar would be
		// Started's again.
		for _, s := range st.Steps[1:] {
			label := s.Title
			if label == "" {
				label = s.ID
			}
			fp.Stages = append(fp.Stages, funnelStage{Key: "step:" + s.ID, Label: label, N: s.Reached})
		}
	}
	fp.Stages = append(fp.Stages, funnelStage{Key: "sent", Label: "Sent", N: st.Submissions})
	var top int64
	for _, s := range fp.Stages {
		top = max(top, s.N)
	}
	for i := range fp.Stages {
		fp.Stages[i].Width = funnelBar(fp.Stages[i].N, top)
		if i > 0 {
			fp.Stages[i].Change = change(fp.Stages[i-1].N, fp.Stages[i].N)
		}
	}
	fp.Endings = endingStages(st.Endings)
	return fp, nil
}

// funnelBar is the width, out of 100, of a stage's bar in a funnel whose
// largest stage is top; a stage of any count shows at least a sliver.
func funnelBar(n, top int64) int {
	if n <= 0 || top <= 0 {
		return 0
	}
	return max(1, int(n*100/top))
}

// change describes the change from prev to n as a percentage of prev,
// with its sign: "−23%", "+5%", "0%". It is empty when prev is 0, of
// which no percentage is.
func change(prev, n int64) string {
	switch {
	case prev <= 0:
		return ""
	case n < prev:
		return "−" + percent(prev-n, prev)
	case n > prev:
		return "+" + percent(n-prev, prev)
	}
	return "0%"
}

// percent formats num / den as a percentage, rounded half up: whole from
// 10%, with a decimal under it, "2.5%", and near the ends, "<0.1%",
// "99.7%" or ">99.9%", so that only none is 0% and only all is 100%;
// "0%" when den is 0.
func percent(num, den int64) string {
	if num <= 0 || den <= 0 {
		return "0%"
	}
	// Rounded in integers, so that 57.5% is not 57.49999…%.
	tenths := (num*2000 + den) / (2 * den)
	switch {
	case tenths == 0:
		return "<0.1%"
	case tenths >= 100:
		whole := (num*200 + den) / (2 * den)
		if whole < 100 || num >= den {
			return strconv.FormatInt(whole, 10) + "%"
		}
		// Not quite all: 99.7%, not 100%.
		if tenths >= 1000 {
			return ">99.9%"
		}
	case tenths%10 == 0:
		return strconv.FormatInt(tenths/10, 10) + "%"
	}
	return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + "%"
}

// recentRow is one of the newest submissions, on the overview.
type recentRow struct {
	ID, Created, Summary string
	Files                int
}
