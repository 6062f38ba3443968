package handlers

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// regroup answers a group's "Add another" or "Remove" (the post's
// hubclient.GroupField is op): the form again, with an item more or less,
// everything typed kept, open at the group's step. Nothing is sent.
func (h *Handler) regroup(c echo.Context, p components.HubFormProps, schema *hubclient.Schema, posted map[string][]string, op string, filesLost bool) error {
	r := c.Request()
	p.State = components.State{
		Values: schema.Regroup(shown(posted), op), FilesLost: filesLost,
		Draft: r.PostFormValue(hubclient.DraftField),
	}
	_, name, _ := cutOp(op)
	for _, st := range schema.Steps {
		if slices.Contains(st.Fields, name) {
			p.State.Step = st.ID
		}
	}
	return h.respond(c, http.StatusOK, p, components.HubForm(p))
}

// cutOp splits a group's button value, "add:team" or "remove:team:2".
func cutOp(op string) (verb, name, rest string) {
	verb, after, _ := strings.Cut(op, ":")
	name, rest, _ = strings.Cut(after, ":")
	return verb, name, rest
}
