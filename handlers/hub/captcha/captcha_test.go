package captcha

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// siteverify is a stand-in for a provider's siteverify endpoint: it
// records the requests it gets and answers with status and body.
type siteverify struct {
	t      *testing.T
	status int
	body   string

	mu       sync.Mutex
	requests []*http.Request
	forms    []url.Values
}

func newSiteverify(t *testing.T, status int, body string) (*siteverify, *httptest.Server) {
	sv := &siteverify{t: t, status: status, body: body}
	srv := httptest.NewServer(sv)
	t.Cleanup(srv.Close)
	return sv, srv
}

func (sv *siteverify) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		sv.t.Errorf("reading request: %v", err)
	}
	form, err := url.ParseQuery(string(raw))
	if err != nil {
		sv.t.Errorf("request body %q: %v", raw, err)
	}
	sv.mu.Lock()
	sv.requests = append(sv.requests, r)
	sv.forms = append(sv.forms, form)
	sv.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(sv.status)
	io.WriteString(w, sv.body)
}

func (sv *siteverify) calls() int {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return len(sv.requests)
}

func verifier(srv *httptest.Server) *Verifier {
	return &Verifier{HTTPClient: srv.Client(), TurnstileURL: srv.URL + "/turnstile", RecaptchaURL: srv.URL + "/recaptcha"}
}

func turnstile(token string) Request {
	return Request{Provider: "turnstile", Secret: "1x0000000000000000000000000000000AA", Token: token, RemoteIP: "203.0.113.7"}
}

func recaptcha(token string) Request {
	return Request{Provider: "recaptcha-v3", Secret: "recaptcha-secret", Token: token}
}

func TestVerify(t *testing.T) {
	type want int
	const (
		accepted want = iota
		refused
		failed // could not check: the hub answers 503
	)
	tests := []struct {
		name   string
		status int
		body   string
		req    Request
		want   want
		codes  []string
		reason string // in the error, when not accepted
	}{
		{"turnstile pass", 200, `{"success": true, "error-codes": [], "challenge_ts": "2026-01-01T00:00:00Z", "hostname": "example.com"}`,
			turnstile("XXXX.DUMMY.TOKEN.XXXX"), accepted, nil, ""},
		{"turnstile invalid", 200, `{"success": false, "error-codes": ["invalid-input-response"]}`,
			turnstile("bad"), refused, []string{"invalid-input-response"}, "invalid-input-response"},
		{"turnstile reused", 200, `{"success": false, "error-codes": ["timeout-or-duplicate"]}`,
			turnstile("used"), refused, []string{"timeout-or-duplicate"}, "timeout-or-duplicate"},
		{"turnstile no codes", 200, `{"success": false}`,
			turnstile("bad"), refused, nil, "invalid"},
		{"turnstile bad secret", 200, `{"success": false, "error-codes": ["invalid-input-secret"]}`,
			turnstile("tok"), failed, nil, "invalid-input-secret"},
		{"turnstile internal error", 200, `{"success": false, "error-codes": ["internal-error"]}`,
			turnstile("tok"), failed, nil, "internal-error"},
		{"turnstile action not checked", 200, `{"success": true, "action": "other"}`,
			Request{Provider: "turnstile", Secret: "s", Token: "t", Action: "contact"}, accepted, nil, ""},
		{"recaptcha pass", 200, `{"success": true, "score": 0.9, "action": "contact", "hostname": "example.com"}`,
			recaptcha("tok"), accepted, nil, ""},
		{"recaptcha default threshold", 200, `{"success": true, "score": 0.5}`,
			recaptcha("tok"), accepted, nil, ""},
		{"recaptcha low score", 200, `{"success": true, "score": 0.3}`,
			recaptcha("tok"), refused, nil, "score 0.3 is below 0.5"},
		{"recaptcha below own threshold", 200, `{"success": true, "score": 0.6}`,
			Request{Provider: "recaptcha-v3", Secret: "s", Token: "t", MinScore: 0.7}, refused, nil, "score 0.6 is below 0.7"},
		{"recaptcha above own threshold", 200, `{"success": true, "score": 0.3}`,
			Request{Provider: "recaptcha-v3", Secret: "s", Token: "t", MinScore: 0.2}, accepted, nil, ""},
		{"recaptcha action", 200, `{"success": true, "score": 0.9, "action": "contact"}`,
			Request{Provider: "recaptcha-v3", Secret: "s", Token: "t", Action: "contact"}, accepted, nil, ""},
		{"recaptcha action mismatch", 200, `{"success": true, "score": 0.9, "action": "login"}`,
			Request{Provider: "recaptcha-v3", Secret: "s", Token: "t", Action: "contact"}, refused, nil, `action "login" is not "contact"`},
		{"recaptcha expired", 200, `{"success": false, "error-codes": ["timeout-or-duplicate"]}`,
			recaptcha("old"), refused, []string{"timeout-or-duplicate"}, "timeout-or-duplicate"},
		{"recaptcha without score", 200, `{"success": true}`,
			recaptcha("v2"), failed, nil, "without a score"},
		{"status 500", 500, `{"success": true}`, turnstile("tok"), failed, nil, "500"},
		{"status 302", 302, ``, turnstile("tok"), failed, nil, "302"},
		{"status 429", 429, `{"success": false}`, recaptcha("tok"), failed, nil, "429"},
		{"garbage", 200, `<html>oops</html>`, turnstile("tok"), failed, nil, "malformed answer"},
		{"empty answer", 200, ``, turnstile("tok"), failed, nil, "malformed answer"},
		{"no success member", 200, `{"error-codes": []}`, turnstile("tok"), failed, nil, `no "success"`},
		{"success not boolean", 200, `{"success": "true"}`, turnstile("tok"), failed, nil, "malformed answer"},
		{"answer too long", 200, `{"success": true, "x": "` + strings.Repeat("x", 64<<10) + `"}`, turnstile("tok"), failed, nil, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sv, srv := newSiteverify(t, tt.status, tt.body)
			err := verifier(srv).Verify(context.Background(), tt.req)
			if sv.calls() != 1 {
				t.Errorf("siteverify called %d times, want once", sv.calls())
			}
			var refusal *RefusedError
			switch {
			case tt.want == accepted:
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				return
			case err == nil:
				t.Fatal("Verify accepted the token")
			case tt.want == refused && !errors.As(err, &refusal):
				t.Fatalf("Verify: %v (%T), want a *RefusedError", err, err)
			case tt.want == failed && errors.As(err, &refusal):
				t.Fatalf("Verify: %v, want an error other than *RefusedError", err)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q lacks %q", err, tt.reason)
			}
			if refusal != nil {
				if refusal.Provider != tt.req.Provider || !reflect.DeepEqual(refusal.Codes, tt.codes) {
					t.Errorf("RefusedError = %+v, want provider %q, codes %q", refusal, tt.req.Provider, tt.codes)
				}
			}
		})
	}
}

