package protocol_test

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

func TestNewServerRefusesBadConfig(t *testing.T) {
	h := newHarness(t)
	good := func() protocol.Config {
		return protocol.Config{Forms: formsOnly{}, Store: h.DB, Blobs: h.Blobs}
	}
	tests := []struct {
		name   string
		change func(*protocol.Config)
	}{
		{"no forms", func(c *protocol.Config) { c.Forms = nil }},
		{"no store", func(c *protocol.Config) { c.Store = nil }},
		{"no blobs", func(c *protocol.Config) { c.Blobs = nil }},
		{"negative expiry", func(c *protocol.Config) { c.UploadURLExpiry = -time.Second }},
		{"expiry too long", func(c *protocol.Config) { c.UploadURLExpiry = protocol.DefaultUploadURLExpiry + time.Second }},
		{"negative rate limit", func(c *protocol.Config) { c.RateLimit = -1 }},
	}
	for _, tt := range tests {
		cfg := good()
		tt.change(&cfg)
		if _, err := protocol.NewServer(cfg); err == nil {
			t.Errorf("%s: NewServer succeeded, want an error", tt.name)
		}
	}
	if _, err := protocol.NewServer(good()); err != nil {
		t.Errorf("NewServer of a good config: %v", err)
	}
}

// formsOnly is a Forms without forms.
type formsOnly struct{}

func (formsOnly) Lookup(site, slug string) (*hub.Form, error) { return nil, hub.ErrNotFound }

func TestHealthz(t *testing.T) {
	h := newHarness(t)
	res := h.do(http.MethodGet, "/healthz", "")
	if a := res.wantOK(t); a.Error != "" {
		t.Errorf("healthz answered error %q", a.Error)
	}
}

func TestUnknownRoute(t *testing.T) {
	h := newHarness(t)
	for _, tt := range []struct{ method, target string }{
		{http.MethodGet, "/"},
		{http.MethodGet, "/nope"},
		{http.MethodGet, "/v1"},
		{http.MethodGet, "/v2/acme/contact.json"},
		{http.MethodPost, "/v1/acme/contact/nope"},
		{http.MethodGet, "/v1/acme/contact/submit/extra"},
	} {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			res := h.do(tt.method, tt.target, "")
			a := res.wantError(t, http.StatusNotFound)
			if !strings.Contains(a.Error, tt.target) {
				t.Errorf("error %q, want it to name the path %s", a.Error, tt.target)
			}
		})
	}
}

func TestWrongMethod(t *testing.T) {
	h := newHarness(t)
	res := h.do(http.MethodGet, "/v1/acme/contact/submit", "")
	if res.status/100 != 4 {
		t.Fatalf("GET of the submit route: status %d, want 4xx; body %s", res.status, res.body)
	}
	res.wantError(t, res.status)
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.RateLimit = 3 })
	valid := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}
	h.uploadURL("apply", "a.pdf", "application/pdf", 10)
	h.uploadURL("apply", "b.pdf", "application/pdf", 10)
	h.submit("contact", valid).wantOK(t)

	for _, limited := range []struct{ name, target string }{
		{"submit", "/v1/acme/contact/submit"},
		{"upload-url", "/v1/acme/apply/upload-url"},
	} {
		res := h.postJSON(limited.target, hubclient.UploadURLRequest{Filename: "c.pdf", Size: 10, MIME: "application/pdf"})
		res.wantError(t, http.StatusTooManyRequests)
		if ra := res.header.Get("Retry-After"); ra != "20" {
			t.Errorf("%s: Retry-After %q, want 20 (seconds for one request at 3 a minute)", limited.name, ra)
		}
	}
	h.wantCount(1)

	// The schema is not limited.
	for range 10 {
		h.do(http.MethodGet, "/v1/acme/contact.json", "").wantStatus(t, http.StatusOK)
	}
}

func TestRateLimitOff(t *testing.T) {
	h := newHarness(t)
	for range 20 {
		h.postJSON("/v1/acme/apply/upload-url", hubclient.UploadURLRequest{Filename: "a.pdf", Size: 1, MIME: "application/pdf"}).
			wantStatus(t, http.StatusOK)
	}
}

