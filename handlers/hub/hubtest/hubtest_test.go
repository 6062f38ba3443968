package hubtest_test

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

const contactForm = `{"fields": [{"name": "name", "type": "text", "required": true}], "steps": [{"id": "main", "fields": ["name"]}]}`

// TestStart checks that the hub stores what a client submits, answers a
// fault once, and hands its configuration to configure.
func TestStart(t *testing.T) {
	configured := false
	h := hubtest.Start(t, map[string]string{"acme/contact": contactForm}, func(c *protocol.Config) {
		configured = c.Forms != nil && c.Store != nil && c.Blobs != nil && c.Uploads != nil && c.Drafts != nil && c.Logger != nil
	})
	if !configured {
		t.Error("configure was not given the hub's forms, stores and logger")
	}
	client := &hubclient.Client{HubURL: h.URL}
	req := &hubclient.SubmitRequest{Payload: map[string]any{"name": "Jo"}}

	h.FailNext("/submit", http.StatusServiceUnavailable, "database locked")
	var failed *hubclient.HubError
	if _, err := client.Submit(t.Context(), "acme", "contact", req); !errors.As(err, &failed) ||
		failed.StatusCode != http.StatusServiceUnavailable || failed.Message != "database locked" {
		t.Fatalf("first submit: %v, want the fault: 503, database locked", err)
	}
	if _, err := client.Submit(t.Context(), "acme", "contact", req); err != nil {
		t.Fatalf("second submit: %v", err)
	}
	subs := h.Submissions()
	if len(subs) != 1 || subs[0].Site != "acme" || subs[0].Slug != "contact" || !strings.Contains(string(subs[0].Payload), `"Jo"`) {
		t.Errorf("stored %+v, want the second submission alone", subs)
	}
}

// TestNewUnstarted checks that a hub's URL, stores and forms are there
// before it starts, that nothing is served until then, and that Intercept
// sees every request first.
func TestNewUnstarted(t *testing.T) {
	h := hubtest.NewUnstarted(t, map[string]string{"acme/contact": contactForm})
	if h.DB == nil || h.Blobs == nil || h.Forms == nil || !strings.HasSuffix(h.URL, "/v1") || h.Protocol != nil {
		t.Fatalf("before Start: URL %q, DB %v, Blobs %v, Forms %v, Protocol %v", h.URL, h.DB, h.Blobs, h.Forms, h.Protocol)
	}
	if _, err := h.Forms.Lookup("acme", "contact"); err != nil {
		t.Fatalf("the forms directory does not serve the form: %v", err)
	}
	var seen atomic.Int32
	h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		seen.Add(1)
		if r.URL.Path == "/v1/acme/teapot.json" {
			w.WriteHeader(http.StatusTeapot)
			return true
		}
		return false
	}
	h.Start()
	client := &hubclient.Client{HubURL: h.URL}
	if _, err := client.Schema(t.Context(), "acme", "contact"); err != nil {
		t.Fatalf("schema: %v", err)
	}
	res, err := http.Get(h.URL + "/acme/teapot.json")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTeapot || seen.Load() != 2 {
		t.Errorf("status %d after %d intercepted requests, want 418 after 2", res.StatusCode, seen.Load())
	}
	if !strings.Contains(h.Log.String(), "request") {
		t.Errorf("the log holds no request:\n%s", h.Log)
	}
}
