// Package hubclient speaks the hosted-form protocol: it fetches a form's
// schema from a hub and delivers submissions, values and files, to it.
//
// A hub serves three routes under {hub_url}/<site_id>/<form_slug>:
//
//	GET  ….json        the form's schema (Schema)
//	POST …/upload-url  a presigned address for one file (UploadURLRequest → UploadURLResponse)
//	POST …/submit      a submission (SubmitRequest → SubmitResponse)
//
// Client calls them one at a time. A Submitter is the whole submit
// pipeline: plugins, value splitting, parallel streamed uploads, then the
// submission:
//
//	s := hubclient.NewSubmitter(hubclient.SubmitOptions{SiteID: "acme", FormSlug: "contact"})
//	res, err := s.Submit(ctx, hubclient.Submission{
//		Values:  map[string]any{"name": "Jane", "files": []hubclient.File{report}},
//		Locale:  "de",
//		Visitor: visitorIP,
//	})
//
// NewSubmit wraps the same pipeline in the shape of the protocol's
// JavaScript entry point, createHubFormSubmit(): a SubmitConfig whose
// OnSubmit takes the values alone, and the locale, timing, draft and
// visitor from its context (WithLocale, WithTiming, WithDraft,
// WithVisitor). A submission may carry an
// idempotency key (the value IdempotencyKeyField, sent as
// SubmitRequest.IdempotencyKey), an extension of the protocol that makes a
// hub keeping keys store it once however often it is sent. Errors keep the protocol's literal
// prefixes ("upload-url failed: ", "upload PUT to R2 failed: ",
// "submit failed: ") and are typed for errors.As.
//
// The schema format is described in SCHEMA.md beside this file. Package
// fakehub imitates a hub in memory for client tests (handlers/hub/hubtest
// runs the real one); hubclient/conformance checks a hub against the
// protocol.
package hubclient
