package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/riverqueue/river"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/chat"
	"github.com/hubform/hubform/hubclient"
)

// ChatArgs is a job that posts a submission to a team chat, one of its
// form's hub.destinations.
type ChatArgs struct {
	SubmissionID string `json:"submissionId"`
	Site         string `json:"site"`
	Slug         string `json:"form"`
	// Destination is the destination's ID: its URL, a secret, is looked
	// up in the form's settings when the job runs, as a webhook's secret
	// is, and stays out of the queue's table.
	Destination string `json:"destination"`
	// Service is the chat's kind, for the list of deliveries.
	Service chat.Kind `json:"service"`
}

// Kind is the River kind of chat jobs.
func (ChatArgs) Kind() string { return "chat" }

// Links are the console's addresses that chat messages and digests link
// to.
type Links interface {
	// Submission is the page of a submission.
	Submission(site, slug, id string) string
	// File is the n-th file of a submission.
	File(site, slug, id string, n int) string
	// Inbox is the inbox of a form.
	Inbox(site, slug string) string
	// Account is the page where members ask for digests.
	Account() string
}

// chatJobs returns the chat deliveries of s under settings, one a
// destination whose service is known (Parse checked that each is).
func (q *Queue) chatJobs(s hub.Submission, settings hub.Settings, opts *river.InsertOpts) []river.InsertManyParams {
	var out []river.InsertManyParams
	for _, d := range settings.Destinations {
		kind, err := chat.Resolve(d.Kind, d.URL)
		if err != nil {
			continue
		}
		out = append(out, river.InsertManyParams{
			Args:       ChatArgs{SubmissionID: s.ID, Site: s.Site, Slug: s.Slug, Destination: d.ID(), Service: kind},
			InsertOpts: opts,
		})
	}
	return out
}

type chatWorker struct{ worker[ChatArgs] }

// Work makes one attempt: any 2xx answer is success; another answer, a
// timeout or a network error is retried. A destination removed from the
// form, or a submission deleted, cancels it.
func (w *chatWorker) Work(ctx context.Context, job *river.Job[ChatArgs]) error {
	a := job.Args
	log := w.q.cfg.Logger.With("job", job.ID, "submission", a.SubmissionID, "site", a.Site, "form", a.Slug,
		"chat", a.Service, "destination", a.Destination, "attempt", job.Attempt)
	form, err := w.q.cfg.Forms.Lookup(a.Site, a.Slug)
	if errors.Is(err, hub.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("form %s/%s %w", a.Site, a.Slug, errGone))
	}
	if err != nil {
		return err
	}
	d, ok := destination(form.Settings, a.Destination)
	if !ok {
		log.Warn("chat delivery cancelled: the destination was removed from the form")
		return river.JobCancel(fmt.Errorf("the form's %s destination %s %w", a.Service.Name(), a.Destination, errGone))
	}
	kind, err := chat.Resolve(d.Kind, d.URL)
	if err != nil {
		return river.JobCancel(err)
	}
	sub, err := w.q.submission(ctx, log, "chat", a.SubmissionID)
	if err != nil {
		return err
	}
	if _, err := w.q.postChat(ctx, kind, d.URL, w.q.chatMessage(form, sub)); err != nil {
		logFailure(log, job.JobRow, err)
		return err
	}
	log.Debug("chat message delivered")
	return nil
}

// submission reads the submission id for a delivery of kind, or returns
// an error that cancels the delivery when it was deleted.
func (q *Queue) submission(ctx context.Context, log *slog.Logger, kind, id string) (hub.Submission, error) {
	sub, err := q.cfg.Submissions.Submission(ctx, id)
	if errors.Is(err, hub.ErrNotFound) {
		log.Warn(kind + " delivery cancelled: the submission was deleted")
		return sub, river.JobCancel(fmt.Errorf("submission %s %w", id, errGone))
	}
	return sub, err
}

// destination returns the form's destination of the ID id.
func destination(st hub.Settings, id string) (hub.Destination, bool) {
	for _, d := range st.Destinations {
		if d.ID() == id {
			return d, true
		}
	}
	return hub.Destination{}, false
}

// chatMessage is what a chat message says of sub: its answers under the
// form's labels, as the owners' e-mail has them, its files linked to the
// console, and a link to the submission there.
func (q *Queue) chatMessage(form *hub.Form, sub hub.Submission) chat.Message {
	m := chat.Message{Form: formTitle(form, sub.Site, sub.Slug), At: sub.CreatedAt}
	var values map[string]any
	json.Unmarshal(sub.Payload, &values)
	m.Answers = answerLines(form, values, sub.Calculations)
	for i, f := range sub.Attachments {
		a := chat.Answer{Label: f.Field, Value: f.Filename}
		if field := form.Schema.Field(f.Field); field != nil {
			a.Label = fieldLabel(field)
		}
		if q.cfg.Links != nil {
			a.Link = q.cfg.Links.File(sub.Site, sub.Slug, sub.ID, i)
		}
		m.Answers = append(m.Answers, a)
	}
	if q.cfg.Links != nil {
		m.Link = q.cfg.Links.Submission(sub.Site, sub.Slug, sub.ID)
	}
	return m
}

// maxChatAnswer is how much of a chat's answer is kept with a failed
// delivery: enough for its reason ("invalid_blocks", "no_service").
const maxChatAnswer = 200

// postChat posts m to the chat kind at rawURL and returns the chat's
// answer, as a person reads it: its status and the start of its body.
// An answer other than 2xx is an error that says it; the URL, a secret,
// is in no error.
func (q *Queue) postChat(ctx context.Context, kind chat.Kind, rawURL string, m chat.Message) (string, error) {
	body, err := chat.Body(kind, m)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, q.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
	if err != nil {
		return "", river.JobCancel(fmt.Errorf("%s: the destination's URL: %w", kind.Name(), withoutURL(err)))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "hubform-hub")
	resp, err := q.cfg.Client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", kind.Name(), withoutURL(err))
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(io.LimitReader(resp.Body, maxChatAnswer+utf8.UTFMax))
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	answer := kind.Name() + " answered " + resp.Status
	if text := strings.TrimSpace(strings.ToValidUTF8(string(got), "")); text != "" {
		if len(text) > maxChatAnswer {
			text = strings.ToValidUTF8(text[:maxChatAnswer], "") + "…"
		}
		answer += ": " + text
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return answer, errors.New(answer)
	}
	return answer, nil
}

// TestChat posts a sample message of the form to the destination d, as
// the Settings tab's "Send a test message" does, and returns the chat's
// answer; an answer other than 2xx is an error that says it.
func (q *Queue) TestChat(ctx context.Context, form *hub.Form, d hub.Destination) (string, error) {
	kind, err := chat.Resolve(d.Kind, d.URL)
	if err != nil {
		return "", err
	}
	m := chat.Message{Form: formTitle(form, form.Site, form.Slug), Test: true, At: q.cfg.Now()}
	for i := range form.Schema.Fields {
		f := &form.Schema.Fields[i]
		if len(m.Answers) == 3 {
			break
		}
		if !hubclient.IsHoneypot(f.Name) && f.TypeOf().HasValue() && !f.TypeOf().IsFiles() {
			m.Answers = append(m.Answers, chat.Answer{Label: fieldLabel(f), Value: "A sample answer"})
		}
	}
	return q.postChat(ctx, kind, d.URL, m)
}
