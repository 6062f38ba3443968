package hubclient_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// TestVisitorOnEveryCallButTheSchema runs the whole pipeline, a file
// included, for a visitor: upload-url, the PUT and submit name the
// visitor; the schema fetch, shared by all visitors, does not.
func TestVisitorOnEveryCallButTheSchema(t *testing.T) {
	h := newHub(t)
	h.SetForm("acme", "contact", &hubclient.Schema{Fields: []hubclient.Field{{Name: "name", Type: "text"}, {Name: "files", Type: "file"}}})
	ctx := hubclient.WithVisitor(context.Background(), "203.0.113.7")
	if _, err := (&hubclient.Client{HubURL: h.URL}).Schema(ctx, "acme", "contact"); err != nil {
		t.Fatal(err)
	}
	_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(ctx, map[string]any{
		"name": "Jane", "files": memFile("a.txt", "text/plain", "hello"),
	})
	if err != nil {
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

func TestVisitorAddresses(t *testing.T) {
	for _, tc := range []struct {
		name, addr string
		want       []string
	}{
		{"IPv4", "127.0.0.2", []string{"127.0.0.2"}},
		{"IPv6", "2001:db8::1", []string{"2001:db8::1"}},
		{"IPv4 mapped into IPv6", "::ffff:192.0.2.5", []string{"192.0.2.5"}},
		{"zone dropped", "fe80::1%eth0", []string{"fe80::1"}},
		{"empty", "", nil},
		{"with a port", "192.0.2.5:4711", nil},
		{"a list", "198.51.100.1, 192.0.2.5", nil},
		{"a name", "localhost", nil},
		{"a network", "192.0.2.0/24", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHub(t)
			ctx := hubclient.WithVisitor(context.Background(), tc.addr)
			if _, err := (&hubclient.Client{HubURL: h.URL}).Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"a": 1}}); err != nil {
				t.Fatal(err)
			}
			if got := h.Requests()[0].Header.Values("X-Forwarded-For"); !slices.Equal(got, tc.want) {
				t.Errorf("WithVisitor(%q): X-Forwarded-For %q, want %q", tc.addr, got, tc.want)
			}
		})
	}
}

// TestVisitorInnermostWins checks that a context naming a visitor again
// names the new one, and that an unusable address names none rather than
// leaving an earlier one in place.
func TestVisitorInnermostWins(t *testing.T) {
	h := newHub(t)
	c := &hubclient.Client{HubURL: h.URL}
	outer := hubclient.WithVisitor(context.Background(), "192.0.2.1")
	for _, ctx := range []context.Context{hubclient.WithVisitor(outer, "192.0.2.2"), hubclient.WithVisitor(outer, "unknown")} {
		if _, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"a": 1}}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := h.Requests()
	if got := [][]string{reqs[0].Header.Values("X-Forwarded-For"), reqs[1].Header.Values("X-Forwarded-For")}; !slices.Equal(got[0], []string{"192.0.2.2"}) || got[1] != nil {
		t.Errorf("X-Forwarded-For %q, want [192.0.2.2] then none", got)
	}
}

func ExampleWithVisitor() {
	hub := fakehub.NewServer()
	defer hub.Close()

	// In a handler: the address of the visitor who posted, as the app's
	// server sees it (for Echo: c.RealIP() with an IPExtractor set).
	ctx := hubclient.WithVisitor(context.Background(), "203.0.113.7")
	submit := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: hub.URL, SiteID: "acme", FormSlug: "contact"})
	if _, err := submit.OnSubmit(ctx, map[string]any{"name": "Jane"}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(hub.Requests()[0].Header.Get("X-Forwarded-For"))
	// Output: 203.0.113.7
}
