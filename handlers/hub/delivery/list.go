package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hubform/hubform/handlers/hub"
)

// Outcomes of a delivery.
const (
	OutcomePending   = "pending"   // not attempted yet, or being attempted
	OutcomeRetrying  = "retrying"  // failed, to be attempted again
	OutcomeDelivered = "delivered" // a 2xx answer
	OutcomeFailed    = "failed"    // retried for Config.RetryFor in vain
	OutcomeCancelled = "cancelled" // its submission or receiver is gone
)

// Delivery is one delivery of a submission, as listed.
type Delivery struct {
	ID           int64  `json:"id"`
	Kind         string `json:"kind"`
	Site         string `json:"site"`
	Slug         string `json:"form"`
	SubmissionID string `json:"submissionId"`
	// Target is the receiver's URL, a chat's name and destination's ID
	// (the chat's URL is a secret), "e-mail" to the form's owners (with
	// how many addresses were left out, waiting for confirmation),
	// "confirmation e-mail" to the visitor, or "request to confirm an
	// address" listed in notify.email.
	Target  string `json:"target"`
	Outcome string `json:"outcome"`
	// Attempts is how many attempts were made, Errors why those that
	// failed did.
	Attempts    int       `json:"attempts"`
	MaxAttempts int       `json:"maxAttempts"`
	Errors      []Attempt `json:"errors,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	// Next is when the next attempt is due, zero when none is.
	Next time.Time `json:"next,omitzero"`
	// FinishedAt is when it was delivered, failed or cancelled.
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// Attempt is a failed attempt.
type Attempt struct {
	Attempt int       `json:"attempt"`
	At      time.Time `json:"at"`
	Error   string    `json:"error"`
}

// List returns the deliveries of a form, newest first.
func (q *Queue) List(ctx context.Context, slug, form string) ([]Delivery, error) {
	var out []Delivery
	params := river.NewJobListParams().Queues(QueueName).TagsAll(FormTag(slug, form)).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(10000)
	for {
		res, err := q.river.JobList(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("delivery: list: %w", err)
		}
		for _, j := range res.Jobs {
			out = append(out, delivery(j))
		}
		if len(res.Jobs) == 0 || res.LastCursor == nil {
			return out, nil
		}
		params = params.After(res.LastCursor)
	}
}

// Delivery returns the delivery id, or an error wrapping hub.ErrNotFound.
func (q *Queue) Delivery(ctx context.Context, id int64) (Delivery, error) {
	j, err := q.river.JobGet(ctx, id)
	if errors.Is(err, rivertype.ErrNotFound) {
		return Delivery{}, fmt.Errorf("delivery %d: %w", id, hub.ErrNotFound)
	}
	if err != nil {
		return Delivery{}, fmt.Errorf("delivery: %d: %w", id, err)
	}
	return delivery(j), nil
}

// ErrSentOnce means a delivery asked to be sent again is an e-mail to an
// address the workspace did not prove its own (a visitor's confirmation, a
// request to confirm an address, a draft's link) that was delivered or
// cancelled already: such an e-mail goes out once, so that nobody can
// mail a stranger again and again through the hub by asking.
var ErrSentOnce = errors.New("an e-mail to a visitor or to an address that has not confirmed is sent once, never again")

// SentOnce reports whether d is an e-mail that ErrSentOnce keeps from
// being sent again.
func (d Delivery) SentOnce() bool {
	switch d.Kind {
	case AutoresponseArgs{}.Kind(), ConfirmRecipientArgs{}.Kind(), DraftLinkArgs{}.Kind():
		return d.Outcome == OutcomeDelivered || d.Outcome == OutcomeCancelled
	}
	return false
}

// Retry has a delivery attempted again soon, whatever its outcome but for
// those SentOnce holds (ErrSentOnce); its webhook-id stays the same. It
// returns the delivery.
func (q *Queue) Retry(ctx context.Context, id int64) (Delivery, error) {
	d, err := q.Delivery(ctx, id)
	if err != nil {
		return Delivery{}, err
	}
	if d.SentOnce() {
		return d, fmt.Errorf("delivery %d: %w", id, ErrSentOnce)
	}
	j, err := q.river.JobRetry(ctx, id)
	if err != nil {
		return Delivery{}, fmt.Errorf("delivery: retry %d: %w", id, err)
	}
	return delivery(j), nil
}

func delivery(j *rivertype.JobRow) Delivery {
	d := Delivery{ID: j.ID, Kind: j.Kind, Attempts: j.Attempt, MaxAttempts: j.MaxAttempts, CreatedAt: j.CreatedAt}
	var a WebhookArgs
	if json.Unmarshal(j.EncodedArgs, &a) == nil {
		d.Site, d.Slug, d.SubmissionID, d.Target = a.Site, a.Slug, a.SubmissionID, a.URL
	}
	switch j.Kind {
	case ChatArgs{}.Kind():
		var c ChatArgs
		json.Unmarshal(j.EncodedArgs, &c)
		d.Target = c.Service.Name() + " (destination " + c.Destination + ")"
	case NotifyArgs{}.Kind():
		d.Target = "e-mail"
		var out notifyOutput
		if json.Unmarshal(j.Output(), &out) == nil && out.Waiting > 0 {
			d.Target += fmt.Sprintf(" (not to %s waiting for confirmation)", plural(out.Waiting, "address", "addresses"))
		}
	case ConfirmRecipientArgs{}.Kind():
		d.Target = "request to confirm an address"
	case AutoresponseArgs{}.Kind():
		d.Target = "confirmation e-mail"
	}
	for _, e := range j.Errors {
		d.Errors = append(d.Errors, Attempt{Attempt: e.Attempt, At: e.At, Error: e.Error})
	}
	switch j.State {
	case rivertype.JobStateCompleted:
		d.Outcome = OutcomeDelivered
	case rivertype.JobStateDiscarded:
		d.Outcome = OutcomeFailed
	case rivertype.JobStateCancelled:
		d.Outcome = OutcomeCancelled
	case rivertype.JobStateRetryable:
		d.Outcome, d.Next = OutcomeRetrying, j.ScheduledAt
	default:
		d.Outcome = OutcomePending
		if len(j.Errors) > 0 {
			d.Outcome = OutcomeRetrying
		}
		d.Next = j.ScheduledAt
	}
	if j.FinalizedAt != nil {
		d.FinishedAt = *j.FinalizedAt
	}
	return d
}

// plural returns n with the word that goes with it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
