package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/riverqueue/river"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// EventSubmissionCreated is the type of the event each submission sends.
const EventSubmissionCreated = "submission.created"

// WebhookArgs is a job that POSTs a submission to one receiver.
type WebhookArgs struct {
	SubmissionID string `json:"submissionId"`
	Site         string `json:"site"`
	Slug         string `json:"form"`
	// URL is the receiver. Its secret is looked up in the form's settings
	// when the job runs, so that secrets stay out of the queue's table
	// and a rotated secret applies to retries.
	URL string `json:"url"`
}

// Kind is the River kind of webhook jobs.
func (WebhookArgs) Kind() string { return "webhook" }

// Event is the body of a webhook request.
type Event struct {
	Type string `json:"type"`
	// Timestamp is when the submission was stored, so that every attempt
	// sends the same body.
	Timestamp time.Time `json:"timestamp"`
	Data      EventData `json:"data"`
}

// EventData is the submission an Event is about.
type EventData struct {
	Site         string                 `json:"site"`
	Slug         string                 `json:"form"`
	SubmissionID string                 `json:"submissionId"`
	Payload      json.RawMessage        `json:"payload"`
	Attachments  []hubclient.Attachment `json:"attachments"`
	CreatedAt    time.Time              `json:"createdAt"`
	// Calculations are the values of the form's calculations, by name, as
	// the hub worked them out and stored them; absent for a form without.
	Calculations map[string]any `json:"calculations,omitempty"`
}

// WebhookID returns the webhook-id of a delivery: the same on every
// attempt, distinct for each receiver of each submission, and unique
// beyond one database since the submission's id is.
func WebhookID(submissionID string, jobID int64) string {
	return "msg_" + submissionID + "_" + strconv.FormatInt(jobID, 10)
}

// maxAnswer is how much of a receiver's answer is read, to keep the
// connection reusable; the rest is discarded with it.
const maxAnswer = 64 << 10

type webhookWorker struct{ worker[WebhookArgs] }

// Work makes one attempt: any 2xx answer is success; another answer, a
// timeout or a network error is retried.
func (w *webhookWorker) Work(ctx context.Context, job *river.Job[WebhookArgs]) error {
	a := job.Args
	log := w.q.cfg.Logger.With("job", job.ID, "submission", a.SubmissionID, "site", a.Site, "form", a.Slug, "attempt", job.Attempt)
	key, err := w.q.secret(a)
	if err != nil {
		log.Warn("webhook delivery cancelled", "error", err)
		return river.JobCancel(err)
	}
	sub, err := w.q.submission(ctx, log, "webhook", a.SubmissionID)
	if err != nil {
		return err
	}
	body, err := json.Marshal(Event{
		Type:      EventSubmissionCreated,
		Timestamp: sub.CreatedAt.UTC(),
		Data: EventData{
			Site: sub.Site, Slug: sub.Slug, SubmissionID: sub.ID,
			Payload: sub.Payload, Attachments: sub.Attachments, CreatedAt: sub.CreatedAt.UTC(),
			Calculations: sub.Calculations,
		},
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, w.q.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL, bytes.NewReader(body))
	if err != nil {
		return river.JobCancel(fmt.Errorf("webhook URL: %w", withoutURL(err)))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "hubform-hub")
	setHeaders(req.Header, key, WebhookID(a.SubmissionID, job.ID), w.q.cfg.Now(), body)
	resp, err := w.q.cfg.Client.Do(req)
	if err != nil {
		err = fmt.Errorf("webhook: %w", withoutURL(err))
		logFailure(log, job.JobRow, err)
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		err := fmt.Errorf("webhook: the receiver answered %s", resp.Status)
		logFailure(log, job.JobRow, err)
		return err
	}
	log.Debug("webhook delivered", "status", resp.StatusCode)
	return nil
}

// secret returns the key of the receiver a names, as the form's settings
// have it now.
func (q *Queue) secret(a WebhookArgs) ([]byte, error) {
	form, err := q.cfg.Forms.Lookup(a.Site, a.Slug)
	if err != nil {
		return nil, fmt.Errorf("form %s/%s: %w", a.Site, a.Slug, err)
	}
	for _, h := range form.Settings.Webhooks {
		if h.URL == a.URL {
			return h.Key()
		}
	}
	return nil, fmt.Errorf("the form's webhook to %s %w", hub.RedactURL(a.URL), errGone)
}

// withoutURL returns err with the URL of the *url.Error it is, or wraps,
// cut to its host: the error is logged and kept with the delivery, and a
// webhook's URL is a secret of the form's file.
func withoutURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return fmt.Errorf("%s %s: %w", ue.Op, hub.RedactURL(ue.URL), ue.Err)
	}
	return err
}