func TestRateLimitTrustedProxy(t *testing.T) {
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	h := newHarness(t, func(c *protocol.Config) {
		c.RateLimit = 3
		c.TrustedProxies = []*net.IPNet{loopback}
	})
	valid := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}
	for _, client := range []string{"203.0.113.7", "198.51.100.9"} {
		for range 3 {
			h.submit("contact", valid, "X-Forwarded-For: "+client).wantOK(t)
		}
		res := h.submit("contact", valid, "X-Forwarded-For: "+client)
		res.wantError(t, http.StatusTooManyRequests)
		if res.header.Get("Retry-After") == "" {
			t.Errorf("client %s: 429 without Retry-After", client)
		}
	}
	subs := h.Submissions()
	if len(subs) != 6 {
		t.Fatalf("%d submissions stored, want 6", len(subs))
	}
	// Ids order submissions by millisecond only, so count per address.
	perAddr := map[string]int{}
	for _, s := range subs {
		perAddr[s.ClientAddr]++
	}
	if want := map[string]int{"203.0.113.7": 3, "198.51.100.9": 3}; !maps.Equal(perAddr, want) {
		t.Errorf("stored client addresses %v, want %v", perAddr, want)
	}

	// The socket's own address still has its whole budget.
	h.submit("contact", valid).wantOK(t)
}

func TestRateLimitIgnoresForwardedForWithoutTrustedProxies(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.RateLimit = 3 })
	valid := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}
	for _, client := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.3"} {
		h.submit("contact", valid, "X-Forwarded-For: "+client).wantOK(t)
	}
	h.submit("contact", valid, "X-Forwarded-For: 203.0.113.4").wantError(t, http.StatusTooManyRequests)
	for _, s := range h.Submissions() {
		if s.ClientAddr != "127.0.0.1" {
			t.Errorf("stored client address %q, want the socket's 127.0.0.1", s.ClientAddr)
		}
	}
}

func TestCORS(t *testing.T) {
	h := newHarness(t)
	const ok, evil = "https://ok.example", "https://evil.example"
	valid := `{"payload":{"name":"Jane"}}`

	t.Run("allowed origin", func(t *testing.T) {
		for _, res := range []*response{
			h.do(http.MethodGet, "/v1/acme/cors.json", "", "Origin: "+ok),
			h.do(http.MethodPost, "/v1/acme/cors/submit", valid, "Origin: "+ok, "Content-Type: application/json"),
		} {
			res.wantStatus(t, http.StatusOK)
			if got := res.header.Get("Access-Control-Allow-Origin"); got != ok {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, ok)
			}
			if !slices.Contains(res.header.Values("Vary"), "Origin") {
				t.Errorf("Vary %q, want Origin", res.header.Values("Vary"))
			}
		}
		h.wantCount(1)
	})

	t.Run("other origin", func(t *testing.T) {
		before := h.count()
		for _, res := range []*response{
			h.do(http.MethodGet, "/v1/acme/cors.json", "", "Origin: "+evil),
			h.do(http.MethodPost, "/v1/acme/cors/submit", valid, "Origin: "+evil, "Content-Type: application/json"),
			h.do(http.MethodPost, "/v1/acme/cors/upload-url", `{"filename":"a.pdf","size":1,"mime":"application/pdf"}`, "Origin: "+evil, "Content-Type: application/json"),
			h.do(http.MethodOptions, "/v1/acme/cors/submit", "", "Origin: "+evil, "Access-Control-Request-Method: POST"),
		} {
			res.wantError(t, http.StatusForbidden)
			if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
				t.Errorf("Access-Control-Allow-Origin %q, want none", got)
			}
		}
		if got := h.count(); got != before {
			t.Errorf("%d submissions stored, want %d", got, before)
		}
	})

	t.Run("preflight", func(t *testing.T) {
		for _, target := range []string{"/v1/acme/cors/submit", "/v1/acme/cors/upload-url", "/v1/acme/cors.json"} {
			res := h.do(http.MethodOptions, target, "", "Origin: "+ok,
				"Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type")
			res.wantStatus(t, http.StatusNoContent)
			if got := res.header.Get("Access-Control-Allow-Origin"); got != ok {
				t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", target, got, ok)
			}
			if got := res.header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, "POST") || !strings.Contains(got, "GET") {
				t.Errorf("%s: Access-Control-Allow-Methods %q, want GET and POST", target, got)
			}
			if got := strings.ToLower(res.header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "content-type") {
				t.Errorf("%s: Access-Control-Allow-Headers %q, want Content-Type", target, got)
			}
		}
	})

	t.Run("preflight of an unknown form", func(t *testing.T) {
		h.do(http.MethodOptions, "/v1/acme/nope/submit", "", "Origin: "+ok).wantError(t, http.StatusNotFound)
	})

	t.Run("any origin", func(t *testing.T) {
		for _, res := range []*response{
			h.do(http.MethodGet, "/v1/acme/contact.json", "", "Origin: "+evil),
			h.do(http.MethodPost, "/v1/acme/contact/submit", `{"payload":{"name":"J","email":"j@example.com"}}`, "Origin: "+evil, "Content-Type: application/json"),
			h.do(http.MethodOptions, "/v1/acme/contact/submit", "", "Origin: "+evil, "Access-Control-Request-Method: POST"),
		} {
			if res.status/100 != 2 {
				t.Errorf("status %d, want 2xx; body %s", res.status, res.body)
			}
			if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q, want *", got)
			}
		}
	})

	t.Run("refusals carry the header", func(t *testing.T) {
		res := h.do(http.MethodPost, "/v1/acme/cors/submit", `{"payload":{"nope":1}}`, "Origin: "+ok, "Content-Type: application/json")
		res.wantError(t, http.StatusUnprocessableEntity)
		if got := res.header.Get("Access-Control-Allow-Origin"); got != ok {
			t.Errorf("Access-Control-Allow-Origin %q on a refusal, want %q", got, ok)
		}
	})
}

