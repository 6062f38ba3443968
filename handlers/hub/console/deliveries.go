package console

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
)

// Deliveries lists the deliveries of submissions, as delivery.Queue does
// for hubform deliveries; Config.SubmissionChanges has one attempted
// again.
type Deliveries interface {
	// List returns the deliveries of a form, newest first.
	List(ctx context.Context, site, form string) ([]delivery.Delivery, error)
}

// deliveriesPath is the page of a form's deliveries.
func deliveriesPath(site, slug string) string {
	return Path + "/forms/" + url.PathEscape(site) + "/" + url.PathEscape(slug) + "/deliveries"
}

// registerDeliveries adds the pages of deliveries to the console's group:
//
//	GET  /console/forms/{site}/{slug}/deliveries[?submission=ID]  a form's deliveries and their attempts
//	POST /console/forms/{site}/{slug}/deliveries/{id}/retry       send one again
func (con *Console) registerDeliveries(g *echo.Group) {
	g.GET("/forms/:site/:slug/deliveries", con.deliveriesPage)
	g.POST("/forms/:site/:slug/deliveries/:id/retry", con.retryDelivery)
}

// deliveriesProps are what the page of a form's deliveries shows.
type deliveriesProps struct {
	CSRF       string
	Site, Slug string
	// Submission, when set, narrows the page to one submission's.
	Submission string
	// Retried is the delivery just sent again, for the notice.
	Retried int64
	Rows    []deliveryRow
	// SettingsURL is where the form's e-mail and webhooks are set, "" for
	// a form of the forms directory, set in its file.
	SettingsURL string
}

// deliveryRow is one delivery as the page shows it.
type deliveryRow struct {
	ID           int64
	Kind         string
	Target       string
	SubmissionID string
	Outcome      string
	Attempts     []attemptRow
	// Count is how many attempts were made of how many at most.
	Count string
	// Next is when the next attempt is due, empty when none is.
	Next time.Time
	// Resendable is whether the delivery may be sent again (see
	// delivery.Delivery.SentOnce).
	Resendable bool
}

// attemptRow is one attempt of a delivery.
type attemptRow struct {
	N      int
	At     time.Time
	Result string
}

func (con *Console) deliveriesPage(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	list, err := con.cfg.Deliveries.List(c.Request().Context(), site, slug)
	if err != nil {
		return hub.Internal("listing deliveries", err)
	}
	p := deliveriesProps{CSRF: con.csrfToken(c), Site: site, Slug: slug, Submission: c.QueryParam("submission")}
	p.Retried, _ = strconv.ParseInt(c.QueryParam("retried"), 10, 64)
	if con.cfg.Store != nil && !con.inDirectory(site, slug) {
		p.SettingsURL = settingsPath(site, slug) + "#delivery"
	}
	for _, d := range list {
		if p.Submission == "" || d.SubmissionID == p.Submission {
			row := newDeliveryRow(d)
			if row.Kind == "Webhook" && !seesSecrets(c) {
				// A webhook's URL is a secret of the form's file.
				row.Target = hub.RedactURL(row.Target)
			}
			p.Rows = append(p.Rows, row)
		}
	}
	return con.render(c, http.StatusOK, deliveriesPage(p))
}

