package handlers

import (
	"net/http"
	"slices"
	"strconv"
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
	values := schema.Regroup(shown(posted), op)
	p.State = components.State{
		Values: values, FilesLost: filesLost, Focus: regroupFocus(schema, values, op),
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

// regroupFocus is the key of the field the form focuses after op: the
// first field of the entry added, or of the entry that took the removed
// one's place (the last, when the last was removed).
func regroupFocus(schema *hubclient.Schema, values map[string][]string, op string) string {
	verb, name, rest := cutOp(op)
	f := schema.Field(name)
	if f == nil || len(f.Fields) == 0 {
		return ""
	}
	n := f.Items(values)
	i := n - 1
	if at, err := strconv.Atoi(rest); verb == "remove" && err == nil && at < n {
		i = at
	}
	return f.ItemKey(max(i, 0), f.Fields[0].Name)
}

// cutOp splits a group's button value, "add:team" or "remove:team:2".
func cutOp(op string) (verb, name, rest string) {
	verb, after, _ := strings.Cut(op, ":")
	name, rest, _ = strings.Cut(after, ":")
	return verb, name, rest
}
