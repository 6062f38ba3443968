package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/hubform/hubform/hubclient"
)

// run is the state the checks share: what earlier checks learned.
type run struct {
	opts Options
	base string
	hub  *hubclient.Client

	schema       *hubclient.Schema
	upload       *hubclient.UploadURLResponse // from upload.url
	uploaded     bool                         // upload.put succeeded
	mu           sync.Mutex                   // guards limitHeaders: upload.parts sends parts at once
	limitHeaders []string                     // rate-limit headers seen
}

// answer is what came back to one request.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// String shows the answer in a failure's detail: status and a short body.
func (a *answer) String() string {
	body := a.body
	if len(body) > 200 {
		body = body[:200]
		for len(body) > 0 && !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
		body = append(body, "…"...)
	}
	if len(body) == 0 {
		return fmt.Sprintf("%d with an empty body", a.status)
	}
	return fmt.Sprintf("%d %s", a.status, bytes.TrimSpace(body))
}

func (a *answer) ok() bool { return a.status/100 == 2 }

// send makes one request; header holds extra headers.
func (r *run) send(ctx context.Context, method, url, contentType string, body []byte, header map[string]string) (*answer, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	return r.sendBody(ctx, method, url, contentType, rd, int64(len(body)), header)
}

// sendBody makes one request whose body, when not nil, is length bytes
// read from body as they are sent, with that Content-Length.
func (r *run) sendBody(ctx context.Context, method, url, contentType string, body io.Reader, length int64, header map[string]string) (*answer, error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	if body != nil && length == 0 {
		body = http.NoBody
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.ContentLength = length
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "hubform-conformance/1")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := r.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	r.mu.Lock()
	for _, name := range []string{"RateLimit", "RateLimit-Policy", "RateLimit-Limit", "X-RateLimit-Limit", "Retry-After"} {
		if v := res.Header.Get(name); v != "" {
			r.limitHeaders = append(r.limitHeaders, name+": "+v)
		}
	}
	r.mu.Unlock()
	return &answer{status: res.StatusCode, header: res.Header, body: data}, nil
}

// postJSON posts v, encoded, to the route at base+suffix.
func (r *run) postJSON(ctx context.Context, suffix string, v any) (*answer, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return r.send(ctx, http.MethodPost, r.base+suffix, "application/json", body, nil)
}

// submit posts a submission carrying the captcha token, if any.
func (r *run) submit(ctx context.Context, req hubclient.SubmitRequest) (*answer, error) {
	if req.CaptchaToken == "" {
		req.CaptchaToken = r.opts.CaptchaToken
	}
	return r.postJSON(ctx, "/submit", req)
}

// accepted reports whether a is a submit answer of 2xx with "ok": true,
// and if not, why.
func accepted(a *answer) (bool, string) {
	if !a.ok() {
		return false, "got " + a.String()
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(a.body, &body); err != nil {
		return false, "the answer is not a JSON object: " + a.String()
	}
	if string(body["ok"]) != "true" {
		return false, `the answer lacks "ok": true: ` + a.String()
	}
	return true, ""
}

// needsToken reports whether the checks that must see a submission
// accepted cannot run: the form asks for a captcha and no token was given.
func (r *run) needsToken() bool {
	return r.schema != nil && r.schema.Meta.CaptchaProvider != "" && r.opts.CaptchaToken == ""
}

const noToken = "the form asks for a captcha and no captcha token was given"

// stored counts the form's stored submissions when the options can.
func (r *run) stored(ctx context.Context) (int, bool, error) {
	if r.opts.Stored == nil {
		return 0, false, nil
	}
	n, err := r.opts.Stored(ctx)
	return n, err == nil, err
}

func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
