package console

import (
	"maps"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
)

// confirmedField is the value a confirmed post carries: console.js adds it
// once window.confirm said yes, the confirmation page's form carries it.
const confirmedField = "confirmed"

// confirmation is what a confirmation page asks before an action that
// cannot be undone.
type confirmation struct {
	// Question is the page's title, such as "Remove field email?";
	// Detail, when set, says what follows.
	Question, Detail string
	// Action is the button that confirms: "Remove the field".
	Action string
	// Cancel is where the Cancel link goes back to.
	Cancel string

	// Set by confirmed: the post to send again, its values in a stable
	// order and a fresh CSRF token.
	Path   string
	Values [][2]string
	CSRF   string
}

// confirmed reports whether the post carries confirmed=1. When it does
// not, it answers with a page asking q, whose form posts the same values
// to the same path again with confirmed=1, and the handler returns the
// error it gives; without JavaScript this page is how a form marked
// data-confirm asks. An htmx request gets the page in the console's main
// landmark in place of the one it came from.
func (con *Console) confirmed(c echo.Context, q confirmation) (bool, error) {
	if c.FormValue(confirmedField) == "1" {
		return true, nil
	}
	form, err := c.FormParams()
	if err != nil {
		return false, &hub.Error{Status: http.StatusBadRequest, Message: "The form could not be read."}
	}
	for _, name := range slices.Sorted(maps.Keys(form)) {
		if name == csrfField || name == confirmedField {
			continue
		}
		for _, v := range form[name] {
			q.Values = append(q.Values, [2]string{name, v})
		}
	}
	q.Path, q.CSRF = c.Request().URL.Path, con.csrfToken(c)
	if c.Request().Header.Get("HX-Request") != "" {
		h := c.Response().Header()
		h.Set("HX-Retarget", "#content")
		h.Set("HX-Reselect", "#content")
		h.Set("HX-Reswap", "outerHTML")
	}
	return false, con.render(c, http.StatusOK, confirmPage(q))
}
