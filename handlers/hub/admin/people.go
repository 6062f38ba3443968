package admin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/hubform/hubform/handlers/hub/privacy"
)

func (a *API) registerPeople(g *echo.Group) {
	g.GET("/people", a.exportPerson)
	g.POST("/people/erase", a.erasePerson)
}

// personEmail returns the address a request about a person names, or the
// answer 400.
func personEmail(email string) (string, error) {
	if !privacy.ValidAddress(email) {
		return "", &hub.Error{Status: http.StatusBadRequest, Message: "give the person's e-mail address, as email"}
	}
	return email, nil
}

// exportPerson answers the submissions of the token's workspace that hold
// the address ?email=, as one JSON document (see privacy.People.Export).
func (a *API) exportPerson(c echo.Context) error {
	email, err := personEmail(c.QueryParam("email"))
	if err != nil {
		return err
	}
	return a.cfg.Privacy.ServeExport(c.Request().Context(), actorOf(c), email, c.Response())
}

// EraseRequest is the body of POST /v1/admin/people/erase.
type EraseRequest struct {
	Email string `json:"email"`
}

// Erased is the answer of POST /v1/admin/people/erase: how many
// submissions, files and pending deliveries were deleted.
type Erased struct {
	OK bool `json:"ok"`
	privacy.Erased
}

// maxEraseBody caps the body of an erasure, one address in JSON.
const maxEraseBody = 4096

// erasePerson deletes every submission of the token's workspace that holds
// the address the body names, their files and pending deliveries, and
// records the count in the audit log without the address.
func (a *API) erasePerson(c echo.Context) error {
	var req EraseRequest
	if hubhttp.OverLimit(c, maxEraseBody) {
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", maxEraseBody)}
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxEraseBody))
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		return &hub.Error{Status: http.StatusBadRequest, Message: `send {"email": "…"}`}
	}
	email, err := personEmail(req.Email)
	if err != nil {
		return err
	}
	e, err := a.cfg.Privacy.Erase(c.Request().Context(), actorOf(c), email)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, Erased{OK: true, Erased: e})
}
