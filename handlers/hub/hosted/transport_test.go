package hosted

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// roundTripFunc is an http.RoundTripper of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// newTransport returns an inProcess for the hub at base, serving with
// handler; requests for other hosts are answered 299 by a stand-in.
func newTransport(t *testing.T, base string, handler http.HandlerFunc) *http.Client {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 299, Body: io.NopCloser(strings.NewReader("network " + r.URL.String())), Header: http.Header{}, Request: r}, nil
	})
	return &http.Client{Transport: &inProcess{base: u, handler: handler, next: next}}
}

// testCtx bounds a test's requests: a transport that held a body back
// would otherwise hang the test rather than fail it.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestInProcessRequest checks what the handler sees of a request: the
// request a server would have read, the visitor the client named as its
// address, the body's length, the path below the hub's public URL.
func TestInProcessRequest(t *testing.T) {
	type seen struct {
		method, path, query, remote, host, xff, length string
		contentLength                                  int64
		body                                           string
	}
	var got seen
	client := newTransport(t, "https://hub.example/forms", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = seen{r.Method, r.URL.Path, r.URL.RawQuery, r.RemoteAddr, r.Host, r.Header.Get("X-Forwarded-For"),
			r.Header.Get("Content-Length"), r.ContentLength, string(body)}
		w.Header().Set("X-Answer", "yes")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "done")
	})
	for _, tt := range []struct {
		name, method, url, xff, body string
		want                         seen
	}{
		{"visitor", http.MethodPost, "https://hub.example/forms/v1/acme/contact/submit?x=1", "203.0.113.9", `{"payload":{}}`,
			seen{http.MethodPost, "/v1/acme/contact/submit", "x=1", "203.0.113.9:0", "hub.example", "", "14", 14, `{"payload":{}}`}},
		{"IPv6 visitor", http.MethodPost, "https://hub.example/forms/v1/a/b/submit", "2001:db8::7", "{}",
			seen{http.MethodPost, "/v1/a/b/submit", "", "[2001:db8::7]:0", "hub.example", "", "2", 2, "{}"}},
		{"no visitor", http.MethodGet, "https://HUB.example/forms/v1/a/b.json", "", "",
			seen{http.MethodGet, "/v1/a/b.json", "", selfAddr, "HUB.example", "", "", 0, ""}},
		{"not an address", http.MethodPost, "https://hub.example/forms/v1/a/b/submit", "203.0.113.9, 10.0.0.1", "{}",
			seen{http.MethodPost, "/v1/a/b/submit", "", selfAddr, "hub.example", "", "2", 2, "{}"}},
		{"empty PUT", http.MethodPut, "https://hub.example/forms/v1/_uploads?k=1", "203.0.113.9", "",
			seen{http.MethodPut, "/v1/_uploads", "k=1", "203.0.113.9:0", "hub.example", "", "0", 0, ""}},
	} {
		got = seen{}
		var body io.Reader
		if tt.body != "" {
			body = strings.NewReader(tt.body)
		}
		req, _ := http.NewRequestWithContext(testCtx(t), tt.method, tt.url, body)
		if tt.xff != "" {
			req.Header.Set("X-Forwarded-For", tt.xff)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		answer, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusCreated || string(answer) != "done" || res.Header.Get("X-Answer") != "yes" {
			t.Errorf("%s: answer %d %q %v", tt.name, res.StatusCode, answer, res.Header)
		}
		if got != tt.want {
			t.Errorf("%s: the handler saw\n%+v, want\n%+v", tt.name, got, tt.want)
		}
	}

	// Other hosts, other schemes and paths beside the hub's go out.
	for _, u := range []string{"https://bucket.example/forms/v1/x", "http://hub.example/forms/v1/x", "https://hub.example/formsx/v1/x", "https://hub.example/"} {
		req, _ := http.NewRequestWithContext(testCtx(t), http.MethodPut, u, strings.NewReader("file"))
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 299 {
			t.Errorf("PUT %s: %d, want it sent over the network", u, res.StatusCode)
		}
	}
}

// TestInProcessStreams checks that bodies flow both ways as they are
// written: the handler reads the start of a request body the client has
// not finished writing, and the client reads the start of an answer the
// handler has not finished writing. A transport that held either whole
// would wait for the other side forever, and the test would end at its
// deadline.
func TestInProcessStreams(t *testing.T) {
	clientRead := make(chan struct{})
	client := newTransport(t, "http://hub.example", func(w http.ResponseWriter, r *http.Request) {
		first := make([]byte, 5)
		if _, err := io.ReadFull(r.Body, first); err != nil {
			t.Errorf("reading the body's start: %v", err)
			return
		}
		io.WriteString(w, "got "+string(first)+";")
		<-clientRead
		rest, _ := io.ReadAll(r.Body)
		io.WriteString(w, "then "+string(rest))
	})
	body, feed := io.Pipe()
	ctx := testCtx(t)
	// A transport that waited for the whole body would wait for good: the
	// deadline ends the body, and the test fails.
	context.AfterFunc(ctx, func() { feed.CloseWithError(ctx.Err()) })
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, "http://hub.example/v1/_uploads", body)
	req.ContentLength = 10
	go io.WriteString(feed, "first")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	start := make([]byte, len("got first;"))
	if _, err := io.ReadFull(res.Body, start); err != nil || string(start) != "got first;" {
		t.Fatalf("the answer's start: %q, %v", start, err)
	}
	close(clientRead)
	io.WriteString(feed, "later")
	feed.Close()
	rest, err := io.ReadAll(res.Body)
	if err != nil || string(rest) != "then later" {
		t.Errorf("the answer's rest: %q, %v", rest, err)
	}
}

// TestInProcessClientGoes checks that a handler whose client went away,
// before or during the answer, stops at its next write instead of
// blocking.
func TestInProcessClientGoes(t *testing.T) {
	returned := make(chan error, 1)
	started := make(chan struct{})
	client := newTransport(t, "http://hub.example", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		_, err := io.WriteString(w, "too late")
		returned <- err
	})
	ctx, cancel := context.WithCancel(testCtx(t))
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://hub.example/v1/a/b.json", nil)
	go func() { <-started; cancel() }()
	if _, err := client.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("client: %v, want context.Canceled", err)
	}
	if err := wait(t, returned); err == nil {
		t.Error("the handler's write after the client left succeeded")
	}

	client = newTransport(t, "http://hub.example", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "one")
		for {
			if _, err := io.WriteString(w, "more"); err != nil {
				returned <- err
				return
			}
		}
	})
	res, err := client.Get("http://hub.example/v1/a/b.json")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := wait(t, returned); err == nil {
		t.Error("the handler's write after the client closed the body succeeded")
	}
}

// wait returns what the handler sent on returned, failing the test when
// it is still writing, blocked, at the test's deadline.
func wait(t *testing.T, returned <-chan error) error {
	t.Helper()
	select {
	case err := <-returned:
		return err
	case <-testCtx(t).Done():
		t.Fatal("the handler is still blocked writing its answer")
		return nil
	}
}

// TestInProcessPanic checks that a handler's panic is a 500, not the end
// of the process.
func TestInProcessPanic(t *testing.T) {
	client := newTransport(t, "http://hub.example", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	res, err := client.Get("http://hub.example/v1/a/b.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := io.ReadAll(res.Body); res.StatusCode != http.StatusInternalServerError || err == nil {
		t.Errorf("status %d, body error %v", res.StatusCode, err)
	}
}