func TestVerifySends(t *testing.T) {
	sv, srv := newSiteverify(t, 200, `{"success": true, "score": 0.9}`)
	v := verifier(srv)
	ctx := context.Background()
	if err := v.Verify(ctx, turnstile("tur&n=stile")); err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(ctx, recaptcha("re+captcha")); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		path string
		form url.Values
	}{
		{"/turnstile", url.Values{"secret": {"1x0000000000000000000000000000000AA"}, "response": {"tur&n=stile"}, "remoteip": {"203.0.113.7"}}},
		{"/recaptcha", url.Values{"secret": {"recaptcha-secret"}, "response": {"re+captcha"}}}, // no remoteip when unknown
	}
	if len(sv.requests) != len(want) {
		t.Fatalf("%d requests, want %d", len(sv.requests), len(want))
	}
	for i, w := range want {
		r := sv.requests[i]
		if r.Method != http.MethodPost || r.URL.Path != w.path {
			t.Errorf("request %d: %s %s, want POST %s", i, r.Method, r.URL.Path, w.path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
			t.Errorf("request %d: Content-Type %q", i, ct)
		}
		if r.URL.RawQuery != "" {
			t.Errorf("request %d: query %q; the secret belongs in the body", i, r.URL.RawQuery)
		}
		if !reflect.DeepEqual(sv.forms[i], w.form) {
			t.Errorf("request %d: form %v, want %v", i, sv.forms[i], w.form)
		}
	}
}

func TestVerifyRefusesWithoutCalling(t *testing.T) {
	tests := []struct {
		name    string
		req     Request
		refused bool
		reason  string
	}{
		{"no token", turnstile(""), true, "no token"},
		{"token too long", turnstile(strings.Repeat("t", 2049)), true, "longer than 2048"},
		{"no secret", Request{Provider: "turnstile", Token: "t"}, false, "no turnstile secret"},
		{"unknown provider", Request{Provider: "hcaptcha", Secret: "s", Token: "t"}, false, `unknown provider "hcaptcha"`},
		{"no provider", Request{Secret: "s", Token: "t"}, false, "unknown provider"},
	}
	sv, srv := newSiteverify(t, 200, `{"success": true, "score": 1}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verifier(srv).Verify(context.Background(), tt.req)
			var refusal *RefusedError
			if err == nil || errors.As(err, &refusal) != tt.refused {
				t.Fatalf("Verify: %v, want refused %v", err, tt.refused)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q lacks %q", err, tt.reason)
			}
		})
	}
	if sv.calls() != 0 {
		t.Errorf("siteverify called %d times", sv.calls())
	}
	// The longest token is still sent.
	if err := verifier(srv).Verify(context.Background(), turnstile(strings.Repeat("t", 2048))); err != nil {
		t.Errorf("token of 2048 bytes: %v", err)
	}
}

func TestVerifyUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	v := &Verifier{TurnstileURL: "http://" + addr + "/siteverify"}
	err = v.Verify(context.Background(), turnstile("tok"))
	var refusal *RefusedError
	if err == nil || errors.As(err, &refusal) {
		t.Fatalf("Verify: %v, want an error other than *RefusedError", err)
	}
}

func TestVerifyDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := verifier(srv).Verify(ctx, recaptcha("tok"))
	var refusal *RefusedError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &refusal) {
		t.Fatalf("Verify: %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Verify returned after %v", d)
	}
}

func TestVerifyDefaults(t *testing.T) {
	// Without overrides, the real endpoints are used; a transport that
	// records instead of sending keeps the test off the network.
	var got []string
	v := &Verifier{HTTPClient: &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.String())
		return nil, errors.New("not sent")
	})}}
	v.Verify(context.Background(), turnstile("tok"))
	v.Verify(context.Background(), recaptcha("tok"))
	want := []string{TurnstileVerifyURL, RecaptchaVerifyURL}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("endpoints %q, want %q", got, want)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRefusedError(t *testing.T) {
	err := &RefusedError{Provider: "turnstile", Codes: []string{"invalid-input-response", "timeout-or-duplicate"}, Reason: "invalid"}
	want := "captcha: turnstile refused the token: invalid (invalid-input-response, timeout-or-duplicate)"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
}
