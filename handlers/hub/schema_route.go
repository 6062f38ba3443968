package hub

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// getSchema serves the form's schema, never its server-only settings.
// Clients revalidate with the ETag, so an edited form shows at once.
func (s *Server) getSchema(c echo.Context) error {
	form := formOf(c)
	etag := `"` + form.Tag + `"`
	if form.Tag == "" {
		etag = `"` + strconv.FormatInt(form.ModTime.UnixNano(), 36) + "-" + strconv.Itoa(len(form.JSON)) + `"`
	}
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache")
	if match := c.Request().Header.Get("If-None-Match"); match == "*" || match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, form.JSON)
}

// maxUploadURLBody caps the upload-url request, a few short members.
const maxUploadURLBody = 16 << 10
