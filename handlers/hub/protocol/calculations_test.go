package protocol_test

import (
	"reflect"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// quizForm prices a party and scores two questions; the second is asked
// only of those who say they know wine.
const quizForm = `{
  "fields": [
    {"name": "guests", "type": "number"},
    {"name": "capital", "type": "radio", "options": [{"value": "paris", "correct": true}, "lyon"]},
    {"name": "wine", "type": "checkbox"},
    {"name": "grapes", "type": "checkboxes", "visibleIf": {"var": "wine"}, "options": [{"value": "merlot", "correct": true, "points": 2}, {"value": "syrah", "correct": true, "points": 2}, "potato"]}
  ],
  "steps": [{"id": "main", "fields": ["guests", "capital", "wine", "grapes"]}],
  "calculations": [
    {"name": "total", "expr": {"*": [{"var": "guests"}, 35]}, "format": "currency", "currency": "EUR"},
    {"name": "score", "expr": {"+": [{"points": "capital"}, {"points": "grapes"}]}}
  ],
  "quiz": {"showAnswers": true}
}`

// TestSubmitCalculations: the hub works the calculations out from the
// values it stores and stores them with the submission; a value sent
// under a calculation's name is ignored, and a quiz's answer carries the
// score and the right and wrong answers.
func TestSubmitCalculations(t *testing.T) {
	h := newHarnessWithForms(t, func(dir string) { writeFile(t, dir+"/acme/quiz.json", quizForm) })
	score := func(f float64) *float64 { return &f }
	tests := []struct {
		name      string
		payload   map[string]any
		calcs     map[string]any
		score     *float64
		answers   map[string]bool
		forgedOut bool
	}{
		{"all right", map[string]any{"guests": 3, "capital": "paris", "wine": true, "grapes": []string{"merlot", "syrah"}},
			map[string]any{"total": 105.0, "score": 5.0}, score(5), map[string]bool{"capital": true, "grapes": true}, false},
		{"a wrong choice among the right", map[string]any{"capital": "lyon", "wine": true, "grapes": []string{"merlot", "potato"}},
			map[string]any{"total": nil, "score": 2.0}, score(2), map[string]bool{"capital": false, "grapes": false}, false},
		{"a hidden question counts nothing", map[string]any{"guests": 1, "capital": "paris", "grapes": []string{"merlot", "syrah"}},
			map[string]any{"total": 35.0, "score": 1.0}, score(1), map[string]bool{"capital": true}, false},
		{"forged calculations are ignored", map[string]any{"guests": 1, "total": 1, "score": 100},
			map[string]any{"total": 35.0, "score": 0.0}, score(0), map[string]bool{"capital": false}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := h.submit("quiz", hubclient.SubmitRequest{Payload: tt.payload}).wantOK(t)
			if !reflect.DeepEqual(a.Score, tt.score) || !reflect.DeepEqual(a.Answers, tt.answers) {
				t.Errorf("answer score %v answers %v, want %v %v", deref(a.Score), a.Answers, deref(tt.score), tt.answers)
			}
			found := false
			for _, s := range h.Submissions() {
				if s.ID != a.SubmissionID {
					continue
				}
				found = true
				if !reflect.DeepEqual(s.Calculations, tt.calcs) {
					t.Errorf("stored calculations %#v, want %#v", s.Calculations, tt.calcs)
				}
				if tt.forgedOut && (string(s.Payload) != `{"guests":1}`) {
					t.Errorf("stored payload %s, want the forged values dropped", s.Payload)
				}
			}
			if !found {
				t.Fatal("submission not stored")
			}
		})
	}
	// A repeat is answered with the first send's score.
	first := h.submit("quiz", hubclient.SubmitRequest{Payload: map[string]any{"capital": "paris"}, IdempotencyKey: "k1"}).wantOK(t)
	again := h.submit("quiz", hubclient.SubmitRequest{Payload: map[string]any{"capital": "lyon"}, IdempotencyKey: "k1"}).wantOK(t)
	if deref(first.Score) != 1.0 || again.SubmissionID != first.SubmissionID || deref(again.Score) != 1.0 || !again.Answers["capital"] {
		t.Errorf("first %+v, repeat %+v; want the repeat answered with the first's score", first, again)
	}
	// A form that is no quiz tells no score.
	if a := h.submit("contact", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}).wantOK(t); a.Score != nil || a.Answers != nil {
		t.Errorf("contact: score %v answers %v, want none", a.Score, a.Answers)
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
