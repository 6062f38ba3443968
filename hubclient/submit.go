package hubclient

import (
	"context"
	"net/http"

	"golang.org/x/sync/errgroup"
)

// DefaultUploadConcurrency is how many files are uploaded at once when
// SubmitOptions.UploadConcurrency is zero.
const DefaultUploadConcurrency = 8

// SubmitOptions configures a Submitter (NewSubmitter), and NewSubmit, its
// JavaScript-shaped twin.
type SubmitOptions struct {
	// HubURL is the endpoint base; empty means DefaultHubURL.
	HubURL   string
	SiteID   string
	FormSlug string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// UserAgent is sent on every request; empty means DefaultUserAgent.
	UserAgent string
	// UploadConcurrency bounds the files uploaded at once; zero means
	// DefaultUploadConcurrency.
	UploadConcurrency int
	// Plugins run their TransformValues phase before the values are split;
	// a captcha plugin puts the token under "_captchaToken" there.
	Plugins *PluginManager
}

// Submitter delivers submissions to one form of a hub: the submit
// pipeline of PROTOCOL.md §4 rule 3, files uploaded first, then the
// submission that names them. A Submitter is safe for concurrent use.
// Make one with NewSubmitter: the zero value sends to DefaultHubURL for
// no form, and every call fails.
type Submitter struct {
	client      Client
	site, slug  string
	concurrency int
	plugins     *PluginManager
}

// NewSubmitter returns a Submitter for the form opts names.
func NewSubmitter(opts SubmitOptions) *Submitter {
	return &Submitter{
		client:      Client{HubURL: opts.HubURL, HTTPClient: opts.HTTPClient, UserAgent: opts.UserAgent},
		site:        opts.SiteID,
		slug:        opts.FormSlug,
		concurrency: opts.UploadConcurrency,
		plugins:     opts.Plugins,
	}
}

// Submission is one send of a form: the values typed in it, and what
// describes the send rather than what was typed, each sent to the hub
// as an extension of the protocol (PROTOCOL.md §10) that hubs which do
// not know it ignore.
type Submission struct {
	// Values are the form's values by name; see Submitter.Submit for
	// where each goes.
	Values map[string]any
	// Locale is the locale the visitor used ("de", "pt-BR"), sent as
	// "locale" for the hub's e-mail to the visitor. Empty sends none.
	Locale string
	// Timing is the time-trap signal, sent as "timing"; nil sends none.
	Timing *Timing
	// Draft is the token of the draft the submission finishes (PROTOCOL.md
	// §10, "Drafts"), sent as "draft": the hub deletes the draft once the
	// submission is stored. Empty sends none.
	Draft string
	// Visitor is the IP address of the visitor the submission is sent
	// for, as Client.Visitor: upload-url, the PUT of each file and submit
	// carry it as X-Forwarded-For. Empty leaves it to the context
	// (WithVisitor), which names none unless told.
	Visitor string
}

// Submit delivers sub to the hub and returns its answer.
//
// Submit leaves sub.Values untouched. It runs the plugins, then splits
// the values: every File, and every non-empty list of only files, is
// uploaded (upload-url, then a streamed PUT of its body to the returned
// address), several at once, except an Attachment, a file already in the
// hub's storage, which is sent as it is (its Field set to the value's
// name); the first failure cancels the others and no submission is sent.
// Then the submit route gets the payload, the attachments, the captcha
// token (TokenField), the idempotency key (IdempotencyKeyField)
// and the honeypots, with the locale, timing and draft of sub. An
// idempotency key that CheckIdempotencyKey refuses fails the call before
// anything is sent. Its errors begin with PrefixUploadURL, PrefixUpload
// or PrefixSubmit and are an *UploadURLError, *UploadError or
// *SubmitError; an answer of "ok": false is a *SubmitError.
func (s *Submitter) Submit(ctx context.Context, sub Submission) (*SubmitResponse, error) {
	client := s.client
	if sub.Visitor != "" {
		client.Visitor = sub.Visitor
	}
	own := make(map[string]any, len(sub.Values))
	for k, v := range sub.Values {
		own[k] = v
	}
	if err := s.plugins.TransformValues(ctx, own); err != nil {
		return nil, &SubmitError{err}
	}
	split, err := splitValues(own)
	if err != nil {
		return nil, &SubmitError{err}
	}
	attachments, err := s.upload(ctx, &client, split.files)
	if err != nil {
		return nil, err
	}
	res, err := client.Submit(ctx, s.site, s.slug, &SubmitRequest{
		Payload:        split.payload,
		Attachments:    attachments,
		CaptchaToken:   split.captchaToken,
		IdempotencyKey: split.idempotencyKey,
		Honeypots:      split.honeypots,
		Locale:         sub.Locale,
		Timing:         sub.Timing,
		Draft:          sub.Draft,
	})
	if err != nil {
		return nil, err
	}
	res.Attachments = attachments
	return res, nil
}

// upload sends every file to the hub's storage through client, at most
// s.concurrency at a time, and returns their attachments in the order of
// files.
func (s *Submitter) upload(ctx context.Context, client *Client, files []fieldFile) ([]Attachment, error) {
	if len(files) == 0 {
		return nil, nil
	}
	attachments := make([]Attachment, len(files))
	limit := s.concurrency
	if limit <= 0 {
		limit = DefaultUploadConcurrency
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i, ff := range files {
		if ctx.Err() != nil {
			break // a failed upload cancelled the rest
		}
		g.Go(func() error {
			f := ff.file
			if u, ok := f.(uploaded); ok {
				u.a.Field = ff.field
				attachments[i] = u.a
				return nil
			}
			a, err := client.Upload(ctx, s.site, s.slug, f)
			a.Field = ff.field
			attachments[i] = a
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return attachments, nil
}
