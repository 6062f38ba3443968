package console

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// The builder's endings: after the last page, a card for each of the
// form's endings (its title, text, page to send visitors to and the
// condition under which it is shown, in the condition editor of fields
// and pages), and the default ending, the thank-you panel, last. Each
// action is a builder action: it changes the version the page was built
// from and saves it into the draft as the member who posted.

// registerEndings adds the endings' actions.
func (con *Console) registerEndings(g *echo.Group) {
	g.POST("/forms/:site/:slug/endings", con.builderAction(addEnding, viewFields))
	g.POST("/forms/:site/:slug/endings/:n", con.builderAction(editEnding, viewFields))
	g.POST("/forms/:site/:slug/endings/:n/move", con.builderAction(moveEnding, viewFields))
	g.POST("/forms/:site/:slug/endings/:n/remove", con.removeEndingAction)
}

// endingMember is an ending's one condition, its "if".
var endingMember = conditionMember{Name: "if", Heading: "Show this ending when", Badge: "Conditional", Lead: "Shown when"}

// endingURL is the path of the action on ending n.
func endingURL(p formProps, n int, action string) string {
	return builderURL(p, "/endings/"+strconv.Itoa(n)+action)
}

// endingAt returns the index of the ending the route names.
func endingAt(d *formFile, c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(d.Schema.Endings) {
		return 0, problem("endings", "there is no ending %s: the form has %d", c.Param("n"), len(d.Schema.Endings))
	}
	return n, nil
}

// endingSources returns the fields an ending's condition may read: every
// field a condition can compare, since an ending is reached after them
// all.
func endingSources(s *hubclient.Schema) []*hubclient.Field {
	return conditionSources(s, len(s.Fields))
}

// parseEndingCondition reads ending n's condition as rows; ok is false
// for one the rows cannot say.
func parseEndingCondition(s *hubclient.Schema, n int) (condition, bool) {
	return readCondition(s, s.Endings[n].If)
}

// endingConditionView is the editor of ending n's condition, posted to
// act.
func endingConditionView(p formProps, s *hubclient.Schema, n int, act string) conditionView {
	src := endingSources(s)
	c, ok := typedCondition(p, endingMember, act, src)
	if !ok {
		c, ok = parseEndingCondition(s, n)
	}
	return conditionView{
		ID: "ending" + strconv.Itoa(n) + "-if", Member: endingMember, Path: fmt.Sprintf("endings[%d].if", n), Action: act,
		C: c, OK: ok, Raw: s.Endings[n].If, Sources: src,
		Always:    "Always: no condition. The endings after this one are then never shown.",
		NoSources: "An ending's condition reads the form's fields: there is none yet.",
	}
}

// endingWords is the words of ending n's condition, "" for none.
func endingWords(s *hubclient.Schema, n int) string {
	if len(bytes.TrimSpace(s.Endings[n].If)) == 0 {
		return ""
	}
	c, ok := parseEndingCondition(s, n)
	if !ok {
		return endingMember.Lead + " a condition written in the JSON file"
	}
	return endingMember.Lead + " " + describeCondition(s, c)
}

// endingName is how the builder names ending n to its owner.
func endingName(s *hubclient.Schema, n int) string {
	return cmp.Or(s.Endings[n].Title, s.Endings[n].ID)
}

// newEndingID makes an ending's id from its title: a field name's
// characters, unique among the form's endings.
func newEndingID(s *hubclient.Schema, title string) string {
	base := cmp.Or(nameFrom(title), "ending")
	id := base
	for k := 2; s.Ending(id) != nil; k++ {
		id = base + "_" + strconv.Itoa(k)
	}
	return id
}

// addEnding adds an ending after the others, with the posted title, text
// and page; its condition is set in its card next.
func addEnding(d *formFile, c echo.Context) error {
	s := d.Schema
	e := hubclient.Ending{
		Title:       strings.TrimSpace(c.FormValue("title")),
		Text:        strings.TrimSpace(c.FormValue("text")),
		RedirectURL: strings.TrimSpace(c.FormValue("redirectUrl")),
	}
	at := "endings[" + strconv.Itoa(len(s.Endings)) + "]"
	if err := checkEnding(e, at); err != nil {
		return err
	}
	e.ID = newEndingID(s, cmp.Or(e.Title, "ending"))
	s.Endings = append(s.Endings, e)
	c.Set(editingKey, editing{name: "ending:" + e.ID, anchor: "ending-" + strconv.Itoa(len(s.Endings)-1)})
	return nil
}

// checkEnding refuses an ending with nothing to show nor page to go to,
// or a page that is not a full web address, in words for its owner.
func checkEnding(e hubclient.Ending, path string) error {
	var errs []error
	if e.Title == "" && e.RedirectURL == "" {
		errs = append(errs, problem(path+".title", "an ending needs a title, or a page to send visitors to"))
	}
	if e.RedirectURL != "" && !hubclient.ValidEndingRedirect(e.RedirectURL) {
		errs = append(errs, problem(path+".redirectUrl", "the page to send visitors to is a full address starting with https:// or http://, such as https://example.com/welcome, not %q", e.RedirectURL))
	}
	return errors.Join(errs...)
}

