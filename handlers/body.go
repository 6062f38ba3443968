package handlers

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// limitBody caps the request's body at limit. A body declared longer is
// refused without being taken: such a body reads as an
// *http.MaxBytesError at once, and the connection closes after the answer
// rather than take it for the next request. Up to drainMax past the limit
// it is still read and dropped first, as long as the client did not ask
// to be told before it sends (Expect: 100-continue): a browser sends the
// whole body before it reads the answer, and a connection closed under
// what it is sending is reset, the answer lost with it.
func limitBody(c echo.Context, limit int64) {
	r := c.Request()
	if r.ContentLength > limit {
		c.Response().Header().Set("Connection", "close")
		// An error means the connection takes no deadlines (HTTP/2),
		// whose streams need no close.
		rc := http.NewResponseController(c.Response())
		if r.ContentLength-limit <= drainMax && !strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
			_ = rc.SetReadDeadline(time.Now().Add(drainTime))
			io.Copy(io.Discard, r.Body)
			// Read to its end, the connection is watched for the
			// client going away: a deadline past would read as that,
			// and cancel the answer.
			_ = rc.SetReadDeadline(time.Time{})
		} else {
			_ = rc.SetReadDeadline(time.Now())
		}
		r.Body = declaredTooLarge{limit}
		return
	}
	r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
}

// drainMax is how far past its limit a body declared too long is read and
// dropped, and drainTime how long that may take.
const (
	drainMax  = 16 << 20
	drainTime = 10 * time.Second
)

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