func newDeliveryRow(d delivery.Delivery) deliveryRow {
	r := deliveryRow{
		ID: d.ID, Kind: "Webhook", Target: d.Target, SubmissionID: d.SubmissionID, Next: d.Next,
		Outcome: outcomeText[d.Outcome], Count: strconv.Itoa(d.Attempts) + " of " + strconv.Itoa(d.MaxAttempts),
	}
	switch d.Kind {
	case delivery.WebhookArgs{}.Kind():
	case delivery.ChatArgs{}.Kind():
		r.Kind = "Chat"
	case delivery.NotifyArgs{}.Kind():
		// The queue's target says how many addresses wait for confirmation.
		r.Kind, r.Target = "E-mail", "the form's owners"+strings.TrimPrefix(d.Target, "e-mail")
	default:
		r.Kind = "E-mail"
	}
	r.Resendable = !d.SentOnce()
	for _, e := range d.Errors {
		r.Attempts = append(r.Attempts, attemptRow{N: e.Attempt, At: e.At, Result: shortError(e.Error)})
	}
	if d.Outcome == delivery.OutcomeDelivered && !d.FinishedAt.IsZero() {
		r.Attempts = append(r.Attempts, attemptRow{N: d.Attempts, At: d.FinishedAt, Result: "delivered"})
	}
	if d.Outcome == delivery.OutcomeCancelled && len(r.Attempts) == 0 {
		r.Attempts = append(r.Attempts, attemptRow{N: d.Attempts, At: d.FinishedAt, Result: "cancelled"})
	}
	return r
}

// outcomeText says what each outcome means, for people.
var outcomeText = map[string]string{
	delivery.OutcomePending:   "waiting for its first attempt, or under way",
	delivery.OutcomeRetrying:  "failed; to be attempted again",
	delivery.OutcomeDelivered: "delivered",
	delivery.OutcomeFailed:    "failed: retried for a day in vain",
	delivery.OutcomeCancelled: "cancelled: its submission, form or receiver was removed",
}

// answered finds the status a receiver answered with in a webhook's error.
var answered = regexp.MustCompile(`answered (\d{3}\b.{0,40})`)

// shortError says in a few words why an attempt failed: the receiver's
// status, or what kind of network failure it was. The error itself names
// addresses and the hub's own workings; the log keeps it whole.
func shortError(err string) string {
	if m := answered.FindStringSubmatch(err); m != nil {
		return "HTTP " + strings.TrimSpace(m[1])
	}
	for _, k := range []struct{ in, say string }{
		{delivery.ErrPrivateAddress.Error(), "not sent: the receiver's address is private"},
		{"no longer exists", "cancelled: its submission, form or receiver was removed"},
		{"Client.Timeout", "no answer in time"},
		{"deadline exceeded", "no answer in time"},
		{"i/o timeout", "no answer in time"},
		{"connection refused", "connection refused"},
		{"connection reset", "connection reset"},
		{"no such host", "host not found"},
		{"x509:", "TLS certificate not accepted"},
		{"tls:", "TLS failed"},
		{"e-mail:", "the mail server failed"},
	} {
		if strings.Contains(err, k.in) {
			return k.say
		}
	}
	return "failed (the hub's log has the details)"
}

func (con *Console) retryDelivery(c echo.Context) error {
	site, slug := c.Param("site"), c.Param("slug")
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err == nil {
		_, err = con.cfg.SubmissionChanges.Retry(ctx, actorOf(c), site, slug, id)
	}
	var num *strconv.NumError
	switch {
	case errors.As(err, &num) || errors.Is(err, hub.ErrNotFound):
		return c.String(http.StatusNotFound, "This form has no such delivery.")
	case errors.Is(err, delivery.ErrSentOnce):
		return c.String(http.StatusConflict, "This e-mail went to a visitor or to an address that has not confirmed: it is sent once, never again.")
	case err != nil:
		if e, ok := errors.AsType[*hub.Error](err); ok {
			return e
		}
		return hub.Internal("looking up a delivery", err)
	}
	u, _ := c.Get(userKey).(accounts.User)
	con.cfg.Logger.InfoContext(ctx, "delivery to be attempted again, from the console", slog.Int64("delivery", id),
		slog.String("site", site), slog.String("form", slug), slog.String("user", u.Email))
	back := url.Values{"retried": {strconv.FormatInt(id, 10)}}
	if s := c.FormValue("submission"); s != "" {
		back.Set("submission", s)
	}
	return c.Redirect(http.StatusSeeOther, deliveriesPath(site, slug)+"?"+back.Encode())
}

// urlQuery escapes s as a query value.
func urlQuery(s string) string { return url.QueryEscape(s) }
