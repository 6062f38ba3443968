package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/static"
)

// compressPages gzips what the load and submit routes answer, whole pages
// and fragments, for clients that accept it. A fragment too short to gain
// is sent as it is.
var compressPages = middleware.GzipWithConfig(middleware.GzipConfig{
	MinLength: 1024,
	Skipper:   compressedUpstream,
})

// compressedUpstream reports whether a middleware in front of the route,
// such as Echo's Gzip on the whole server, will compress the answer: it
// has put Accept-Encoding in Vary already. Compressing again would send
// gzip inside gzip.
func compressedUpstream(c echo.Context) bool {
	for _, v := range c.Response().Header().Values("Vary") {
		for _, name := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(name), "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// assets serves the static files, which carry copies compressed in
// advance. When a middleware in front compresses anyway, they are handed
// to it as they are.
func (h *Handler) assets() echo.HandlerFunc {
	files := http.StripPrefix(h.cfg.Prefix+"/static", static.Handler())
	return func(c echo.Context) error {
		r := c.Request()
		if compressedUpstream(c) && r.Header.Get("Accept-Encoding") != "" {
			r = r.Clone(r.Context())
			r.Header.Del("Accept-Encoding")
		}
		files.ServeHTTP(c.Response(), r)
		return nil
	}
}
