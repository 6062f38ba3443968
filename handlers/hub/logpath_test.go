package hub_test

import (
	"testing"

	"github.com/hubform/hubform/handlers/hub"
)

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://hooks.example.com/services/T0/B0/tok?key=1": "https://hooks.example.com/…",
		"https://hooks.example.com":                          "https://hooks.example.com",
		"https://user:pw@hooks.example.com/x":                "https://hooks.example.com/…",
		"::not a url":                                        "…",
	} {
		if got := hub.RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
