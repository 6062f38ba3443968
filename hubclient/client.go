package hubclient

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds a call of a JSON route whose context has no deadline.
const DefaultTimeout = 30 * time.Second

// MinUploadRate is the slowest transfer, in bytes per second, that a PUT
// without a context deadline is given time for, on top of the timeout.
const MinUploadRate = 64 << 10

// Limits on what is read of a hub's answers.
const (
	maxSchemaBytes = 4 << 20
	maxAnswerBytes = 1 << 20
	excerptBytes   = 256
)

// DefaultUserAgent is sent when Client.UserAgent is empty.
const DefaultUserAgent = "hubform-go/1"

// FormID names a form on its hub: the site it belongs to and its slug
// within the site. It is the one name of a form in hubform, on the
// embedding side (handlers.Form) and in the hub alike.
type FormID struct {
	Site, Slug string
}

// Client calls the three routes of a hub (PROTOCOL.md §4) and PUTs files to the
// presigned addresses it hands out. The zero value talks to DefaultHubURL
// with http.DefaultClient. A Client is safe for concurrent use; for the
// calls of one visitor, use a copy with Visitor set.
type Client struct {
	// HubURL is the endpoint base, e.g. "https://hub.example.com/v1".
	// Empty means DefaultHubURL. A trailing slash is ignored.
	HubURL string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// UserAgent is sent on every request; empty means DefaultUserAgent.
	UserAgent string
	// Timeout bounds each call whose context has no deadline; zero means
	// DefaultTimeout. A PUT gets Timeout plus the time to send its body at
	// MinUploadRate.
	Timeout time.Duration
	// Visitor is the IP address of the visitor the calls act for, such as
	// "203.0.113.7" or "2001:db8::1". Every call but a schema fetch sends
	// it as "X-Forwarded-For: Visitor", so that a hub which trusts the
	// caller's address as a proxy (hubform hub --trusted-proxies) counts
	// its rate limit, checks the captcha and records the submission for
	// the visitor rather than for the app. Schema fetches carry no
	// address: they are shared between visitors and cached.
	//
	// Empty leaves the visitor to the context (WithVisitor). Anything else
	// that is not an IP address names no visitor; a zone ("%eth0") is
	// dropped, and an IPv4 address mapped into IPv6 is sent as IPv4.
	Visitor string
}

// FormURL returns {hub_url}/<site>/<slug>, each segment escaped as one path
// segment ("acme co" → "acme%20co", "con/tact" → "con%2Ftact").
func (c *Client) FormURL(site, slug string) (string, error) {
	hub := c.HubURL
	if hub == "" {
		hub = DefaultHubURL
	}
	u, err := url.Parse(hub)
	if err != nil {
		return "", fmt.Errorf("hub URL %q: %w", hub, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("hub URL %q: want an absolute http or https URL", hub)
	}
	for _, seg := range []struct{ what, value string }{{"site", site}, {"form slug", slug}} {
		if seg.value == "" || seg.value == "." || seg.value == ".." {
			return "", fmt.Errorf("%s %q: not a usable path segment", seg.what, seg.value)
		}
	}
	return strings.TrimRight(hub, "/") + "/" + url.PathEscape(site) + "/" + url.PathEscape(slug), nil
}

// Schema fetches the form's schema with GET {base}.json.
func (c *Client) Schema(ctx context.Context, site, slug string) (*Schema, error) {
	s, _, err := c.SchemaIfNoneMatch(ctx, site, slug, "")
	return s, err
}

// SchemaIfNoneMatch fetches the form's schema unless the hub still tags it
// etag, an ETag the hub sent with it before: then the hub answers 304 Not
// Modified with no body, and SchemaIfNoneMatch returns a nil schema, the
// ETag and no error. Otherwise it returns the schema with the hub's ETag
// for it ("" when the hub sent none). An empty etag always fetches.
func (c *Client) SchemaIfNoneMatch(ctx context.Context, site, slug, etag string) (*Schema, string, error) {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return nil, "", &SchemaError{err}
	}
	var s Schema
	var h http.Header
	if etag != "" {
		h = http.Header{"If-None-Match": {etag}}
	}
	header, err := c.exchange(ctx, http.MethodGet, base+".json", h, nil, maxSchemaBytes, &s)
	switch {
	case errors.Is(err, errNotModified):
		return nil, etag, nil
	case err != nil:
		return nil, "", &SchemaError{err}
	}
	return &s, header.Get("ETag"), nil
}

