package hubhttp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/labstack/echo/v4"
)

const linkToken = "QTmMJ9L_YH8fuvD3tr1L3GuimLiZ5kodSHS_Io-Hbzk"

// TestLogPath names each request by its route, with a link's token by its
// name and no query; a path no route takes loses its long segments.
func TestLogPath(t *testing.T) {
	e := echo.New()
	var got string
	record := func(c echo.Context) error { got = hubhttp.LogPath(c); return nil }
	e.GET("/console/reset/:token", record)
	e.GET("/v1/:site/:slug", record)
	e.GET("/static/*", record)
	e.RouteNotFound("/*", record)
	for path, want := range map[string]string{
		"/console/reset/" + linkToken + "?x=1":    "/console/reset/:token",
		"/v1/acme/contact?draft=" + linkToken:     "/v1/acme/contact",
		"/static/a/" + linkToken + "/b.css":       "/static/a/…/b.css",
		"/console/invitation/" + linkToken + "/x": "/console/invitation/…/x",
	} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
		if got != want {
			t.Errorf("LogPath(%s) = %q, want %q", path, got, want)
		}
	}
}
