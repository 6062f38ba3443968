package hubclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// TestSubmissionFieldsReachTheHub sends a submission with a file and
// every field besides the values, then one with none of them: the first
// carries each to the hub, the second none.
func TestSubmissionFieldsReachTheHub(t *testing.T) {
	h := newHub(t)
	s := hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: h.URL, SiteID: "acme", FormSlug: "contact"})
	_, err := s.Submit(context.Background(), hubclient.Submission{
		Values:  map[string]any{"name": "Jane", "cv": memFile("cv.txt", "text/plain", "hello")},
		Locale:  "de-AT",
		Timing:  &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 12.5},
		Draft:   "draft-token",
		Visitor: "203.0.113.7",
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(context.Background(), hubclient.Submission{Values: map[string]any{"name": "Joe"}}); err != nil {
		t.Fatal(err)
	}
	subs := h.Submissions()
	if len(subs) != 2 {
		t.Fatalf("%d submissions", len(subs))
	}
	var body map[string]json.RawMessage
	json.Unmarshal(subs[0].Body, &body)
	for member, want := range map[string]string{
		"locale": `"de-AT"`,
		"timing": `{"stamp":"valid","seconds":12.5}`,
		"draft":  `"draft-token"`,
	} {
		if got := string(body[member]); got != want {
			t.Errorf("%s: %s, want %s", member, got, want)
		}
	}
	body = nil
	json.Unmarshal(subs[1].Body, &body)
	for _, member := range []string{"locale", "timing", "draft"} {
		if v, ok := body[member]; ok {
			t.Errorf("a submission without %s sent %s", member, v)
		}
	}
	var got []string
	for _, r := range h.Requests() {
		got = append(got, fmt.Sprintf("%s %q", r.Method, r.Header.Values("X-Forwarded-For")))
	}
	want := []string{`POST ["203.0.113.7"]`, `PUT ["203.0.113.7"]`, `POST ["203.0.113.7"]`, `POST []`}
	if !slices.Equal(got, want) {
		t.Errorf("X-Forwarded-For per request:\n%q\nwant\n%q", got, want)
	}
}

// TestSubmissionVisitorBeforeTheContexts checks that Submission.Visitor
// names the visitor over the context's, an address that is not one
// naming none, and that an empty one leaves the context's in place.
func TestSubmissionVisitorBeforeTheContexts(t *testing.T) {
	h := newHub(t)
	s := hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: h.URL, SiteID: "acme", FormSlug: "contact"})
	ctx := hubclient.WithVisitor(context.Background(), "192.0.2.1")
	for _, visitor := range []string{"192.0.2.2", "unknown", ""} {
		if _, err := s.Submit(ctx, hubclient.Submission{Values: map[string]any{"a": 1}, Visitor: visitor}); err != nil {
			t.Fatal(err)
		}
	}
	var got [][]string
	for _, r := range h.Requests() {
		got = append(got, r.Header.Values("X-Forwarded-For"))
	}
	want := [][]string{{"192.0.2.2"}, nil, {"192.0.2.1"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("X-Forwarded-For %q, want %q", got, want)
	}
}

// TestClientVisitor checks that a Client's Visitor is named on every call
// but the schema fetch, over the context's.
func TestClientVisitor(t *testing.T) {
	h := newHub(t)
	h.SetForm("acme", "contact", &hubclient.Schema{Fields: []hubclient.Field{{Name: "name", Type: "text"}}})
	c := &hubclient.Client{HubURL: h.URL, Visitor: "::ffff:203.0.113.7"}
	ctx := hubclient.WithVisitor(context.Background(), "192.0.2.1")
	if _, err := c.Schema(ctx, "acme", "contact"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Upload(ctx, "acme", "contact", memFile("a.txt", "text/plain", "hello")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Jo"}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range h.Requests() {
		got = append(got, fmt.Sprintf("%s %q", r.Method, r.Header.Values("X-Forwarded-For")))
	}
	want := []string{`GET []`, `POST ["203.0.113.7"]`, `PUT ["203.0.113.7"]`, `POST ["203.0.113.7"]`}
	if !slices.Equal(got, want) {
		t.Errorf("X-Forwarded-For per request:\n%q\nwant\n%q", got, want)
	}
}

func ExampleSubmitter_Submit() {
	hub := fakehub.NewServer() // any hub: hubclient.DefaultHubURL, or your own
	defer hub.Close()

	s := hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: hub.URL, SiteID: "acme", FormSlug: "contact"})
	res, err := s.Submit(context.Background(), hubclient.Submission{
		Values: map[string]any{
			"name":  "Jane",
			"files": []hubclient.File{memFile("hello.txt", "text/plain", "Hello!")},
			"_hp":   "",
		},
		Locale:  "de",
		Visitor: "203.0.113.7", // in a handler: the address of the visitor who posted
	})
	if err != nil {
		log.Fatal(err) // begins "upload-url failed: ", "upload PUT to R2 failed: " or "submit failed: "
	}
	sent := hub.Submissions()[0]
	fmt.Println(res.OK, res.SubmissionID, res.Attachments[0].Filename)
	fmt.Println(sent.Request.Payload, sent.Request.Locale, hub.Requests()[0].Header.Get("X-Forwarded-For"))
	// Output:
	// true sub-1 hello.txt
	// map[name:Jane] de 203.0.113.7
}

// TestZeroSubmitterFails checks that a Submitter not made by NewSubmitter
// fails, files and all, rather than waiting for an upload slot forever.
func TestZeroSubmitterFails(t *testing.T) {
	var s hubclient.Submitter
	_, err := s.Submit(context.Background(), hubclient.Submission{Values: map[string]any{"f": memFile("a.txt", "text/plain", "x")}})
	var uerr *hubclient.UploadURLError
	if !errors.As(err, &uerr) {
		t.Errorf("zero Submitter: %v, want an *UploadURLError", err)
	}
}
