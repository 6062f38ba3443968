// Package mailpittest gives tests a real SMTP server: Mailpit on loopback
// ports, whose HTTP API reads the messages back.
//
// mailpit is found on PATH or in $(go env GOPATH)/bin; `make mailpit`
// installs it. Without it the tests that need it are skipped, unless
// HUBFORM_MAIL_TESTS=1, when they fail.
package mailpittest

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/internal/testprograms"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// Server is a running Mailpit.
type Server struct {
	// SMTP is the host:port it takes mail on.
	SMTP string
	// API is the base URL of its HTTP API.
	API string
}

// Start runs Mailpit on free loopback ports until t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := testprograms.Find("mailpit")
	if err != nil {
		if os.Getenv("HUBFORM_MAIL_TESTS") == "1" {
			t.Fatalf("mailpittest: %v (run make mailpit)", err)
		}
		t.Skipf("mailpittest: %v; run make mailpit, or set HUBFORM_MAIL_TESTS=1 to make this a failure", err)
	}
	var lastLog string
	for range 3 {
		smtpAddr, err1 := testkit.FreeAddr()
		httpAddr, err2 := testkit.FreeAddr()
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		log := &testkit.Buffer{}
		cmd := exec.Command(bin, "--smtp", smtpAddr, "--listen", httpAddr,
			"--database", filepath.Join(t.TempDir(), "mailpit.db"), "--quiet", "--disable-version-check")
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatalf("mailpittest: start %s: %v", bin, err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() {
			cmd.Process.Kill()
			<-exited
		}
		s := &Server{SMTP: smtpAddr, API: "http://" + httpAddr}
		if testkit.WaitReady(15*time.Second, exited, s.ready) {
			t.Cleanup(stop)
			return s
		}
		stop()
		lastLog = log.String()
	}
	t.Fatalf("mailpittest: mailpit did not start; its output:\n%s", lastLog)
	return nil
}

// URL returns the smtp:// URL of the server for delivery.NewSMTP, without
// TLS, which Mailpit does not offer unless configured.
func (s *Server) URL() string { return "smtp://" + s.SMTP + "?tls=none" }

// Summary is a message as Mailpit lists it.
type Summary struct {
	ID        string    `json:"ID"`
	MessageID string    `json:"MessageID"`
	Subject   string    `json:"Subject"`
	To        []Address `json:"To"`
}

// Address is a mailbox in Mailpit's answers.
type Address struct {
	Name    string `json:"Name"`
	Address string `json:"Address"`
}

// Message is one message with its text and attachments.
type Message struct {
	ID          string       `json:"ID"`
	MessageID   string       `json:"MessageID"`
	From        Address      `json:"From"`
	To          []Address    `json:"To"`
	ReplyTo     []Address    `json:"ReplyTo"`
	Subject     string       `json:"Subject"`
	Text        string       `json:"Text"`
	HTML        string       `json:"HTML"`
	Attachments []Attachment `json:"Attachments"`
}

// Attachment is an attached file.
type Attachment struct {
	PartID      string `json:"PartID"`
	FileName    string `json:"FileName"`
	ContentType string `json:"ContentType"`
	Size        int    `json:"Size"`
}

// Messages returns the messages received, newest first.
func (s *Server) Messages(t testing.TB) []Summary {
	t.Helper()
	var out struct {
		Messages []Summary `json:"messages"`
	}
	s.get(t, "/api/v1/messages?limit=1000", &out)
	return out.Messages
}

// Message returns the message with Mailpit's id.
func (s *Server) Message(t testing.TB, id string) Message {
	t.Helper()
	var m Message
	s.get(t, "/api/v1/message/"+url.PathEscape(id), &m)
	return m
}

// Headers returns the headers of the message with Mailpit's id, each
// with its values.
func (s *Server) Headers(t testing.TB, id string) map[string][]string {
	t.Helper()
	var h map[string][]string
	s.get(t, "/api/v1/message/"+url.PathEscape(id)+"/headers", &h)
	return h
}

// Part returns the body of an attachment.
func (s *Server) Part(t testing.TB, id, part string) []byte {
	t.Helper()
	res, err := http.Get(s.API + "/api/v1/message/" + url.PathEscape(id) + "/part/" + url.PathEscape(part))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("mailpittest: part %s of %s: %s %v", part, id, res.Status, err)
	}
	return b
}

func (s *Server) get(t testing.TB, path string, v any) {
	t.Helper()
	res, err := http.Get(s.API + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("mailpittest: GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("mailpittest: GET %s: %v", path, err)
	}
}

// ready reports whether the server's API and SMTP port answer.
func (s *Server) ready() bool {
	client := &http.Client{Timeout: time.Second}
	res, err := client.Get(s.API + "/api/v1/info")
	if err != nil {
		return false
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return false
	}
	c, err := net.DialTimeout("tcp", s.SMTP, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
