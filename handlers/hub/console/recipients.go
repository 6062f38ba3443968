package console

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// RecipientsPath is where the links go that ask an address listed in a
// form's notify.email to confirm it takes its workspace's notifications:
// RecipientsPath/TOKEN. Opening the link shows a button; only its post
// confirms, so that a mail scanner that follows links confirms nothing.
const RecipientsPath = Path + "/mail-recipients"

// invalidRecipientLink answers a link that expired or was used.
var invalidRecipientLink = &hub.Error{Status: http.StatusNotFound,
	Message: "This link is not valid: it may have expired or been used already."}

// recipientProps are what the page of a link to confirm an address shows.
type recipientProps struct {
	CSRF, Path, Workspace string
	Confirmed             bool
}

func (con *Console) recipientPage(c echo.Context) error {
	ws, err := con.cfg.Users.MailRecipientLink(c.Request().Context(), accounts.HashToken(c.Param("token")), con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return invalidRecipientLink
	} else if err != nil {
		return hub.Internal("reading a link", err)
	}
	return con.render(c, http.StatusOK, recipientPageView(recipientProps{CSRF: con.csrfToken(c), Path: RecipientsPath + "/" + c.Param("token"), Workspace: ws}))
}

// confirmRecipient uses the link: its address takes the notifications of
// the link's workspace from now on.
func (con *Console) confirmRecipient(c echo.Context) error {
	ws, err := con.cfg.Users.ConfirmMailRecipient(c.Request().Context(), accounts.HashToken(c.Param("token")), con.cfg.Now())
	if errors.Is(err, hub.ErrNotFound) {
		return invalidRecipientLink
	} else if err != nil {
		return hub.Internal("confirming an address", err)
	}
	con.record(c.Request().Context(), accounts.Event{Workspace: ws, At: con.cfg.Now(), Actor: "a link mailed to the address",
		Action: accounts.ActionRecipientConfirmed, Target: ws, Client: c.RealIP()})
	return con.render(c, http.StatusOK, recipientPageView(recipientProps{Workspace: ws, Confirmed: true}))
}
