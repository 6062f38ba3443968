package console

import (
	"embed"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/static"
)

// assetFiles are the console's own stylesheet, script and icon, and the
// builder's stylesheet and scripts, and the picture a new image shows
// until the owner gives its own.
//
//go:embed assets/console.css assets/console.js assets/favicon.svg assets/builder.css assets/builder.js assets/conditions.js assets/inplace.js assets/recall.js assets/design.js assets/picture.svg
var assetFiles embed.FS

var assets = static.NewSet(assetFiles, map[string]string{
	"console.css":   "assets/console.css",
	"console.js":    "assets/console.js",
	"favicon.svg":   "assets/favicon.svg",
	"builder.css":   "assets/builder.css",
	"builder.js":    "assets/builder.js",
	"conditions.js": "assets/conditions.js",
	"inplace.js":    "assets/inplace.js",
	"recall.js":     "assets/recall.js",
	"design.js":     "assets/design.js",
	"picture.svg":   "assets/picture.svg",
})

// assetURL is the versioned URL of one of the console's assets, relative
// to staticPath.
func assetURL(name string) string { return assets.URL(name) }

// serveStatic serves the console's assets and the forms' (hubform.css,
// hubform.js, htmx), all below staticPath.
func serveStatic(c echo.Context) error {
	r := c.Request()
	if assets.Has(strings.TrimPrefix(r.URL.Path, staticPath+"/")) {
		http.StripPrefix(staticPath, assets).ServeHTTP(c.Response(), r)
		return nil
	}
	http.StripPrefix(staticPath, static.Handler()).ServeHTTP(c.Response(), r)
	return nil
}
