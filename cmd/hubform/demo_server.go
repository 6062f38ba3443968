package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// serverTimeouts are how long the demo's server waits on a client. Without
// them a client that sends its body a byte at a time, or keeps connections
// open and idle, holds a connection and a goroutine for as long as it
// likes.
type serverTimeouts struct {
	// Header is how long a client may take to send a request's header.
	Header time.Duration
	// Body is how long a client may take to send a request's body, plus a
	// second for every minTransferRate bytes its Content-Length announces.
	Body time.Duration
	// Answer is how long the server may take to answer once the body is
	// in: the submit routes deliver a post to the hub (handlers.Config's
	// SubmitTimeout, 2 minutes by default) before they answer. A download
	// gets a second more for every minTransferRate bytes of the file.
	Answer time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
}

// demoTimeouts are the demo's timeouts, those of the hub (hubform hub) but
// for Answer, which the hub, answering at once, needs no deadline for.
var demoTimeouts = serverTimeouts{Header: 10 * time.Second, Body: 30 * time.Second, Answer: 3 * time.Minute, Idle: 2 * time.Minute}

// minTransferRate is the slowest a client may send a body or take a
// download, in bytes a second, as the hub allows for uploads.
const minTransferRate = 64 << 10

// newDemoServer returns the demo's HTTP server for h on addr, with t's
// timeouts.
func newDemoServer(addr string, h http.Handler, t serverTimeouts, logger *slog.Logger) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           t.deadlines(h),
		ReadHeaderTimeout: t.Header,
		IdleTimeout:       t.Idle,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// deadlines sets each request's read and write deadlines: the body within
// Body and its transfer time, the answer within Answer after that. The
// server's own ReadTimeout and WriteTimeout cannot tell a long upload from
// a slow one.
func (t serverTimeouts) deadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := t.Body
		if r.ContentLength > 0 {
			body += transferTime(r.ContentLength)
		}
		now := time.Now()
		rc := http.NewResponseController(w)
		// An error means the connection takes no deadlines (HTTP/2 through
		// some proxies); there is nothing better to do than serve.
		_ = rc.SetReadDeadline(now.Add(body))
		_ = rc.SetWriteDeadline(now.Add(body + t.Answer))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), timeoutsKey{}, t)))
	})
}

type timeoutsKey struct{}

// allowDownload gives the answer to r, from now, Answer and the transfer
// time of size bytes, so that a large file is not cut off.
func allowDownload(w http.ResponseWriter, r *http.Request, size int64) {
	t, ok := r.Context().Value(timeoutsKey{}).(serverTimeouts)
	if !ok {
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(t.Answer + transferTime(size)))
}

// transferTime is how long n bytes may take at minTransferRate.
func transferTime(n int64) time.Duration {
	return time.Duration(n/minTransferRate) * time.Second
}
