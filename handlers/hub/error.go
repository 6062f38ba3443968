package hub

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/hubform/hubform/hubclient"
	"github.com/labstack/echo/v4"
)

// Error is a request that fails with a known answer: its HTTP status, a
// message for people and, when values break a form's rules, a message per
// field. Handlers return it and write nothing; each surface's one error
// handler writes it in the surface's shape: JSON for the protocol and the
// admin API, a page or a fragment for the console. Err is the cause, for
// the log: it is never answered.
type Error struct {
	Status  int
	Message string
	Fields  map[string]string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of status whose message is formatted.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Internal returns a 500 *Error that says what failed and keeps err, the
// cause, for the log.
func Internal(what string, err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Message: what + ": internal error", Err: err}
}

// AsError returns the *Error in err's chain, or for any other error a 500
// "internal error" that keeps it.
func AsError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return &Error{Status: http.StatusInternalServerError, Message: "internal error", Err: err}
}

// handleError answers every error a handler or middleware returned, with
// WriteError; Echo's own errors (unknown routes, wrong methods) keep their
// status.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		e := &Error{Status: he.Code, Message: fmt.Sprint(he.Message)}
		if he.Code == http.StatusNotFound {
			e.Message = "no such route: " + c.Request().Method + " " + c.Request().URL.Path
		}
		err = e
	}
	WriteError(c, err, s.cfg.Logger)
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
// and the admin API's alike, {ok:false, error, fields?}: an *Error with its
// status, message and fields, anything else as 500 "internal error". The
// cause of a server-side failure goes to logger, never to the client.
func WriteError(c echo.Context, err error, logger *slog.Logger) {
	e := AsError(err)
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
