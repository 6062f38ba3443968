package handlers

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
)

// load renders the form's ready, unconfigured or error state: the answer
// to the loading state's request, or a page of its own when opened
// directly, as it is without JavaScript.
func (h *Handler) load(c echo.Context) error {
	f, _, p, err := h.openForm(c)
	if err != nil {
		h.cfg.Logger.Warn("schema fetch failed", "site", f.Site, "form", f.Slug, "error", err)
		return h.respond(c, http.StatusBadGateway, p, components.LoadError(p, ""))
	}
	h.countView(f, p.InitialSchema)
	return h.respond(c, http.StatusOK, p, components.HubForm(p))
}

// openForm starts every request of a form's page: the form the route
// names, its registration, the page's props in the locale asked for, with
// the CSRF token, and the form's schema in them. An error is the schema's
// fetch failing; the props are then ready for the error state.
func (h *Handler) openForm(c echo.Context) (f Form, reg registered, p components.HubFormProps, err error) {
	f = formOf(c)
	reg = h.form(f)
	p = h.props(f, reg, c.QueryParam("locale"))
	h.addCSRF(&p, c)
	p.InitialSchema, err = h.cache.get(c.Request().Context(), reg.client, f.Site, f.Slug)
	return f, reg, p, err
}

// respond renders a state: alone for htmx, which swaps it in (always with
// status 200, since htmx swaps no error answers by default), else in a
// whole page with its real status.
func (h *Handler) respond(c echo.Context, status int, p components.HubFormProps, state templ.Component) error {
	header := c.Response().Header()
	header.Add("Vary", "HX-Request")
	header.Set("Cache-Control", "no-store")
	header.Set("Content-Type", "text/html; charset=utf-8")
	body := state
	if c.Request().Header.Get("HX-Request") == "true" {
		status = http.StatusOK
	} else {
		title := p.FormSlug
		if p.InitialSchema != nil && p.InitialSchema.Title != "" {
			title = components.Title(p.InitialSchema, p.Locale)
		}
		body = h.cfg.Page(PageProps{Title: title, Lang: p.Locale, Head: h.Head(), Body: state})
	}
	c.Response().WriteHeader(status)
	return body.Render(c.Request().Context(), c.Response())
}

// formOf returns the form named by the route's path, unescaped: "acme%20co"
// is "acme co".
func formOf(c echo.Context) Form {
	return Form{Site: param(c, "site"), Slug: param(c, "slug")}
}

func param(c echo.Context, name string) string {
	v := c.Param(name)
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}
