package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/internal/bodylimit"
)

// limitBody caps the request's body at limit. A body declared longer
// reads as an *http.MaxBytesError at once (bodylimit.Over).
func limitBody(c echo.Context, limit int64) {
	r := c.Request()
	if bodylimit.Over(c.Response(), r, limit) {
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
