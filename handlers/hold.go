package handlers

import (
	"context"
	"mime/multipart"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// heldBefore returns the files of uploaded, from tickets posted for the
// form's rendering, as files held for the form shown again, in the form's
// order; the draft's files kept are shown as the draft's, not held.
func (h *Handler) heldBefore(f Form, rendering string, schema *hubclient.Schema, uploaded map[string][]hubclient.Attachment, kept []hubclient.Attachment) []components.Held {
	var out []components.Held
	for _, field := range schema.Fields {
		for _, a := range uploaded[field.Name] {
			if slices.ContainsFunc(kept, func(k hubclient.Attachment) bool { return k.Key == a.Key }) {
				continue
			}
			out = append(out, components.Held{Field: field.Name, Filename: a.Filename, Ticket: h.stamps.ticket(f, rendering, a)})
		}
	}
	return out
}

// hold keeps the files of a post without JavaScript that comes back to the
// visitor, so that they are chosen once: those chosen now go to the hub's
// storage, as the browser's script would have sent them, after those held
// before, each with a ticket for the form shown again to post back. lost
// reports a file it could not send, which the visitor must choose again.
func (h *Handler) hold(c echo.Context, f Form, reg registered, rendering string, schema *hubclient.Schema, files map[string][]*multipart.FileHeader, held []components.Held) ([]components.Held, bool) {
	if len(files) == 0 {
		return held, false
	}
	if rendering == "" {
		return held, true
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.cfg.SubmitTimeout)
	defer cancel()
	client := h.clientFor(c, reg)
	lost := false
	for _, field := range schema.Fields {
		for _, fh := range files[field.Name] {
			a, err := client.Upload(ctx, f.Site, f.Slug, hubclient.FileFromHeader(fh))
			if err != nil {
				h.cfg.Logger.Info("a file of a post shown again could not be held", "site", f.Site, "form", f.Slug, "field", field.Name, "error", err)
				lost = true
				continue
			}
			a.Field = field.Name
			held = append(held, components.Held{Field: field.Name, Filename: a.Filename, Ticket: h.stamps.ticket(f, rendering, a)})
		}
	}
	return held, lost
}

// replaced drops from uploaded the file held for each field of one file
// for which the post chose a new one: choosing a file replaces the one
// the form held.
func replaced(schema *hubclient.Schema, files map[string][]*multipart.FileHeader, uploaded map[string][]hubclient.Attachment) {
	for name, chosen := range files {
		if f := schema.Field(name); f != nil && !f.Multiple && len(chosen) > 0 {
			delete(uploaded, name)
		}
	}
}