// UploadURL asks the hub for a presigned address for one file with
// POST {base}/upload-url.
func (c *Client) UploadURL(ctx context.Context, site, slug string, req UploadURLRequest) (*UploadURLResponse, error) {
	fail := func(err error) error { return &UploadURLError{Filename: req.Filename, Err: err} }
	base, err := c.FormURL(site, slug)
	if err != nil {
		return nil, fail(err)
	}
	var res UploadURLResponse
	if err := c.do(ctx, http.MethodPost, base+"/upload-url", req, maxAnswerBytes, &res); err != nil {
		return nil, fail(err)
	}
	switch {
	case !res.OK || res.Key == "":
		return nil, fail(errors.New("answer lacks ok or key"))
	case res.Parts != nil && !req.Parts:
		return nil, fail(errors.New("answer has parts, which were not asked for"))
	case res.Parts != nil && (res.Parts.UploadID == "" || res.Parts.PartSize <= 0 || len(res.Parts.URLs) != res.Parts.Count(req.Size)):
		return nil, fail(fmt.Errorf("answer's parts do not cover the file of %d bytes", req.Size))
	case res.Parts == nil && res.UploadURL == "":
		return nil, fail(errors.New("answer lacks uploadUrl"))
	}
	return &res, nil
}

// UploadParts signs the URLs of the parts of an upload in parts again,
// with POST {base}/upload-parts (PROTOCOL.md §10), for an upload that
// outlasted them; sent parts stay sent.
func (c *Client) UploadParts(ctx context.Context, site, slug string, req UploadPartsRequest) (*UploadParts, error) {
	fail := func(err error) error {
		return &UploadURLError{Err: fmt.Errorf("signing the parts of %s again: %w", req.Key, err)}
	}
	base, err := c.FormURL(site, slug)
	if err != nil {
		return nil, fail(err)
	}
	var res UploadURLResponse
	if err := c.do(ctx, http.MethodPost, base+"/upload-parts", req, maxAnswerBytes, &res); err != nil {
		return nil, fail(err)
	}
	if !res.OK || res.Parts == nil || res.Parts.UploadID != req.UploadID || res.Parts.PartSize <= 0 || len(res.Parts.URLs) == 0 {
		return nil, fail(errors.New("answer lacks ok or the upload's parts"))
	}
	return res.Parts, nil
}

// CompleteUpload joins the parts of a file sent in parts with POST
// {base}/upload-complete (PROTOCOL.md §10); its key may then be submitted.
func (c *Client) CompleteUpload(ctx context.Context, site, slug string, req CompleteUploadRequest) error {
	fail := func(err error) error {
		return &UploadError{Err: fmt.Errorf("completing the parts of %s: %w", req.Key, err)}
	}
	base, err := c.FormURL(site, slug)
	if err != nil {
		return fail(err)
	}
	var res struct {
		OK bool `json:"ok"`
	}
	if err := c.do(ctx, http.MethodPost, base+"/upload-complete", req, maxAnswerBytes, &res); err != nil {
		return fail(err)
	}
	if !res.OK {
		return fail(errors.New(`answer says "ok": false`))
	}
	return nil
}

// Submit sends a submission with POST {base}/submit. An answer of
// "ok": false is an error, as is any status outside 2xx.
func (c *Client) Submit(ctx context.Context, site, slug string, req *SubmitRequest) (*SubmitResponse, error) {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return nil, &SubmitError{err}
	}
	var res SubmitResponse
	if err := c.do(ctx, http.MethodPost, base+"/submit", req, maxAnswerBytes, &res); err != nil {
		return nil, &SubmitError{err}
	}
	if !res.OK {
		return nil, &SubmitError{&HubError{Method: http.MethodPost, URL: base + "/submit", StatusCode: http.StatusOK,
			Message: cmp.Or(res.Error, `answer says "ok": false`), Fields: res.Fields}}
	}
	return &res, nil
}

