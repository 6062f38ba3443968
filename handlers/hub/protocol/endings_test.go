package protocol_test

import (
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// endingsForm ends three ways: a big party, a company (whose VAT number
// a box reveals), and the rest. "vip" reads the VAT number, which the
// box hides again when it is cleared.
const endingsForm = `{
  "fields": [
    {"name": "guests", "type": "number"},
    {"name": "company", "type": "checkbox"},
    {"name": "vat", "type": "text", "visibleIf": {"var": "company"}},
    {"name": "cv", "type": "file"}
  ],
  "steps": [{"id": "main", "fields": ["guests", "company", "vat", "cv"]}],
  "endings": [
    {"id": "vip", "title": "Our sales team will call", "if": {"!!": {"var": "vat"}}},
    {"id": "crowd", "title": "Big party", "if": {">": [{"var": "guests"}, 5]}},
    {"id": "applied", "title": "We read your CV", "if": {"!!": {"var": "cv"}}},
    {"id": "rest", "title": "Thanks"}
  ]
}`

// TestSubmitEnding: the hub decides the ending from the values it stores,
// answers it and stores it with the submission; an ending a client names
// is not read.
func TestSubmitEnding(t *testing.T) {
	h := newHarnessWithForms(t, func(dir string) { writeFile(t, dir+"/acme/party.json", endingsForm) })
	cv := h.upload("party", "cv", "cv.pdf", "application/pdf", []byte("%PDF"))
	tests := []struct {
		name string
		body any
		want string
	}{
		{"the first that holds", hubclient.SubmitRequest{Payload: map[string]any{"guests": 9, "company": true, "vat": "DE1"}}, "vip"},
		{"a later one", hubclient.SubmitRequest{Payload: map[string]any{"guests": 9}}, "crowd"},
		{"a hidden field's value is dropped first", hubclient.SubmitRequest{Payload: map[string]any{"company": false, "vat": "DE1"}}, "rest"},
		{"a file", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{cv}}, "applied"},
		{"a forged ending", map[string]any{"payload": map[string]any{"guests": 1}, "ending": "vip"}, "rest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := h.submit("party", tt.body).wantOK(t)
			if a.Ending != tt.want {
				t.Errorf("ending %q, want %q", a.Ending, tt.want)
			}
			for _, s := range h.Submissions() {
				if s.ID == a.SubmissionID && s.Ending != tt.want {
					t.Errorf("stored ending %q, want %q", s.Ending, tt.want)
				}
			}
		})
	}
	// A forged ending in the payload is no field of the form.
	h.submit("party", hubclient.SubmitRequest{Payload: map[string]any{"ending": "vip"}}).wantError(t, 422)

	// A repeat is answered with the first send's ending, whatever it holds.
	first := h.submit("party", hubclient.SubmitRequest{Payload: map[string]any{"guests": 9}, IdempotencyKey: "k1"}).wantOK(t)
	again := h.submit("party", hubclient.SubmitRequest{Payload: map[string]any{"guests": 1}, IdempotencyKey: "k1"}).wantOK(t)
	if first.Ending != "crowd" || again.SubmissionID != first.SubmissionID || again.Ending != "crowd" {
		t.Errorf("first %+v, repeat %+v; want the repeat answered with the first's id and ending crowd", first, again)
	}

	// A form without endings answers none.
	if a := h.submit("contact", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}).wantOK(t); a.Ending != "" {
		t.Errorf("contact: ending %q, want none", a.Ending)
	}
}
