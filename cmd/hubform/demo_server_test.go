package main

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/testhub"
)

// TestDemoServerTimeouts checks, with short timeouts, that the demo's
// server closes the connection of a client that stops sending its body,
// and a kept-alive connection left idle.
func TestDemoServerTimeouts(t *testing.T) {
	h := testhub.Start(t, exampleFormFiles(t))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	app := newDemoApp(demoConfig{hubURL: h.URL, logger: logger, submissions: h.DB, files: h.Blobs})
	timeouts := serverTimeouts{Header: 5 * time.Second, Body: 100 * time.Millisecond, Answer: 5 * time.Second, Idle: 100 * time.Millisecond}
	srv := newDemoServer("", app, timeouts, logger)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	dial := func(t *testing.T) net.Conn {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}

	t.Run("dribbled body", func(t *testing.T) {
		conn := dial(t)
		// 5 of the 1000 bytes announced, then nothing.
		io.WriteString(conn, "POST /standalone HTTP/1.1\r\nHost: demo\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nname=")
		wantClosed(t, conn, conn)
	})

	t.Run("idle keep-alive", func(t *testing.T) {
		conn := dial(t)
		io.WriteString(conn, "GET / HTTP/1.1\r\nHost: demo\r\n\r\n")
		r := bufio.NewReader(conn)
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Close {
			t.Fatalf("GET /: %s, close %v; want 200 on a kept-alive connection", res.Status, res.Close)
		}
		wantClosed(t, conn, r)
	})
}

// wantClosed reads r, of conn, until the server closes the connection. The
// read deadline only keeps a server that never closes it from hanging the
// test; how soon it closes is not checked.
func wantClosed(t *testing.T, conn net.Conn, r io.Reader) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err := io.Copy(io.Discard, r)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("the server kept the connection open")
	}
}
