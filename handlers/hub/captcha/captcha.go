package captcha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// The providers' verification endpoints.
const (
	TurnstileVerifyURL = "https://challenges.cloudflare.com/turnstile/v0/siteverify"
	RecaptchaVerifyURL = "https://www.google.com/recaptcha/api/siteverify"
)

const (
	// maxTokenLen is the longest token either provider issues; longer ones
	// are refused without asking.
	maxTokenLen = 2048
	// maxAnswer bounds the provider's answer, which is a few hundred bytes.
	maxAnswer = 64 << 10
	// defaultMinScore is the reCAPTCHA v3 threshold Google suggests.
	defaultMinScore = 0.5
)

// defaultClient is used when Verifier.HTTPClient is nil. Its timeout keeps
// a hung provider from holding a submission for longer than a person waits.
var defaultClient = &http.Client{Timeout: 10 * time.Second}

// Verifier checks captcha tokens. The zero value calls the real providers.
// Its methods are safe for concurrent use.
type Verifier struct {
	// HTTPClient makes the calls; nil means a client with a 10 s timeout.
	HTTPClient *http.Client
	// TurnstileURL and RecaptchaURL replace TurnstileVerifyURL and
	// RecaptchaVerifyURL when set, for tests and stand-in servers.
	TurnstileURL, RecaptchaURL string
}

// Request is one token to verify.
type Request struct {
	// Provider is hubclient.CaptchaTurnstile or hubclient.CaptchaRecaptchaV3.
	Provider string
	// Secret is the provider's secret key for the site.
	Secret string
	// Token is what the widget gave the browser (the submission's
	// captchaToken).
	Token string
	// RemoteIP is the submitter's address, passed on to the provider when
	// set.
	RemoteIP string
	// MinScore is the lowest reCAPTCHA v3 score accepted; zero means 0.5.
	MinScore float64
	// Action, when set, must equal the action of a reCAPTCHA v3 token.
	Action string
}

// RefusedError reports a token the provider, or Verify itself, refused:
// missing, malformed, invalid, expired, already used, scored too low or
// made for another action.
type RefusedError struct {
	Provider string
	// Codes are the provider's error codes, if it gave any.
	Codes []string
	// Reason says why, for people.
	Reason string
}

func (e *RefusedError) Error() string {
	msg := "captcha: " + e.Provider + " refused the token: " + e.Reason
	if len(e.Codes) > 0 {
		msg += " (" + strings.Join(e.Codes, ", ") + ")"
	}
	return msg
}

// answer is a siteverify answer; the two providers share these members.
type answer struct {
	Success    *bool    `json:"success"`
	ErrorCodes []string `json:"error-codes"`
	Score      *float64 `json:"score"`
	Action     string   `json:"action"`
}

// hubFaults are error codes that blame the caller, not the token: a wrong
// or missing secret, a malformed request or the provider itself. A token
// cannot be judged then, so Verify fails closed instead of refusing it.
var hubFaults = []string{"missing-input-secret", "invalid-input-secret", "bad-request", "internal-error"}

// Verify asks the provider whether r.Token is good. It returns nil when
// the provider accepts it, a *RefusedError when the token is bad, and any
// other error when the token could not be checked: unknown provider, no
// secret, provider unreachable or answering with other than 2xx or with
// something other than a siteverify answer. The caller must treat all
// errors as a refusal.
func (v *Verifier) Verify(ctx context.Context, r Request) error {
	endpoint, err := v.endpoint(r.Provider)
	if err != nil {
		return err
	}
	if r.Secret == "" {
		return fmt.Errorf("captcha: no %s secret configured", r.Provider)
	}
	switch {
	case r.Token == "":
		return &RefusedError{Provider: r.Provider, Reason: "no token"}
	case len(r.Token) > maxTokenLen:
		return &RefusedError{Provider: r.Provider, Reason: fmt.Sprintf("token longer than %d bytes", maxTokenLen)}
	}

	a, err := v.post(ctx, endpoint, r)
	if err != nil {
		return fmt.Errorf("captcha: %s siteverify: %w", r.Provider, err)
	}
	if !*a.Success {
		for _, code := range a.ErrorCodes {
			if slices.Contains(hubFaults, code) {
				return fmt.Errorf("captcha: %s siteverify cannot check tokens: %s", r.Provider, strings.Join(a.ErrorCodes, ", "))
			}
		}
		return &RefusedError{Provider: r.Provider, Codes: a.ErrorCodes, Reason: "invalid, expired or already used"}
	}
	if r.Provider != hubclient.CaptchaRecaptchaV3 {
		return nil
	}

	if a.Score == nil {
		// Only v2 keys answer without a score: a configuration error.
		return fmt.Errorf("captcha: %s siteverify answered without a score; is the secret a reCAPTCHA v3 key?", r.Provider)
	}
	minScore := r.MinScore
	if minScore == 0 {
		minScore = defaultMinScore
	}
	if *a.Score < minScore {
		return &RefusedError{Provider: r.Provider, Codes: a.ErrorCodes, Reason: fmt.Sprintf("score %v is below %v", *a.Score, minScore)}
	}
	if r.Action != "" && a.Action != r.Action {
		return &RefusedError{Provider: r.Provider, Codes: a.ErrorCodes, Reason: fmt.Sprintf("action %q is not %q", a.Action, r.Action)}
	}
	return nil
}

func (v *Verifier) endpoint(provider string) (string, error) {
	switch provider {
	case hubclient.CaptchaTurnstile:
		if v.TurnstileURL != "" {
			return v.TurnstileURL, nil
		}
		return TurnstileVerifyURL, nil
	case hubclient.CaptchaRecaptchaV3:
		if v.RecaptchaURL != "" {
			return v.RecaptchaURL, nil
		}
		return RecaptchaVerifyURL, nil
	}
	return "", fmt.Errorf("captcha: unknown provider %q", provider)
}

// post sends the token to endpoint and decodes the answer, which has a
// success member when post returns no error.
func (v *Verifier) post(ctx context.Context, endpoint string, r Request) (*answer, error) {
	form := url.Values{"secret": {r.Secret}, "response": {r.Token}}
	if r.RemoteIP != "" {
		form.Set("remoteip", r.RemoteIP)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")

	client := v.HTTPClient
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("reading answer: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	if len(body) > maxAnswer {
		return nil, fmt.Errorf("answer longer than %d bytes", maxAnswer)
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("malformed answer: %w", err)
	}
	if a.Success == nil {
		return nil, errors.New(`malformed answer: no "success"`)
	}
	return &a, nil
}