// TestCORSOnRefusals checks that a browser on any origin can read why a form
// cannot be served, and that caches keep answers apart by origin.
func TestCORSOnRefusals(t *testing.T) {
	h := newHarness(t)
	h.WriteForm("acme", "broken", `{"fields": [{"name": "a", "type": "nope"}], "steps": []}`)
	for _, target := range []string{"/v1/acme/missing.json", "/v1/acme/broken.json"} {
		res := h.do(http.MethodGet, target, "", "Origin: https://elsewhere.example")
		if res.status < 400 || res.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s from another origin: %d, Access-Control-Allow-Origin %q", target, res.status, res.header.Get("Access-Control-Allow-Origin"))
		}
	}
	if res := h.do(http.MethodGet, "/v1/acme/contact.json", ""); !strings.Contains(res.header.Get("Vary"), "Origin") {
		t.Errorf("schema without Origin: Vary %q, want Origin", res.header.Get("Vary"))
	}
}

// TestSlowBodyIsCutOff sends a request's headers and then stops: the hub
// gives up on the body after BodyTimeout instead of holding the
// connection, and answers 408 without naming its socket.
func TestSlowBodyIsCutOff(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.BodyTimeout = 300 * time.Millisecond })
	u := h.uploadURL("apply", "a.pdf", "application/pdf", 100)
	target, _ := url.Parse(u.UploadURL)
	for _, tc := range []struct{ name, head, body string }{
		{"submit", "POST /v1/acme/contact/submit HTTP/1.1\r\nContent-Type: application/json\r\n", `{"payload":`},
		{"upload-url", "POST /v1/acme/apply/upload-url HTTP/1.1\r\nContent-Type: application/json\r\n", `{"filename":`},
		{"PUT", "PUT " + target.RequestURI() + " HTTP/1.1\r\nContent-Type: application/pdf\r\n", "%PDF-1.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.Server.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "%sHost: hub\r\nContent-Length: 100\r\n\r\n%s", tc.head, tc.body)
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			answer, _ := io.ReadAll(conn) // ends when the hub closes the connection
			head, body, _ := strings.Cut(string(answer), "\r\n\r\n")
			if !strings.HasPrefix(head, "HTTP/1.1 408") {
				t.Fatalf("answer to a stalled body: %q", answer)
			}
			var a hubclient.SubmitResponse
			if err := json.Unmarshal([]byte(body), &a); err != nil || a.OK || a.Error == "" {
				t.Errorf("body %q: want the hub's JSON refusal", body)
			}
			wantNoInternals(t, body, conn.LocalAddr().String(), conn.RemoteAddr().String())
		})
	}
	h.wantCount(0)
	h.wantNoFile(u.Key)
}

// wantNoInternals fails the test if an answer's body names an address, a
// port or a Go error.
func wantNoInternals(t *testing.T, body string, addrs ...string) {
	t.Helper()
	for _, addr := range addrs {
		host, port, _ := net.SplitHostPort(addr)
		for _, s := range []string{host, ":" + port} {
			if strings.Contains(body, s) {
				t.Errorf("answer %q names %q", body, s)
			}
		}
	}
	if m := protocol.InternalsPattern.FindString(body); m != "" {
		t.Errorf("answer %q carries %q", body, m)
	}
}
