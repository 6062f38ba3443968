package hub

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
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
		logger.ErrorContext(c.Request().Context(), e.Message, slog.String("path", c.Request().URL.Path), slog.Any("error", err))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		c.NoContent(e.Status)
		return
	}
	c.JSON(e.Status, hubclient.SubmitResponse{Error: e.Message, Fields: e.Fields})
}

// schemaRoute is the route of the schema, whose slug ends in ".json".
const schemaRoute = "/v1/:site/:slug"

// formKey is where withForm leaves the form in the request's context.
const formKey = "hubform.form"

// withForm resolves the route's site and slug to a form: 404 for names that
// are not valid or not found, 500 when the form's file is invalid.
func (s *Server) withForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		site, slug := c.Param("site"), c.Param("slug")
		if c.Path() == schemaRoute {
			var ok bool
			if slug, ok = strings.CutSuffix(slug, ".json"); !ok {
				return &Error{Status: http.StatusNotFound, Message: "no such route: " + c.Request().URL.Path}
			}
		}
		if !ValidName(site) || !ValidName(slug) {
			return &Error{Status: http.StatusNotFound, Message: "no such form"}
		}
		form, err := s.cfg.Forms.Lookup(site, slug)
		if err != nil && c.Request().Header.Get("Origin") != "" {
			// Let a browser read why, whichever origin asked.
			c.Response().Header().Set("Access-Control-Allow-Origin", "*")
		}
		switch {
		case errors.Is(err, ErrNotFound):
			return &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no form %s/%s", site, slug)}
		case err != nil:
			s.cfg.Logger.Error("form cannot be served", slog.String("site", site), slog.String("form", slug), slog.Any("error", err))
			return &Error{Status: http.StatusInternalServerError, Message: fmt.Sprintf("form %s/%s cannot be served: it is invalid, or could not be read (the hub's log says why)", site, slug)}
		}
		c.Set(formKey, form)
		return next(c)
	}
}

func formOf(c echo.Context) *Form { return c.Get(formKey).(*Form) }

// cors lets browsers on the form's allowed origins call its routes; a
// request from any other origin is refused. A form with no allowed origins
// may be called from anywhere.
func (s *Server) cors(next echo.HandlerFunc) echo.HandlerFunc {
	return s.withForm(func(c echo.Context) error {
		h := c.Response().Header()
		h.Add("Vary", "Origin") // the answer depends on it, even when absent
		origin := c.Request().Header.Get("Origin")
		if origin == "" {
			return next(c)
		}
		allowed := formOf(c).Settings.AllowedOrigins
		switch {
		case len(allowed) == 0:
			h.Set("Access-Control-Allow-Origin", "*")
		case containsFold(allowed, origin):
			h.Set("Access-Control-Allow-Origin", origin)
		default:
			return &Error{Status: http.StatusForbidden, Message: "origin " + origin + " may not use this form"}
		}
		return next(c)
	})
}

// preflight answers a browser's CORS preflight for an allowed origin.
func (s *Server) preflight(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Access-Control-Allow-Methods", "GET, POST")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Accept")
	h.Set("Access-Control-Max-Age", "600")
	return c.NoContent(http.StatusNoContent)
}

// uploadCORS lets browsers PUT files to signed URLs from any origin: the
// signature, not the origin, is what authorizes an upload. Every answer,
// refusals included, carries the headers, so a browser can read them.
func uploadCORS(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if c.Request().Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "PUT")
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusNoContent)
		}
		return next(c)
	}
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
