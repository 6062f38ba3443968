package console

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/inbox"
)

// columnChoice is a column of the inbox's table in its Columns chooser.
type columnChoice struct {
	Name, Label string
	Shown       bool
}

// labeledAnswer is an answer under its question, on a submission's page.
type labeledAnswer struct {
	Label  string
	Answer inbox.Answer
}

// columnNames is the names of the columns the chooser shows, as JSON, in
// the one field that tells chooseColumns which were not ticked.
func columnNames(cs []columnChoice) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	b, _ := json.Marshal(names)
	return string(b)
}

// hiddenColumns returns the names of the columns the signed-in user hid
// in the form's table: a column the form gains later is shown until
// hidden. The choice is kept with the user's account, so that it follows
// them to another browser and is theirs alone.
func (con *Console) hiddenColumns(c echo.Context, form *hub.Form) (map[string]bool, error) {
	names, err := con.cfg.Users.HiddenColumns(c.Request().Context(), userEmail(c), form.Site, form.Slug)
	if err != nil {
		return nil, hub.Internal("reading the columns chosen", err)
	}
	hidden := map[string]bool{}
	for _, name := range names {
		hidden[name] = true
	}
	return hidden, nil
}

// chooseColumns keeps the columns the user chose for the form's table:
// those listed in columns and not as show are hidden. It changes nothing
// but the user's own view, so any member who reads the inbox may.
func (con *Console) chooseColumns(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	params, err := c.FormParams()
	if err != nil {
		return &hub.Error{Status: http.StatusBadRequest, Message: "The form could not be read."}
	}
	// columns lists every column the chooser showed, as JSON: a name a
	// payload sent may hold any character.
	var all, hidden []string
	json.Unmarshal([]byte(params.Get("columns")), &all)
	for _, name := range all {
		if !slices.Contains(params["show"], name) {
			hidden = append(hidden, name)
		}
	}
	if err := con.cfg.Users.SetHiddenColumns(c.Request().Context(), userEmail(c), form.Site, form.Slug, hidden, con.cfg.Now()); err != nil {
		return hub.Internal("keeping the columns chosen", err)
	}
	_, back, _ := selected(c, form)
	return c.Redirect(http.StatusSeeOther, back)
}

// sessionUndo is the session key of the change the inbox's next page
// offers to undo.
const sessionUndo = "inbox-undo"

// undo is a change of spam marks that the inbox offers to undo: marking
// IDs Spam again the other way.
type undo struct {
	Site, Slug string
	IDs        []string
	// Spam is the mark the undo sets: the one they had.
	Spam bool
	// Deleted is set when the undo restores deleted submissions.
	Deleted bool
}

// undoPeriod says how long a deletion may be undone.
var undoPeriod = strconv.Itoa(int(hub.UndoPeriod.Minutes())) + " minutes"

// putDeleteUndo has the inbox's next page say what a deletion took, with
// a button that restores it.
func (con *Console) putDeleteUndo(c echo.Context, form *hub.Form, ids []string, d hub.Deleted) {
	ctx := c.Request().Context()
	b, _ := json.Marshal(undo{Site: form.Site, Slug: form.Slug, IDs: ids, Deleted: true})
	con.sessions.Put(ctx, sessionNotice, deletedNotice(d))
	if d.Submissions > 0 {
		con.sessions.Put(ctx, sessionUndo, string(b))
	}
}

// putUndo has the inbox's next page say that ids were marked spam (or
// not), with a button that marks them back.
func (con *Console) putUndo(c echo.Context, form *hub.Form, ids []string, spam bool) {
	ctx := c.Request().Context()
	n := submissionsCount(len(ids))
	notice := strings.ToUpper(n[:1]) + n[1:] + map[bool]string{true: " moved to Spam.", false: " moved back to the inbox."}[spam]
	b, _ := json.Marshal(undo{Site: form.Site, Slug: form.Slug, IDs: ids, Spam: !spam})
	con.sessions.Put(ctx, sessionNotice, notice)
	con.sessions.Put(ctx, sessionUndo, string(b))
}

// popInboxNotice returns, and forgets, what the inbox's page says was
// just done, and the change it offers to undo, if it is of this form.
func (con *Console) popInboxNotice(c echo.Context, form *hub.Form) (string, *undo) {
	ctx := c.Request().Context()
	notice := con.sessions.PopString(ctx, sessionNotice)
	var u undo
	if err := json.Unmarshal([]byte(con.sessions.PopString(ctx, sessionUndo)), &u); err != nil || u.Site != form.Site || u.Slug != form.Slug || len(u.IDs) == 0 {
		return notice, nil
	}
	return notice, &u
}

// deletedNotice says what a deletion removed.
func deletedNotice(d hub.Deleted) string {
	s := submissionsCount(d.Submissions)
	s = strings.ToUpper(s[:1]) + s[1:]
	switch len(d.Files) {
	case 0:
		return s + " deleted."
	case 1:
		return s + " deleted, with one file."
	}
	return s + " deleted, with " + number(len(d.Files)) + " files."
}
