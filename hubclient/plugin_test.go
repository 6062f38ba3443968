package hubclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestCaptchaPluginTakesTheProvidersToken(t *testing.T) {
	for _, tc := range []struct {
		name     string
		provider string
		field    string // token field of the plugin; empty is the default
		values   map[string]any
		want     map[string]any
		err      error
	}{
		{"turnstile's own field", hubclient.CaptchaTurnstile, "",
			map[string]any{"cf-turnstile-response": "T1", "a": "x"}, map[string]any{"_captchaToken": "T1", "a": "x"}, nil},
		{"recaptcha's own field", hubclient.CaptchaRecaptchaV3, "",
			map[string]any{"g-recaptcha-response": []string{"R1"}}, map[string]any{"_captchaToken": "R1"}, nil},
		{"already under _captchaToken wins", hubclient.CaptchaTurnstile, "",
			map[string]any{"_captchaToken": "A", "cf-turnstile-response": "B"}, map[string]any{"_captchaToken": "A"}, nil},
		{"legacy _turnstile", hubclient.CaptchaTurnstile, "",
			map[string]any{"_turnstile": "L"}, map[string]any{"_captchaToken": "L"}, nil},
		{"custom token field", hubclient.CaptchaTurnstile, "_token",
			map[string]any{"cf-turnstile-response": "T"}, map[string]any{"_token": "T"}, nil},
		{"no token", hubclient.CaptchaRecaptchaV3, "",
			map[string]any{"a": "x", "g-recaptcha-response": ""}, nil, hubclient.ErrNoCaptchaToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := hubclient.NewCaptchaPlugin(tc.provider, "site-key")
			if err != nil {
				t.Fatal(err)
			}
			p.TokenField = tc.field
			err = p.TransformValues(context.Background(), tc.values)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if tc.err == nil && !equalValues(tc.values, tc.want) {
				t.Errorf("values %v, want %v", tc.values, tc.want)
			}
		})
	}
}

func equalValues(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestCaptchaPluginRefusesOverlongTokens(t *testing.T) {
	p, _ := hubclient.NewCaptchaPlugin(hubclient.CaptchaTurnstile, "k")
	err := p.TransformValues(context.Background(), map[string]any{"cf-turnstile-response": strings.Repeat("x", 2049)})
	if err == nil || !strings.Contains(err.Error(), "longer than 2048") {
		t.Errorf("error %v", err)
	}
}

func TestNewCaptchaPluginRefusesUnknownProviders(t *testing.T) {
	if _, err := hubclient.NewCaptchaPlugin("hcaptcha", "k"); err == nil || !strings.Contains(err.Error(), `"hcaptcha"`) {
		t.Errorf("error %v", err)
	}
}

// TestPipelineSendsThePluginsToken runs the captcha plugin in the submit
// pipeline: the provider's field never reaches the payload, the token goes
// out as captchaToken, and without a token nothing is sent at all.
func TestPipelineSendsThePluginsToken(t *testing.T) {
	h := newHub(t)
	captcha, _ := hubclient.NewCaptchaPlugin(hubclient.CaptchaTurnstile, "k")
	var order []string
	plugins := hubclient.NewPluginManager(captcha)
	plugins.Register(hubclient.PluginFunc(func(_ context.Context, v map[string]any) error {
		order = append(order, v["_captchaToken"].(string))
		v["stamped"] = "yes"
		return nil
	}))
	submit := submitter(h, hubclient.SubmitOptions{Plugins: plugins})
	if _, err := submit.OnSubmit(context.Background(), map[string]any{"cf-turnstile-response": "TOKEN", "a": "1"}); err != nil {
		t.Fatal(err)
	}
	got := h.Submissions()[0].Request
	if got.CaptchaToken != "TOKEN" || len(got.Payload) != 2 || got.Payload["stamped"] != "yes" || len(order) != 1 {
		t.Errorf("sent %+v; plugins ran %v", got, order)
	}

	_, err := submit.OnSubmit(context.Background(), map[string]any{"a": "1"})
	var serr *hubclient.SubmitError
	if !errors.As(err, &serr) || !errors.Is(err, hubclient.ErrNoCaptchaToken) || len(h.Requests()) != 1 {
		t.Errorf("without a token: %v after %d requests", err, len(h.Requests()))
	}
}

func TestNilPluginManagerRunsNothing(t *testing.T) {
	var m *hubclient.PluginManager
	if err := m.TransformValues(context.Background(), map[string]any{}); err != nil {
		t.Error(err)
	}
}
