package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/hubtest"
)

// TestDemoServerTimeouts checks, with short timeouts, that the demo's
// server closes the connection of a client that stops sending its body,
// and a kept-alive connection left idle.
func TestDemoServerTimeouts(t *testing.T) {
	t.Parallel()
	h := hubtest.Start(t, exampleFormFiles(t))
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

// TestDemoServerDeadlines checks the deadlines each request gets: a body's
// grows with its announced length, and a download's answer with the
// file's size, through the demo app's own response writers.
func TestDemoServerDeadlines(t *testing.T) {
	t.Parallel()
	timeouts := serverTimeouts{Header: time.Second, Body: 30 * time.Second, Answer: 3 * time.Minute, Idle: time.Second}
	const size = 64 << 20 // 1024 seconds at minTransferRate
	files := fakeFiles{size: size}
	app := timeouts.deadlines(newDemoApp(demoConfig{hubURL: unreachableHub, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), files: files}))

	// within reports whether d lies between from+want and to+want.
	within := func(d, from, to time.Time, want time.Duration) bool {
		return !d.Before(from.Add(want)) && !d.After(to.Add(want))
	}

	t.Run("body", func(t *testing.T) {
		w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		r := httptest.NewRequest(http.MethodPost, "/standalone", strings.NewReader("name=Jo"))
		r.ContentLength = size
		from := time.Now()
		app.ServeHTTP(w, r)
		to := time.Now()
		body := timeouts.Body + 1024*time.Second
		if !within(w.read, from, to, body) || !within(w.write, from, to, body+timeouts.Answer) {
			t.Errorf("a %d-byte body: read deadline in %v, write deadline in %v; want %v and %v", size, w.read.Sub(from), w.write.Sub(from), body, body+timeouts.Answer)
		}
	})

	t.Run("download", func(t *testing.T) {
		w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		r := httptest.NewRequest(http.MethodGet, "/submissions/files/uploads/demo/contact/0a1b2c/big.bin", nil)
		from := time.Now()
		app.ServeHTTP(w, r)
		to := time.Now()
		if w.Code != http.StatusOK {
			t.Fatalf("download: %d", w.Code)
		}
		if want := timeouts.Answer + 1024*time.Second; !within(w.write, from, to, want) {
			t.Errorf("a %d-byte download: write deadline in %v, want %v", size, w.write.Sub(from), want)
		}
	})
}

// deadlineRecorder records the deadlines http.ResponseController sets.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	read, write time.Time
}

func (d *deadlineRecorder) SetReadDeadline(t time.Time) error  { d.read = t; return nil }
func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error { d.write = t; return nil }

// fakeFiles holds a file of every valid key, of size bytes, whose body is
// a few bytes only.
type fakeFiles struct{ size int64 }

func (f fakeFiles) Attributes(context.Context, string) (int64, string, error) {
	return f.size, "application/octet-stream", nil
}

func (f fakeFiles) NewReader(context.Context, string) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader("data")), nil
}