// editEnding sets ending n's title, text, page and condition. A condition
// the editor showed as its text posts no rows and is kept; a post that
// adds or removes a row saves nothing.
func editEnding(d *formFile, c echo.Context) error {
	n, err := endingAt(d, c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	if form.Get(conditionAction) != "" {
		return errKeepEditing
	}
	s := d.Schema
	e := &s.Endings[n]
	e.Title = strings.TrimSpace(form.Get("title"))
	e.Text = strings.TrimSpace(form.Get("text"))
	e.RedirectURL = strings.TrimSpace(form.Get("redirectUrl"))
	path := fmt.Sprintf("endings[%d]", n)
	errs := []error{checkEnding(*e, path)}
	if form.Get(endingMember.Name) == "rows" {
		posted := conditionFromForm(form, endingMember.Name)
		if err := endingFieldsShown(form, n, posted); err != nil {
			errs = append(errs, err)
		} else if err := checkEndingCondition(s, n, posted); err != nil {
			errs = append(errs, err)
		} else if stored, ok := parseEndingCondition(s, n); !ok || !sameCondition(stored, posted) {
			e.If = encodeCondition(s, posted)
		}
	}
	c.Set(editingKey, editing{name: "ending:" + e.ID, anchor: "ending-" + strconv.Itoa(n)})
	return errors.Join(errs...)
}

// endingFieldsShown refuses rows whose field was changed without the
// page showing that field's comparisons and values (without JavaScript),
// as fieldsShown does for a field's: the page comes back with the right
// ones.
func endingFieldsShown(form url.Values, n int, c condition) error {
	var errs []error
	for k, r := range c.Rows {
		key := endingMember.Name + "." + strconv.Itoa(k) + ".shown"
		if shown, ok := form[key]; ok && shown[0] != r.Field {
			errs = append(errs, problem(fmt.Sprintf("endings[%d].if", n),
				"%s, condition %d: the field changed; choose how to compare it and the value", endingMember.Heading, k+1))
		}
	}
	return errors.Join(errs...)
}

// checkEndingCondition refuses rows the editor should not write: a field
// that does not exist or cannot be compared, a comparison its type does
// not offer, a value missing or not of its kind.
func checkEndingCondition(s *hubclient.Schema, n int, c condition) error {
	path := fmt.Sprintf("endings[%d].if", n)
	if len(c.Rows) > maxConditionRows {
		return problem(path, "%s: at most %d conditions", endingMember.Heading, maxConditionRows)
	}
	src := endingSources(s)
	var errs []error
	for k, r := range c.Rows {
		at := fmt.Sprintf("%s, condition %d", endingMember.Heading, k+1)
		f := conditionField(s, r.Field)
		switch {
		case r.Field == "":
			errs = append(errs, problem(path, "%s: choose a field", at))
		case f == nil || !hasSource(src, f.Name):
			errs = append(errs, problem(path, "%s: there is no field %q to compare", at, r.Field))
		default:
			if err := checkRow(f, r, path, at); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// moveEnding moves ending n up or down: the first whose condition holds
// is the one shown, so their order matters.
func moveEnding(d *formFile, c echo.Context) error {
	n, err := endingAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	j := n - 1
	switch c.FormValue("to") {
	case "up":
	case "down":
		j = n + 1
	default:
		return &hub.Error{Status: http.StatusBadRequest, Message: "Say where the ending goes: up or down."}
	}
	if j < 0 || j >= len(s.Endings) {
		return problem(fmt.Sprintf("endings[%d]", n), "the ending %q cannot move further %s", endingName(s, n), c.FormValue("to"))
	}
	s.Endings[n], s.Endings[j] = s.Endings[j], s.Endings[n]
	return nil
}

// removeEnding removes ending n, and its translations.
func removeEnding(d *formFile, c echo.Context) error {
	n, err := endingAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	id := s.Endings[n].ID
	s.Endings = slices.Delete(s.Endings, n, n+1)
	for _, tr := range s.I18n.Translations {
		delete(tr.Endings, id)
	}
	return nil
}

// endingsReading names each ending whose condition reads the field called
// name, which may then not be removed.
func endingsReading(s *hubclient.Schema, name string) error {
	var errs []error
	for n, e := range s.Endings {
		if slices.Contains(conditionRefs(e.If), name) {
			errs = append(errs, problem(fmt.Sprintf("endings[%d].if", n),
				"the ending %q is shown depending on %q: remove that condition first", endingName(s, n), name))
		}
	}
	return errors.Join(errs...)
}

// renameInEndings follows a field's new name in the endings' conditions
// the editor shows as rows; one written by hand that reads it refuses
// the rename, naming the ending.
func renameInEndings(s *hubclient.Schema, old, name string) error {
	var errs []error
	for n := range s.Endings {
		e := &s.Endings[n]
		if !slices.Contains(conditionRefs(e.If), old) {
			continue
		}
		// The rows are read as they were written, before the rename.
		at := fieldIndex(s, name)
		s.Fields[at].Name = old
		c, ok := readCondition(s, e.If)
		s.Fields[at].Name = name
		if !ok {
			errs = append(errs, problem(fmt.Sprintf("endings[%d].if", n),
				"the ending %q is shown depending on %q: change its condition in the JSON editor, or keep the name", endingName(s, n), old))
			continue
		}
		for k := range c.Rows {
			if c.Rows[k].Field == old {
				c.Rows[k].Field = name
			}
		}
		e.If = encodeCondition(s, c)
	}
	return errors.Join(errs...)
}

// removeEndingAction removes an ending once the owner confirmed it.
// Without confirmed=1 it asks first, naming the ending of the version the
// page was built from; a post the builder would refuse anyway (an older
// page, no such ending) is refused at once.
func (con *Console) removeEndingAction(c echo.Context) error {
	return con.confirmRemoval(c, con.builderAction(removeEnding, viewFields), func(d *formFile) (confirmation, bool) {
		n, err := endingAt(d, c)
		if err != nil {
			return confirmation{}, false
		}
		return confirmation{
			Question: "Remove the ending “" + endingName(d.Schema, n) + "”?",
			Detail:   "The ending leaves the draft with its translations. The live version keeps it until you publish; submissions that reached it still name it.",
			Action:   "Remove the ending", Cancel: formURL(c.Param("site"), c.Param("slug")) + "#endings",
		}, true
	})
}
