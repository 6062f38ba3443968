package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// TestOversizedRequestAnswered413BeforeContinue sends, over a raw
// connection to the hub as hubform hub wires it, the headers of a request
// whose Content-Length is over its route's limit, and no body. A client
// that asks "Expect: 100-continue" must read 413 as the first answer, not
// "100 Continue", which would invite it to send a body only to be cut off
// (and often see the connection reset rather than the 413); a client that
// does not ask must get the 413 at once, not after the hub waited for the
// body. Either way the hub closes the connection, whose unread body must
// not be taken for another request. The answer is in the surface's shape:
// JSON for the protocol and the admin API, text for the console.
func TestOversizedRequestAnswered413BeforeContinue(t *testing.T) {
	t.Parallel()
	forms := formsDir(t)
	// A form of two steps keeps drafts.
	trip := `{"fields": [{"name": "name", "type": "text"}, {"name": "city", "type": "text"}],
		"steps": [{"id": "who", "fields": ["name"]}, {"id": "where", "fields": ["city"]}]}`
	if err := os.WriteFile(filepath.Join(forms, "acme", "trip.json"), []byte(trip), 0o644); err != nil {
		t.Fatal(err)
	}
	apply := `{"fields": [{"name": "cv", "type": "file"}], "steps": [{"id": "main", "fields": ["cv"]}], "hub": {"allowedTypes": ["application/pdf"]}}`
	if err := os.WriteFile(filepath.Join(forms, "acme", "apply.json"), []byte(apply), 0o644); err != nil {
		t.Fatal(err)
	}
	h := serveInProcess(t, hubserver.Config{Data: t.TempDir(), Forms: forms})
	// An upload URL for a file of 100 bytes.
	u, err := (&hubclient.Client{HubURL: h.URL}).UploadURL(context.Background(), "acme", "apply", hubclient.UploadURLRequest{Filename: "cv.pdf", Size: 100, MIME: "application/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	put, _ := url.Parse(u.UploadURL)
	base, _ := url.Parse(h.URL)
	token := accounts.NewToken()
	if err := h.DB.CreateToken(context.Background(), accounts.Token{Name: "push", Hash: accounts.HashToken(token), CreatedAt: time.Now(),
		Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll}); err != nil {
		t.Fatal(err)
	}
	bearer := "Authorization: Bearer " + token + "\r\n"
	const json, form = "application/json", "application/x-www-form-urlencoded"
	// says is what the answer's body holds: the hub's JSON refusal, the
	// console's words, the page's form with its message, or nothing.
	const refusal = `"ok":false`
	for _, tt := range []struct {
		name, request, contentType, header string
		limit                              int64
		says                               string
	}{
		{"submit", "POST /v1/acme/contact/submit", json, "", protocol.DefaultMaxBodyBytes, refusal},
		{"upload-url", "POST /v1/acme/contact/upload-url", json, "", 16 << 10, refusal},
		{"events", "POST /v1/acme/contact/events", json, "", 64 << 10, refusal},
		{"drafts", "POST /v1/acme/trip/drafts", json, "", protocol.DefaultMaxBodyBytes, refusal},
		{"drafts/resume", "POST /v1/acme/trip/drafts/resume", json, "", 1 << 10, refusal},
		{"admin API push", "PUT /v1/admin/forms/shop/contact/version", json, bearer, 1<<20 + 1, refusal},
		{"admin API erasure", "POST /v1/admin/people/erase", json, bearer, 4096, refusal},
		{"upload", "PUT " + put.RequestURI(), "application/pdf", "", 100, refusal},
		{"console", "POST /console/sign-in", form, "", 3 << 20, "larger than the console accepts"},
		// The form's page on the hub, which posts to package handlers.
		{"page's submit", "POST /hubform/acme/contact/submit", "multipart/form-data; boundary=x", "", 256 << 20, "What you sent is too large"},
		{"page's save", "POST /hubform/acme/trip/save", "multipart/form-data; boundary=x", "", 256 << 20, "The form could not be saved"},
		{"page's logic", "POST /hubform/acme/contact/logic", form, "", 1 << 20, ""},
		{"page's event", "POST /hubform/acme/contact/event", form, "", 4 << 10, ""},
		{"page's upload-url", "POST /hubform/acme/apply/upload-url", form, "", 64 << 10, `"error":`},
	} {
		for _, expect := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s expect %v", tt.name, expect), func(t *testing.T) {
				conn, err := net.Dial("tcp", base.Host)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				head := fmt.Sprintf("%s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s", tt.request, base.Host, tt.contentType, tt.limit+1, tt.header)
				if expect {
					head += "Expect: 100-continue\r\n"
				}
				io.WriteString(conn, head+"\r\n")
				// The hub gives a body 30 seconds: an answer within 5 did
				// not wait for it.
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				r := bufio.NewReader(conn)
				status, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("no answer before the body: %v", err)
				}
				if !strings.HasPrefix(status, "HTTP/1.1 413 ") {
					t.Fatalf("first answer %q, want HTTP/1.1 413", status)
				}
				res, err := http.ReadResponse(bufio.NewReader(io.MultiReader(strings.NewReader(status), r)), nil)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				if !res.Close {
					t.Errorf("no Connection: close: the connection is kept for the unread body")
				}
				if !strings.Contains(string(body), tt.says) || tt.says == "" && len(body) > 0 {
					t.Errorf("answer %q, want %q", body, tt.says)
				}
				// The hub closes the connection rather than read on.
				if _, err := r.ReadByte(); err != io.EOF {
					t.Errorf("after the 413 the connection is still open: %v", err)
				}
			})
		}
	}
}
