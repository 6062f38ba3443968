package main

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestHubRefusesPostsThatSkipRules: a post crafted past the app, straight
// to a running hub, cannot skip the demo survey's rules or conditions.
func TestHubRefusesPostsThatSkipRules(t *testing.T) {
	t.Parallel()
	forms := t.TempDir()
	if err := writeExampleForms(forms, captchaKeys{}, "http://127.0.0.1:8080"); err != nil {
		t.Fatal(err)
	}
	p := startHub(t, forms, t.TempDir())
	c := &hubclient.Client{HubURL: p.url}
	base := map[string]any{"name": "Jane", "email": "jane@example.com", "plan": "pro"}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		payload map[string]any
		field   string
	}{
		{"revealed field left out", with(map[string]any{"country": "other"}), "countryOther"},
		{"revealed field too short", with(map[string]any{"country": "other", "countryOther": "X"}), "countryOther"},
		{"number over its max", with(map[string]any{"age": 200}), "age"},
		{"too many choices", with(map[string]any{"features": []any{"forms", "uploads", "captcha"}}), "features"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Submit(context.Background(), "demo", "survey", &hubclient.SubmitRequest{Payload: tc.payload})
			var hubErr *hubclient.HubError
			if !errors.As(err, &hubErr) || hubErr.StatusCode != http.StatusUnprocessableEntity || hubErr.Fields[tc.field] == "" {
				t.Fatalf("Submit = %v, want 422 naming %s", err, tc.field)
			}
		})
	}
	// The hidden field's value is dropped; the rest is kept.
	res, err := c.Submit(context.Background(), "demo", "survey", &hubclient.SubmitRequest{Payload: with(map[string]any{"country": "fr", "countryOther": "Narnia"})})
	if err != nil || res.SubmissionID == "" {
		t.Fatalf("Submit = %v, %v", res, err)
	}
}
