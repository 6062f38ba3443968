package console

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/privacy"
)

// peoplePath is the page where a workspace's admins answer a person's
// request about their data: export it, or erase it.
const peoplePath = Path + "/people"

// registerPeople adds the page of a person's data. Both actions are posts,
// the download too: the address stays out of URLs, and so out of the
// browser's history and the logs of proxies, and another site cannot make
// an admin's browser export.
func (con *Console) registerPeople(g *echo.Group) {
	g.GET("/people", con.peoplePage)
	g.POST("/people/export", con.exportPerson)
	g.POST("/people/erase", con.erasePerson)
}

// peopleProps are what the page of a person's data shows.
type peopleProps struct {
	CSRF, Workspace string
	// Email is the address as typed; Problem what is wrong with it.
	Email, Problem string
	// Notice says what the last erasure did.
	Notice string
}

func (con *Console) peoplePage(c echo.Context) error {
	return con.renderPeople(c, http.StatusOK, peopleProps{Notice: con.sessions.PopString(c.Request().Context(), sessionNotice)})
}

func (con *Console) renderPeople(c echo.Context, status int, p peopleProps) error {
	p.CSRF, p.Workspace = con.csrfToken(c), memberOf(c).Workspace
	return con.render(c, status, peoplePageView(p))
}

// personAddress returns the posted address without the spaces around it,
// or answers the page again with the problem beside the field and the
// address as typed.
func (con *Console) personAddress(c echo.Context) (string, bool, error) {
	typed := c.FormValue("email")
	if !privacy.ValidAddress(typed) {
		return "", false, con.renderPeople(c, http.StatusUnprocessableEntity, peopleProps{Email: typed,
			Problem: "Give the person's e-mail address alone, such as anna@example.com."})
	}
	return strings.TrimSpace(typed), true, nil
}

// exportPerson downloads, as one JSON document, every submission of the
// current workspace that holds the posted address (see privacy.Export).
func (con *Console) exportPerson(c echo.Context) error {
	email, ok, err := con.personAddress(c)
	if !ok {
		return err
	}
	return con.cfg.Privacy.ServeExport(c.Request().Context(), actorOf(c), email, c.Response())
}

// erasePerson deletes, once confirmed, every submission of the current
// workspace that holds the posted address, with their files and pending
// deliveries, and records what it deleted in the audit log without the
// address.
func (con *Console) erasePerson(c echo.Context) error {
	email, ok, err := con.personAddress(c)
	if !ok {
		return err
	}
	ws := memberOf(c).Workspace
	if ok, err := con.confirmed(c, confirmation{
		Question: "Erase the data of " + email + "?",
		Detail: "Every submission of workspace " + ws + " that holds this address is deleted, with its files and the deliveries not yet made. " +
			"This cannot be undone.",
		Action: "Erase", Cancel: peoplePath,
	}); !ok {
		return err
	}
	e, err := con.cfg.Privacy.Erase(c.Request().Context(), actorOf(c), email)
	if err != nil {
		return err
	}
	return con.noticeAndGo(c, peoplePath, erasedNotice(e, email, ws))
}

// erasedNotice says what an erasure deleted: "Erased 3 submissions, 2
// files, 1 pending delivery and 0 drafts."
func erasedNotice(e privacy.Erased, email, workspace string) string {
	if e.Submissions == 0 && e.Drafts == 0 {
		return "No submission or draft of workspace " + workspace + " holds " + email + ": nothing was erased."
	}
	return fmt.Sprintf("Erased %s, %s, %s and %s.", count(e.Submissions, "submission", "submissions"), count(e.Files, "file", "files"),
		count(e.Deliveries, "pending delivery", "pending deliveries"), count(e.Drafts, "draft", "drafts"))
}

// count says how many things there are, with the word for one or for
// many: "1 file", "2 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return number(n) + " " + many
}
