// Package conformance checks a live hub against the hosted-form protocol
// (hubclient/PROTOCOL.md §4): every rule that can be observed from outside, each reported
// as a Result with the section of the protocol reference it comes from.
//
// The form under test must have the fields of Form, which an operator of
// any hub can create there. The checks store a few submissions and upload
// a few small files in that form, and one of 64 MiB in parts when the hub
// offers files in parts (upload.parts); when the hub keeps drafts of the
// form, they save a draft and finish it with a submission (drafts).
//
// A Go test can run the kit against its own hub:
//
//	report, err := conformance.Run(ctx, conformance.Options{HubURL: url, Site: "acme", Form: "conformance"})
//	if err != nil {
//		t.Fatal(err)
//	}
//	for _, r := range report.Failed() {
//		t.Errorf("%s: %s", r.ID, r.Detail)
//	}
package conformance

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// Status is the outcome of one check.
type Status string

// The outcomes. Info reports what a hub does where the protocol leaves the
// choice open (limits, CORS, rate limits, keys it never handed out, files in
// parts not offered, no drafts kept): it is never a failure.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip"
	Info Status = "info"
)

// Result is one check's outcome.
type Result struct {
	// ID names the check, e.g. "submit.form-encoded"; it does not change
	// between versions.
	ID string `json:"id"`
	// Checks says what the check checks.
	Checks string `json:"checks"`
	// Section is the section of hubclient/PROTOCOL.md that says so.
	Section string `json:"section"`
	Status  Status `json:"status"`
	// Detail says, on failure, what was expected and what came back; on
	// skip why; on info what the hub did; on pass what is worth noting.
	Detail string `json:"detail,omitempty"`
}

// Options says which hub and form to check.
type Options struct {
	// HubURL is the endpoint base, ending in the protocol version (/v1).
	HubURL string
	// Site and Form name the form under test, one with Form's fields.
	Site, Form string
	// CaptchaToken is sent with the submissions that must be accepted,
	// for a form whose schema names a captcha provider. Without it those
	// checks are skipped.
	CaptchaToken string
	// OddSite and OddForm, when both are set, name a second form whose
	// site and slug hold characters that must be escaped (spaces,
	// slashes, non-ASCII); the schema route must serve it.
	OddSite, OddForm string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Timeout bounds each request; zero means 30 seconds.
	Timeout time.Duration
	// Stored, when set, reports how many submissions the hub holds for
	// the form, so that the honeypot check can see that a trapped
	// submission is not stored. Hubs seldom expose this; a test does.
	Stored func(ctx context.Context) (int, error)
}

// Report is the outcome of a run, one Result per check in a fixed order.
type Report struct {
	HubURL  string   `json:"hubUrl"`
	Site    string   `json:"site"`
	Form    string   `json:"form"`
	Results []Result `json:"results"`
}

// Failed returns the results whose status is Fail.
func (r *Report) Failed() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status == Fail {
			out = append(out, res)
		}
	}
	return out
}

// Count returns how many results have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Status == s {
			n++
		}
	}
	return n
}

// Result returns the result of the check id, or nil.
func (r *Report) Result(id string) *Result {
	for i := range r.Results {
		if r.Results[i].ID == id {
			return &r.Results[i]
		}
	}
	return nil
}

// Run runs every check against the hub in order. It returns an error only
// when the options cannot name a form (a bad URL, an empty site or form);
// what the hub answers goes into the report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	client := &hubclient.Client{HubURL: opts.HubURL}
	base, err := client.FormURL(opts.Site, opts.Form)
	if err != nil {
		return nil, err
	}
	r := &run{opts: opts, base: base, hub: client}
	if r.opts.HTTPClient == nil {
		r.opts.HTTPClient = http.DefaultClient
	}
	if r.opts.Timeout <= 0 {
		r.opts.Timeout = 30 * time.Second
	}
	report := &Report{HubURL: opts.HubURL, Site: opts.Site, Form: opts.Form}
	for _, c := range checks {
		status, detail := c.run(r, ctx)
		report.Results = append(report.Results, Result{ID: c.id, Checks: c.checks, Section: c.section, Status: status, Detail: detail})
	}
	return report, nil
}

// failf is a failure with its detail.
func failf(format string, args ...any) (Status, string) { return Fail, fmt.Sprintf(format, args...) }
