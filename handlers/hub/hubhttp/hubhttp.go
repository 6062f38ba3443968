// Package hubhttp is what every HTTP surface of the hub shares on Echo:
// the answer of its one error handler, the path a log line may name, and
// the limit of a request body. The protocol server, the console, the admin
// API and the hosted pages use it; the hub's domain (package hub) knows no
// HTTP framework.
package hubhttp

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
	"github.com/labstack/echo/v4"
)

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
// The 413 is an *hub.Error, for the surface's own error handler to answer.
func LimitBody(limit int64, message string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if OverLimit(c, limit) {
				return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: message}
			}
			r := c.Request()
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
			return next(c)
		}
	}
}

// Answer returns the middleware of a surface's one error handler: it hands
// the error a handler returned to write, unless the answer was already
// written. Echo's own errors (unknown routes, wrong methods) go on to the
// server's handler.
func Answer(write func(c echo.Context, err error)) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			err := next(c)
			if err == nil || c.Response().Committed {
				return err
			}
			if _, ok := errors.AsType[*echo.HTTPError](err); ok {
				return err
			}
			write(c, err)
			return nil
		}
	}
}

// WriteError answers err in the JSON of a failed answer, the protocol's
// and the admin API's alike, {ok:false, error, fields?}: an *hub.Error with its
// status, message and fields, anything else as 500 "internal error". The
// cause of a server-side failure goes to logger, never to the client.
func WriteError(c echo.Context, err error, logger *slog.Logger) {
	e := hub.AsError(err)
	if e.Status >= http.StatusInternalServerError {
		logger.ErrorContext(c.Request().Context(), e.Message, slog.String("path", LogPath(c)), slog.Any("error", err))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		c.NoContent(e.Status)
		return
	}
	c.JSON(e.Status, hubclient.SubmitResponse{Error: e.Message, Fields: e.Fields})
}

// secretParams are the route parameters whose value is a secret: the token
// of a link mailed or shown to one person (a sign-up, a password reset, an
// invitation). The log names them and never holds their value.
var secretParams = map[string]bool{"token": true}

// LogPath is the request's path as a log line may name it: the pattern of
// the route it took with the values of its parameters, but the name of a
// secret one (":token") in place of its value, and never the query string,
// which carries a draft's token or a provider's code. A request no route
// took is named by hub.MaskPath. Every log line that names a request's path
// takes it from here.
func LogPath(c echo.Context) string {
	pattern := c.Path()
	if pattern == "" {
		return hub.MaskPath(c.Request().URL.Path)
	}
	values := map[string]string{}
	for i, name := range c.ParamNames() {
		if i < len(c.ParamValues()) {
			values[name] = c.ParamValues()[i]
		}
	}
	var b strings.Builder
	for i, seg := range strings.Split(pattern, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		name, isParam := strings.CutPrefix(seg, ":")
		if seg == "*" {
			name, isParam = "*", true
		}
		v, known := values[name]
		switch {
		case !isParam || secretParams[name] || !known:
			b.WriteString(seg)
		case name == "*":
			b.WriteString(hub.MaskPath(v))
		default:
			b.WriteString(v)
		}
	}
	return b.String()
}
