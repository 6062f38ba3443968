package protocol_test

import (
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestSubmitRules: the hub enforces every rule and condition of the
// schema, whatever client sent the submission.
func TestSubmitRules(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name    string
		payload map[string]any
		want    map[string]string
	}{
		{"revealed and required", map[string]any{"source": "other"}, map[string]string{"sourceOther": "required"}},
		{"the form's own message", map[string]any{"source": "other", "sourceOther": "ab"},
			map[string]string{"sourceOther": "Say a bit more: 3 letters at least."}},
		{"requiredIf", map[string]any{"source": "other", "sourceOther": "radio", "news": true},
			map[string]string{"email": "required"}},
		{"pattern", map[string]any{"source": "other", "sourceOther": "radio", "code": "de123"},
			map[string]string{"code": "does not match the pattern [A-Z]{2}[0-9]{3}"}},
		{"max", map[string]any{"source": "other", "sourceOther": "radio", "guests": 9},
			map[string]string{"guests": "more than 8"}},
		{"step", map[string]any{"source": "other", "sourceOther": "radio", "guests": 2.5},
			map[string]string{"guests": "not a multiple of 1 from the minimum"}},
		{"date min", map[string]any{"source": "other", "sourceOther": "radio", "day": "2025-12-31"},
			map[string]string{"day": "less than 2026-01-01"}},
		{"maxItems", map[string]any{"source": "other", "sourceOther": "radio", "extras": []any{"a", "b", "c"}},
			map[string]string{"extras": "too many: at most 2"}},
		{"a shown step's required field", map[string]any{"source": "web"}, map[string]string{"company": "required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.submit("logic", hubclient.SubmitRequest{Payload: tt.payload})
			a := res.wantError(t, http.StatusUnprocessableEntity)
			if !maps.Equal(a.Fields, tt.want) {
				t.Errorf("fields %v, want %v", a.Fields, tt.want)
			}
		})
	}
	h.wantCount(0)
}

// TestSubmitDropsHidden: values and files of fields the conditions hide
// are not stored.
func TestSubmitDropsHidden(t *testing.T) {
	h := newHarness(t)
	logo := h.upload("logic", "logo", "logo.png", "image/png", []byte("png"))
	res := h.submit("logic", hubclient.SubmitRequest{
		Payload:     map[string]any{"source": "other", "sourceOther": "radio", "company": "ACME"},
		Attachments: []hubclient.Attachment{logo},
	})
	res.wantOK(t)
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1", len(subs))
	}
	wantPayload(t, subs[0].Payload, map[string]any{"source": "other", "sourceOther": "radio"})
	if len(subs[0].Attachments) != 0 {
		t.Errorf("attachments %v, want none: the step holding the file is skipped", subs[0].Attachments)
	}
	// Shown, the step's field is required and kept.
	res = h.submit("logic", hubclient.SubmitRequest{Payload: map[string]any{"source": "web", "company": "ACME", "sourceOther": "x"}})
	res.wantOK(t)
	var got []string
	for _, s := range h.Submissions() {
		got = append(got, string(s.Payload))
	}
	if !slices.Contains(got, `{"company":"ACME","source":"web"}`) {
		t.Errorf("payloads %v lack the shown step's value without the hidden one", got)
	}
}
