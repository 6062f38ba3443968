package hubclient

import (
	"context"
	"net/http"

	"golang.org/x/sync/errgroup"
)

// DefaultUploadConcurrency is how many files are uploaded at once when
// SubmitOptions.UploadConcurrency is zero.
const DefaultUploadConcurrency = 8

// SubmitOptions configures NewSubmit, the Go twin of createHubFormSubmit.
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

// SubmitConfig is a custom submit configuration, shaped like the
// { type: 'custom', onSubmit(values) } of PROTOCOL.md §1.
type SubmitConfig struct {
	// Type is always "custom".
	Type string
	// OnSubmit delivers values to the hub and returns its answer.
	OnSubmit func(ctx context.Context, values map[string]any) (*SubmitResponse, error)
}

// NewSubmit returns a submit configuration that delivers form values to a
// hub (PROTOCOL.md §4 rule 3).
//
// OnSubmit leaves the caller's map untouched. It runs the plugins, then
// splits the values: every File, and every non-empty list of only files, is
// uploaded (upload-url, then a streamed PUT of its body to the returned
// address), several at once, except an Attachment, a file already in the
// hub's storage, which is sent as it is (its Field set to the value's
// name); the first failure cancels the others and no
// submission is sent. Then the submit route gets the payload, the
// attachments, the captcha token, the idempotency key and the honeypots,
// and the locale and timing the context carries (WithLocale, WithTiming).
// An idempotency key that CheckIdempotencyKey refuses fails the call
// before anything is sent. Its errors begin with
// PrefixUploadURL, PrefixUpload or PrefixSubmit and are an *UploadURLError,
// *UploadError or *SubmitError; an answer of "ok": false is a *SubmitError.
func NewSubmit(opts SubmitOptions) SubmitConfig {
	p := &pipeline{
		client:      &Client{HubURL: opts.HubURL, HTTPClient: opts.HTTPClient, UserAgent: opts.UserAgent},
		site:        opts.SiteID,
		slug:        opts.FormSlug,
		concurrency: opts.UploadConcurrency,
		plugins:     opts.Plugins,
	}
	if p.concurrency <= 0 {
		p.concurrency = DefaultUploadConcurrency
	}
	return SubmitConfig{Type: "custom", OnSubmit: p.submit}
}

type pipeline struct {
	client      *Client
	site, slug  string
	concurrency int
	plugins     *PluginManager
}

func (p *pipeline) submit(ctx context.Context, values map[string]any) (*SubmitResponse, error) {
	own := make(map[string]any, len(values))
	for k, v := range values {
		own[k] = v
	}
	if err := p.plugins.TransformValues(ctx, own); err != nil {
		return nil, &SubmitError{err}
	}
	s, err := splitValues(own)
	if err != nil {
		return nil, &SubmitError{err}
	}
	attachments, err := p.upload(ctx, s.files)
	if err != nil {
		return nil, err
	}
	res, err := p.client.Submit(ctx, p.site, p.slug, &SubmitRequest{
		Payload:        s.payload,
		Attachments:    attachments,
		CaptchaToken:   s.captchaToken,
		IdempotencyKey: s.idempotencyKey,
		Honeypots:      s.honeypots,
		Locale:         localeFrom(ctx),
		Timing:         timingFrom(ctx),
		Draft:          draftFrom(ctx),
	})
	if err != nil {
		return nil, err
	}
	res.Attachments = attachments
	return res, nil
}

// upload sends every file to the hub's storage, at most p.concurrency at a
// time, and returns their attachments in the order of files.
func (p *pipeline) upload(ctx context.Context, files []fieldFile) ([]Attachment, error) {
	if len(files) == 0 {
		return nil, nil
	}
	attachments := make([]Attachment, len(files))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(p.concurrency)
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
			a, err := p.client.Upload(ctx, p.site, p.slug, f)
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
