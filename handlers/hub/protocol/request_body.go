package protocol

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"reflect"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/labstack/echo/v4"
)

// readJSON decodes a JSON request body of at most limit bytes into v, or
// answers 413, 415 or 400 and returns the answer's error. A body declared
// longer than limit is refused before any of it is read (see OverLimit).
func (s *Server) readJSON(c echo.Context, limit int64, v any) error {
	r := c.Request()
	if hubhttp.OverLimit(c, limit) {
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", limit)}
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return &hub.Error{Status: http.StatusUnsupportedMediaType, Message: "send the body as application/json"}
	}
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", limit)}
	case err != nil:
		return s.bodyFailed(c, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &hub.Error{Status: http.StatusBadRequest, Message: "malformed JSON: " + jsonError(data, err)}
	}
	return nil
}

// bodyFailed answers a request whose body could not be read: 408 when the
// client took longer than it was given, else 400. The answer says no more:
// the error names the hub's own socket; the log keeps it.
func (s *Server) bodyFailed(c echo.Context, err error) error {
	s.cfg.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request body not read",
		slog.String("path", hubhttp.LogPath(c)), slog.String("client", c.RealIP()), slog.Any("error", err))
	if hub.IsTimeout(err) {
		c.Response().Header().Set("Connection", "close")
		return &hub.Error{Status: http.StatusRequestTimeout, Message: "the request body did not arrive in time"}
	}
	return &hub.Error{Status: http.StatusBadRequest, Message: "the request body could not be read"}
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
