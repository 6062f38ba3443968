package fakehub_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

func TestIdempotencyKey(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	c := &hubclient.Client{HubURL: h.URL}
	submit := func(form, key, name string) (*hubclient.SubmitResponse, error) {
		return c.Submit(context.Background(), "acme", form, &hubclient.SubmitRequest{
			Payload: map[string]any{"name": name}, IdempotencyKey: key,
		})
	}
	mustID := func(form, key, name string) string {
		t.Helper()
		res, err := submit(form, key, name)
		if err != nil || !res.OK || res.SubmissionID == "" {
			t.Fatalf("submit(%s, %q): %+v, %v", form, key, res, err)
		}
		return res.SubmissionID
	}

	first := mustID("contact", "k1", "Jane")
	if again := mustID("contact", "k1", "Jane again"); again != first {
		t.Errorf("repeated key answered %s, want the first id %s", again, first)
	}
	other := mustID("survey", "k1", "Jane")                                // another form: its own key
	second := mustID("contact", "k2", "Jane")                              // another key
	none1, none2 := mustID("contact", "", "a"), mustID("contact", "", "a") // no key: never merged
	ids := map[string]bool{first: true, other: true, second: true, none1: true, none2: true}
	if len(ids) != 5 {
		t.Errorf("ids %v %v %v %v %v, want five different", first, other, second, none1, none2)
	}
	subs := h.Submissions()
	if len(subs) != 5 {
		t.Fatalf("%d submissions stored, want 5", len(subs))
	}
	if subs[0].Request.Payload["name"] != "Jane" || subs[0].Request.IdempotencyKey != "k1" {
		t.Errorf("first submission %+v, want the first payload and key k1", subs[0].Request)
	}

	// A key the protocol does not allow is refused.
	_, err := submit("contact", "bad\nkey", "Jane")
	var herr *hubclient.HubError
	if !errors.As(err, &herr) || herr.StatusCode != http.StatusBadRequest {
		t.Errorf("bad key: %v, want a 400", err)
	}
	if n := len(h.Submissions()); n != 5 {
		t.Errorf("%d submissions stored after a bad key, want 5", n)
	}
}

// TestValidatesAsTheHub: a submission to a form the fake was given is
// judged by hubclient.CheckPayload, as the hub judges it; one to a form it
// was not given is kept as sent.
func TestValidatesAsTheHub(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	h.SetForm("acme", "survey", &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "stars", Type: hubclient.FieldRating},
		{Name: "order", Type: hubclient.FieldRanking, Options: []hubclient.Option{{Value: "a"}, {Value: "b"}}},
		{Name: "intro", Type: hubclient.FieldHeading, Text: "Hello"},
	}})
	c := &hubclient.Client{HubURL: h.URL}
	submit := func(form string, payload map[string]any) (*hubclient.SubmitResponse, error) {
		return c.Submit(context.Background(), "acme", form, &hubclient.SubmitRequest{Payload: payload})
	}
	for _, tc := range []struct {
		payload map[string]any
		field   string
	}{
		{map[string]any{"stars": 6}, "stars"},
		{map[string]any{"order": []any{"a", "a"}}, "order"},
		{map[string]any{"order": []any{"b"}}, "order"},
		{map[string]any{"intro": "a value for a heading"}, "intro"},
		{map[string]any{"nope": "x"}, "nope"},
	} {
		_, err := submit("survey", tc.payload)
		var herr *hubclient.HubError
		if !errors.As(err, &herr) || herr.StatusCode != http.StatusUnprocessableEntity || herr.Fields[tc.field] == "" {
			t.Errorf("%v: %v, want a 422 naming %s", tc.payload, err, tc.field)
		}
	}
	if n := len(h.Submissions()); n != 0 {
		t.Fatalf("%d refused submissions stored", n)
	}
	if _, err := submit("survey", map[string]any{"stars": "4", "order": []any{"b", "a"}}); err != nil {
		t.Fatal(err)
	}
	// Kept as the hub keeps it: the rating a number.
	if got := h.Submissions()[0].Request.Payload; got["stars"] != 4.0 {
		t.Errorf("stored %#v, want the rating as the number 4", got)
	}
	if _, err := submit("contact", map[string]any{"anything": 1}); err != nil {
		t.Errorf("a form the fake was not given: %v, want it kept as sent", err)
	}
}

func TestEnding(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	h.SetForm("acme", "party", &hubclient.Schema{
		Fields: []hubclient.Field{{Name: "guests", Type: hubclient.FieldNumber}},
		Steps:  []hubclient.Step{{ID: "s", Fields: []string{"guests"}}},
		Endings: []hubclient.Ending{
			{ID: "crowd", Title: "Many", If: []byte(`{">": [{"var": "guests"}, 5]}`)},
			{ID: "few", Title: "Few"},
		},
	})
	c := &hubclient.Client{HubURL: h.URL}
	for guests, want := range map[float64]string{9: "crowd", 2: "few"} {
		res, err := c.Submit(context.Background(), "acme", "party", &hubclient.SubmitRequest{Payload: map[string]any{"guests": guests}})
		if err != nil || res.Ending != want {
			t.Errorf("guests %v: %+v, %v; want ending %s", guests, res, err, want)
		}
	}
	res, err := c.Submit(context.Background(), "acme", "other", &hubclient.SubmitRequest{Payload: map[string]any{"guests": 9}})
	if err != nil || res.Ending != "" {
		t.Errorf("a form without a schema: %+v, %v; want no ending", res, err)
	}
	// The submit pipeline's result carries it, from typed values.
	res, err = hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: h.URL, SiteID: "acme", FormSlug: "party"}).
		Submit(context.Background(), hubclient.Submission{Values: map[string]any{"guests": 12}})
	if err != nil || res.Ending != "crowd" {
		t.Errorf("Submitter: %+v, %v; want ending crowd", res, err)
	}
	if subs := h.Submissions(); subs[len(subs)-1].Ending != "crowd" {
		t.Errorf("recorded %+v, want ending crowd", subs[len(subs)-1])
	}
}

// TestQuiz: the fake hub answers a quiz's score and answers as the hub
// does, a score sent by the client ignored.
func TestQuiz(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	h.SetForm("acme", "quiz", &hubclient.Schema{
		Fields:       []hubclient.Field{{Name: "q", Type: hubclient.FieldRadio, Options: []hubclient.Option{{Value: "a", Correct: true, Points: 3}, {Value: "b"}}}},
		Steps:        []hubclient.Step{{ID: "s", Fields: []string{"q"}}},
		Calculations: []hubclient.Calculation{{Name: "score", Expr: []byte(`{"points": "q"}`)}},
		Quiz:         &hubclient.Quiz{ShowAnswers: true},
	})
	c := &hubclient.Client{HubURL: h.URL}
	res, err := c.Submit(context.Background(), "acme", "quiz", &hubclient.SubmitRequest{Payload: map[string]any{"q": "a", "score": 100}})
	if err != nil || res.Score == nil || *res.Score != 3 || !res.Answers["q"] {
		t.Fatalf("%+v, %v; want score 3 and q right", res, err)
	}
}
