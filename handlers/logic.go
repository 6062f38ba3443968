package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
)

// maxLogicPost caps the post of the logic route: the form's text values,
// no files.
const maxLogicPost = 1 << 20

// logic answers a change of a field that a condition reads, or that a
// later text recalls, as htmx posts it: the fields and steps whose
// visibility, requiredness or recalled words changed for the values
// posted, swapped in out of band. Nothing is checked or sent;
// without JavaScript the submit route applies the same conditions.
func (h *Handler) logic(c echo.Context) error {
	r := c.Request()
	f, _, p, err := h.openForm(c)
	schema := p.InitialSchema
	if err != nil {
		h.cfg.Logger.Warn("logic update failed: the form's schema cannot be fetched", "site", f.Site, "form", f.Slug, "error", err)
		return c.NoContent(http.StatusBadGateway)
	}
	limitBody(c, maxLogicPost)
	if err := r.ParseForm(); err != nil {
		h.cfg.Logger.Info("logic post refused", "site", f.Site, "form", f.Slug, "error", err)
		return c.NoContent(statusOf(err))
	}
	p.State = components.State{Values: knownKeys(schema, r.PostForm)}
	header := c.Response().Header()
	header.Set("Cache-Control", "no-store")
	header.Set("Content-Type", "text/html; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	return components.LogicUpdate(p, r.PostForm.Get(components.LogicStateField)).Render(r.Context(), c.Response())
}
