package hubclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
)

// Plugin changes form values before they are split and sent.
type Plugin interface {
	// TransformValues may add, change or remove values in place.
	TransformValues(ctx context.Context, values map[string]any) error
}

// PluginFunc adapts a function to Plugin.
type PluginFunc func(ctx context.Context, values map[string]any) error

// TransformValues calls f.
func (f PluginFunc) TransformValues(ctx context.Context, values map[string]any) error {
	return f(ctx, values)
}

// PluginManager runs plugins in the order they were registered. A nil
// *PluginManager runs none. Register plugins before the manager is used;
// running them is safe for concurrent use.
type PluginManager struct {
	plugins []Plugin
}

// NewPluginManager returns a manager running plugins in order.
func NewPluginManager(plugins ...Plugin) *PluginManager {
	return &PluginManager{plugins: plugins}
}

// Register appends p.
func (m *PluginManager) Register(p Plugin) { m.plugins = append(m.plugins, p) }

// TransformValues runs the TransformValues phase of every plugin, stopping
// at the first error.
func (m *PluginManager) TransformValues(ctx context.Context, values map[string]any) error {
	if m == nil {
		return nil
	}
	for _, p := range m.plugins {
		if err := p.TransformValues(ctx, values); err != nil {
			return err
		}
	}
	return nil
}

// ErrNoCaptchaToken is returned by a captcha plugin when the posted values
// carry no token: the browser did not complete the challenge.
var ErrNoCaptchaToken = errors.New("captcha: no token was posted; complete the captcha and send again")

// MaxCaptchaTokenLength bounds a token; Turnstile's are at most 2048
// characters and reCAPTCHA's are shorter.
const MaxCaptchaTokenLength = 2048

// CaptchaPlugin is the server half of a captcha: it takes the token the
// browser posted, under the provider's own field name or TokenField, and
// puts it under its TokenField for the pipeline to send as captchaToken.
// The hub verifies the token; the secret key never leaves it.
type CaptchaPlugin struct {
	// Provider is CaptchaTurnstile or CaptchaRecaptchaV3.
	Provider string
	// SiteKey is the provider's public key, for rendering the widget.
	SiteKey string
	// TokenField is where the token is put; empty means TokenField
	// ("_captchaToken"), the only name the pipeline sends as captchaToken
	// besides the legacy "_turnstile".
	TokenField string
}

// NewCaptchaPlugin returns the plugin for a schema's meta.captchaProvider.
func NewCaptchaPlugin(provider, siteKey string) (*CaptchaPlugin, error) {
	p := &CaptchaPlugin{Provider: provider, SiteKey: siteKey}
	if p.ResponseField() == "" {
		return nil, fmt.Errorf("captcha provider %q: want %q or %q", provider, CaptchaTurnstile, CaptchaRecaptchaV3)
	}
	return p, nil
}

// ResponseField is the form field the provider's own script fills in:
// "cf-turnstile-response" or "g-recaptcha-response".
func (p *CaptchaPlugin) ResponseField() string {
	switch p.Provider {
	case CaptchaTurnstile:
		return "cf-turnstile-response"
	case CaptchaRecaptchaV3:
		return "g-recaptcha-response"
	}
	return ""
}

// TransformValues moves the posted token under TokenField and removes the
// provider's field, so that neither reaches the payload.
func (p *CaptchaPlugin) TransformValues(_ context.Context, values map[string]any) error {
	target := cmp.Or(p.TokenField, TokenField)
	var token string
	for _, name := range []string{target, TokenField, p.ResponseField(), LegacyTokenField} {
		if name == "" {
			continue
		}
		if token == "" {
			t, err := specialString(name, "a captcha token", values[name])
			if err != nil {
				return err
			}
			token = t
		}
		delete(values, name)
	}
	if token == "" {
		return ErrNoCaptchaToken
	}
	if len(token) > MaxCaptchaTokenLength {
		return fmt.Errorf("captcha: token of %d characters is longer than %d", len(token), MaxCaptchaTokenLength)
	}
	values[target] = token
	return nil
}
