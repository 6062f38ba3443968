package protocol

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/labstack/echo/v4"
)

// handleError answers every error a handler or middleware returned, with
// WriteError; Echo's own errors (unknown routes, wrong methods) keep their
// status.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		e := &hub.Error{Status: he.Code, Message: fmt.Sprint(he.Message)}
		if he.Code == http.StatusNotFound {
			e.Message = "no such route: " + c.Request().Method + " " + c.Request().URL.Path
		}
		err = e
	}
	hubhttp.WriteError(c, err, s.cfg.Logger)
}
