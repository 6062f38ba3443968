package admin

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/funnel"
)

// FunnelStore keeps the counts of the forms' funnels and counts their
// submissions, as sqldb.DB does.
type FunnelStore interface {
	funnel.Store
	funnel.Submissions
}

// Periods of GET …/stats: the default, and the longest one asked.
const (
	DefaultStatsDays = 30
	MaxStatsDays     = funnel.MaxDays
)

// registerStats adds the route of a form's funnel; without a Funnel it
// answers 404, as a hub that counts nothing does to the events route.
func (a *API) registerStats(g *echo.Group) {
	g.GET("/forms/:site/:slug/stats", a.formStats)
}

// FormStats is the answer of GET …/stats: a form's funnel over the days
// from From to To, both included, in UTC, where the counts are kept by
// day.
type FormStats struct {
	OK bool `json:"ok"`
	// From and To are dates, 2026-11-27.
	From   string      `json:"from"`
	To     string      `json:"to"`
	Views  int64       `json:"views"`
	Starts int64       `json:"starts"`
	Steps  []StepStats `json:"steps"`
	// Submissions are those not marked as spam; Spam those marked.
	Submissions int64 `json:"submissions"`
	Spam        int64 `json:"spam"`
	// CompletionRate is Submissions / Views, 0 without views.
	CompletionRate float64 `json:"completionRate"`
	// Endings count Submissions by the ending each reached, in the form's
	// order, the thank-you panel (id "") last; absent for a form without
	// endings.
	Endings []EndingStats `json:"endings,omitempty"`
}

// EndingStats is how many submissions reached an ending of the form.
type EndingStats struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Reached int64  `json:"reached"`
}

// StepStats is how many visitors reached a step of the form.
type StepStats struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Reached int64  `json:"reached"`
}

// formStats answers the form's funnel over from and to (dates, both
// included, in UTC): by default the DefaultStatsDays days that end today.
func (a *API) formStats(c echo.Context) error {
	form, err := a.form(c)
	if err != nil {
		return err
	}
	if a.cfg.Funnel == nil {
		return &hub.Error{Status: http.StatusNotFound, Message: "this hub counts no funnel: it was started without one"}
	}
	from, to, err := statsPeriod(a.cfg.Now(), c.QueryParam("from"), c.QueryParam("to"))
	if err != nil {
		return err
	}
	st, err := funnel.Read(c.Request().Context(), a.cfg.Funnel, a.cfg.Funnel, form, from, to.AddDate(0, 0, 1))
	if err != nil {
		return hub.Internal("reading the funnel", err)
	}
	out := FormStats{OK: true, From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Views: st.Views, Starts: st.Starts,
		Steps: []StepStats{}, Submissions: st.Submissions, Spam: st.Spam, CompletionRate: st.CompletionRate()}
	for _, s := range st.Steps {
		out.Steps = append(out.Steps, StepStats{ID: s.ID, Title: s.Title, Reached: s.Reached})
	}
	for _, e := range st.Endings {
		out.Endings = append(out.Endings, EndingStats{ID: e.ID, Title: e.Title, Reached: e.Reached})
	}
	return c.JSON(http.StatusOK, out)
}

// statsPeriod reads the dates from and to, both included, at their
// midnight in UTC; an empty to is today's date at now, an empty from the
// DefaultStatsDays days that end with to. Either not a date, from after
// to, or more than MaxStatsDays days is answered 400.
func statsPeriod(now time.Time, fromParam, toParam string) (from, to time.Time, err error) {
	now = now.UTC()
	to = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if toParam != "" {
		if to, err = time.Parse(time.DateOnly, toParam); err != nil {
			return from, to, &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("to %q: want a date such as 2026-11-27", toParam)}
		}
	}
	from = to.AddDate(0, 0, 1-DefaultStatsDays)
	if fromParam != "" {
		if from, err = time.Parse(time.DateOnly, fromParam); err != nil {
			return from, to, &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("from %q: want a date such as 2026-10-29", fromParam)}
		}
	}
	switch {
	case from.After(to):
		return from, to, &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("from %s is after to %s", from.Format(time.DateOnly), to.Format(time.DateOnly))}
	case to.Sub(from) >= MaxStatsDays*24*time.Hour:
		return from, to, &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("from %s to %s is %d days: ask for at most %d", from.Format(time.DateOnly), to.Format(time.DateOnly), int(to.Sub(from).Hours()/24)+1, MaxStatsDays)}
	}
	return from, to, nil
}
