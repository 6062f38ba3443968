package protocol

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/labstack/echo/v4"
)

// getSchema serves the form's schema, never its server-only settings.
// Clients revalidate with the ETag, so an edited form shows at once. A form
// that takes no more submissions is served with "meta": {"closed": true}
// under an ETag of its own, so that a client holding the open schema
// learns that it closed.
func (s *Server) getSchema(c echo.Context) error {
	form := formOf(c)
	closed, err := s.closed(c.Request().Context(), form)
	if err != nil {
		return hub.Internal("counting the form's submissions", err)
	}
	etag := form.Tag
	if etag == "" {
		etag = strconv.FormatInt(form.ModTime.UnixNano(), 36) + "-" + strconv.Itoa(len(form.JSON))
	}
	if closed {
		etag += "-closed"
	}
	etag = `"` + etag + `"`
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache")
	if match := c.Request().Header.Get("If-None-Match"); match == "*" || match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	body := form.JSON
	if closed {
		if body, err = closedJSON(form); err != nil {
			return hub.Internal("encoding the schema", err)
		}
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// closedJSON returns form's schema marked closed. The copy is shallow:
// only its Meta, a value, is changed.
func closedJSON(form *hub.Form) ([]byte, error) {
	schema := *form.Schema
	schema.Meta.Closed = true
	return json.Marshal(&schema)
}

// maxUploadURLBody caps the upload-url request, a few short members.
const maxUploadURLBody = 16 << 10
