package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// limitBody caps the request's body at limit. A body declared longer is
// refused before any of it is read: net/http answers "100 Continue" at the
// first read to a client that asked, which would invite a body only to
// refuse it (and the client would often see the connection reset rather
// than the answer). Such a body reads as an *http.MaxBytesError at once,
// and the connection closes after the answer rather than wait for the
// body or take it for the next request.
func limitBody(c echo.Context, limit int64) {
	r := c.Request()
	if r.ContentLength > limit {
		c.Response().Header().Set("Connection", "close")
		// An error means the connection takes no deadlines (HTTP/2),
		// whose streams need no close.
		_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now())
		r.Body = declaredTooLarge{limit}
		return
	}
	r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
}

// declaredTooLarge is the body of a request declared over its limit: it
// reads nothing.
type declaredTooLarge struct{ limit int64 }

func (b declaredTooLarge) Read([]byte) (int, error) { return 0, &http.MaxBytesError{Limit: b.limit} }
func (declaredTooLarge) Close() error               { return nil }

// tooLarge reports whether err is a body over its limit.
func tooLarge(err error) bool {
	_, ok := errors.AsType[*http.MaxBytesError](err)
	return ok
}

// statusOf is the status of a post that could not be read: 413 for one
// over its limit, else 400.
func statusOf(err error) int {
	if tooLarge(err) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}