// Upload sends f to the storage of the form's hub: it asks for an upload
// URL and PUTs the body there. The attachment it returns names the file
// in a submission or a draft; its Field is the caller's to set.
func (c *Client) Upload(ctx context.Context, site, slug string, f File) (Attachment, error) {
	req := UploadURLRequest{Filename: f.Name(), Size: f.Size(), MIME: f.ContentType()}
	res, err := c.UploadURL(ctx, site, slug, req)
	if err != nil {
		return Attachment{}, err
	}
	if err := c.Put(ctx, res.UploadURL, f); err != nil {
		return Attachment{}, err
	}
	return Attachment{Key: res.Key, Filename: req.Filename, Size: req.Size, MIME: req.MIME}, nil
}

// Put streams the file's body to a presigned URL with its Content-Type and
// Content-Length, as object storage expects (S3, R2 and the hubform hub bind
// both into the signature).
func (c *Client) Put(ctx context.Context, uploadURL string, f File) error {
	fail := func(err error) error { return &UploadError{Filename: f.Name(), Err: err} }
	u, err := url.Parse(uploadURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fail(fmt.Errorf("upload URL is not an http or https URL"))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout()+time.Duration(f.Size()/MinUploadRate)*time.Second)
		defer cancel()
	}
	body, err := f.Open()
	if err != nil {
		return fail(err)
	}
	defer body.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, uploadURL, body)
	if err != nil {
		return fail(err)
	}
	req.ContentLength = f.Size()
	if f.Size() == 0 {
		req.Body = http.NoBody
	}
	req.Header.Set("Content-Type", f.ContentType())
	req.Header.Set("User-Agent", c.userAgent())
	c.setVisitor(req)
	res, err := c.httpClient().Do(req)
	if err != nil {
		return fail(transportError(http.MethodPut, u, err))
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fail(readHubError(res, http.MethodPut, u))
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, maxAnswerBytes))
	return nil
}

// do sends one JSON request (a nil in sends no body) and decodes the answer
// into out, reading at most limit bytes of it.
func (c *Client) do(ctx context.Context, method, rawURL string, in any, limit int64, out any) error {
	_, err := c.exchange(ctx, method, rawURL, nil, in, limit, out)
	return err
}

// errNotModified is what exchange returns for a 304 to a request it sent
// with If-None-Match.
var errNotModified = errors.New("not modified")

// exchange is do, sending the headers of extra as well (If-None-Match,
// Authorization), and returning the answer's header. With If-None-Match,
// a 304 is errNotModified.
func (c *Client) exchange(ctx context.Context, method, rawURL string, extra http.Header, in any, limit int64, out any) (http.Header, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout())
		defer cancel()
	}
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", c.userAgent())
	for k, v := range extra {
		req.Header[k] = v
	}
	if method != http.MethodGet {
		// Schema GETs are shared by every visitor and cached: they name none.
		c.setVisitor(req)
	}
	res, err := c.httpClient().Do(req)
	if err != nil {
		return nil, transportError(method, req.URL, err)
	}
	defer res.Body.Close()
	if extra.Get("If-None-Match") != "" && res.StatusCode == http.StatusNotModified {
		return res.Header, errNotModified
	}
	if res.StatusCode/100 != 2 {
		return nil, readHubError(res, method, req.URL)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading answer: %w", method, redact(req.URL), err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s: answer larger than %d bytes", method, redact(req.URL), limit)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return nil, fmt.Errorf("%s %s: answer is not the expected JSON: %w (%s)", method, redact(req.URL), err, excerpt(data, excerptBytes))
	}
	return res.Header, nil
}

// readHubError turns a non-2xx answer into a *HubError, taking the message
// and field errors from a JSON body of the shape {ok, error, fields}.
func readHubError(res *http.Response, method string, u *url.URL) error {
	data, _ := io.ReadAll(io.LimitReader(res.Body, maxAnswerBytes))
	e := &HubError{Method: method, URL: redact(u), StatusCode: res.StatusCode, Body: excerpt(data, excerptBytes)}
	var answer SubmitResponse
	if json.Unmarshal(data, &answer) == nil {
		e.Message, e.Fields = answer.Error, answer.Fields
	}
	return e
}

// transportError reports a failure to get an answer without repeating the
// URL's query, which for a presigned URL holds credentials.
func transportError(method string, u *url.URL, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s %s: %w", method, redact(u), err)
}

func redact(u *url.URL) string {
	r := *u
	r.RawQuery, r.ForceQuery, r.Fragment, r.User = "", false, "", nil
	return r.String()
}

func (c *Client) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return http.DefaultClient
}

func (c *Client) userAgent() string { return cmp.Or(c.UserAgent, DefaultUserAgent) }

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}
