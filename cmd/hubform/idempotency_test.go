package main

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// TestOneSubmissionPerRendering posts one rendering of the demo's contact
// form twice, as a double click without JavaScript or a retry after a lost
// answer does, through the demo to a hub, both running as processes: the
// hub stores one submission. A second rendering is a second submission.
func TestOneSubmissionPerRendering(t *testing.T) {
	t.Parallel()
	forms, data := t.TempDir(), t.TempDir()
	if err := writeExampleForms(forms, captchaKeys{}, "http://127.0.0.1:8080"); err != nil {
		t.Fatal(err)
	}
	h := startHub(t, forms, data)
	demo := startDemo(t, "--hub-url", h.url)
	v := newVisitor(t, demo, "127.0.0.1")
	if v.key == "" {
		t.Fatal("the rendered form carries no idempotency key")
	}
	same := url.Values{hubclient.IdempotencyKeyField: {v.key}}
	for i := 1; i <= 2; i++ {
		if got := v.post(nil, same); got != "submitted" {
			t.Fatalf("post %d of one rendering: %s", i, got)
		}
	}
	again := newVisitor(t, demo, "127.0.0.1")
	if again.key == v.key {
		t.Fatalf("two renderings share the key %q", v.key)
	}
	if got := again.post(nil, url.Values{hubclient.IdempotencyKeyField: {again.key}}); got != "submitted" {
		t.Fatalf("post of a second rendering: %s", got)
	}

	status, stdout, stderr := hubform(t, "submissions", "export", "--data", data, "--format", "json")
	var stored []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &stored) != nil {
		t.Fatalf("export: status %d, %q %q", status, stdout, stderr)
	}
	perKey := map[string]int{}
	for _, s := range stored {
		perKey[s.IdempotencyKey]++
	}
	if len(stored) != 2 || perKey[v.key] != 1 || perKey[again.key] != 1 {
		t.Errorf("stored %d submissions by key %v, want one for each rendering (%q, %q)", len(stored), perKey, v.key, again.key)
	}
}
