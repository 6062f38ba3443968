package hub

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"reflect"
	"time"

	"github.com/labstack/echo/v4"
)

// readJSON decodes a JSON request body of at most limit bytes into v, or
// answers 413, 415 or 400 and returns the answer's error. A body declared
// longer than limit is refused before any of it is read (see OverLimit).
func (s *Server) readJSON(c echo.Context, limit int64, v any) error {
	r := c.Request()
	if OverLimit(c, limit) {
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", limit)}
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return &Error{Status: http.StatusUnsupportedMediaType, Message: "send the body as application/json"}
	}
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", limit)}
	case err != nil:
		return s.bodyFailed(c, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "malformed JSON: " + jsonError(data, err)}
	}
	return nil
}

// OverLimit reports whether the request declares, in its Content-Length, a
// body longer than limit; if so it marks the answer to close the
// connection. A route checks it before reading any of the body: net/http
// answers "100 Continue" to a client that sent "Expect: 100-continue" at
// the first read, which would invite the client to send what is then
// refused, and have it see the connection reset rather than the 413. The
// body left unread must not be taken for the next request, hence the
// close; and the connection takes no more reads, or net/http would still
// wait, once the answer is sent, for up to 256 KiB of a body the client
// may never send.
func OverLimit(c echo.Context, limit int64) bool {
	if c.Request().ContentLength <= limit {
		return false
	}
	c.Response().Header().Set("Connection", "close")
	// An error means the connection takes no deadlines (HTTP/2), whose
	// streams need no close.
	_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now())
	return true
}

// LimitBody is the middleware of routes whose request bodies may be at
// most limit bytes: a body declared longer is answered 413 before any of
// it is read (OverLimit), and a longer one sent without its length is cut
// at limit by http.MaxBytesReader, whose error the route's reading meets.
// The 413 is an *Error, for the surface's own error handler to answer.
func LimitBody(limit int64, message string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if OverLimit(c, limit) {
				return &Error{Status: http.StatusRequestEntityTooLarge, Message: message}
			}
			r := c.Request()
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
			return next(c)
		}
	}
}

// bodyFailed answers a request whose body could not be read: 408 when the
// client took longer than it was given, else 400. The answer says no more:
// the error names the hub's own socket; the log keeps it.
func (s *Server) bodyFailed(c echo.Context, err error) error {
	s.cfg.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request body not read",
		slog.String("path", LogPath(c)), slog.String("client", c.RealIP()), slog.Any("error", err))
	if IsTimeout(err) {
		c.Response().Header().Set("Connection", "close")
		return &Error{Status: http.StatusRequestTimeout, Message: "the request body did not arrive in time"}
	}
	return &Error{Status: http.StatusBadRequest, Message: "the request body could not be read"}
}

// IsTimeout reports whether err is a read that ran past its deadline.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// jsonError describes a JSON decoding error, with the position it was
// found at, in words of its own rather than the decoder's.
func jsonError(data []byte, err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		if syntax.Offset >= int64(len(data)) {
			return "the body ends before its JSON does"
		}
		return fmt.Sprintf("unexpected input at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: want %s, got %s", cmp.Or(typ.Field, "body"), jsonKind(typ.Type), typ.Value)
	}
	return "not one JSON value"
}

// jsonKind names the JSON value that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
