package console

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/hubclient"
)

// The in-place editor (inplace.js) edits the form where the preview shows
// it: a text at a time, a page break at a time. Its actions are narrow
// builder actions: they change one thing of the version the page was
// built from and save it as every builder action does, so that the page
// without JavaScript, which posts whole fields, and the one with it stay
// one path.

// registerInPlace adds the in-place editor's actions.
func (con *Console) registerInPlace(g *echo.Group) {
	g.POST("/forms/:site/:slug/fields/:n/text", con.builderAction(con.editText, viewFields))
	g.POST("/forms/:site/:slug/fields/:n/break", con.builderAction(breakAfter, viewFields))
	g.POST("/forms/:site/:slug/steps/:n/title", con.builderAction(editStepTitle, viewFields))
	g.POST("/forms/:site/:slug/steps/:n/join", con.builderAction(joinStep, viewFields))
	g.POST("/forms/:site/:slug/steps/:n/condition", con.builderAction(editStepCondition, viewFields))
}

// nameFrom makes a field name from a label: lower-case letters and
// digits, words joined by "_", at most 48 characters, so that a suffix
// that makes it unique still fits the schema's 64. It never starts with
// "_" (the honeypot's prefix) or a digit.
func nameFrom(label string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(label) {
		r = plainLetter(r)
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
		default:
			gap = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" {
		return "field"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "field_" + name
	}
	return name
}

// plainLetters maps the accented Latin letters names meet most to their
// letter; other letters are left out of names.
var plainLetters = func() map[rune]rune {
	from, to := []rune("àáâãäåçèéêëìíîïñòóôõöøùúûüýÿ"), []rune("aaaaaaceeeeiiiinoooooouuuuyy")
	m := make(map[rune]rune, len(from))
	for i, r := range from {
		m[r] = to[i]
	}
	return m
}()

// plainLetter is r without its accent, when plainLetters knows it.
func plainLetter(r rune) rune { return cmp.Or(plainLetters[r], r) }

// uniqueName returns name, or name_2, name_3 ..., the first no field of s
// has.
func uniqueName(s *hubclient.Schema, name string) string {
	for n, try := 2, name; ; n++ {
		if s.Field(try) == nil {
			return try
		}
		try = name + "_" + strconv.Itoa(n)
	}
}

// madeFrom reports whether name is what the builder makes from label,
// with or without the suffix that made it unique: a name the owner did
// not choose, which follows the label.
func madeFrom(name, label string) bool {
	base := nameFrom(label)
	if name == base {
		return true
	}
	n, ok := strings.CutPrefix(name, base+"_")
	_, err := strconv.Atoi(n)
	return ok && err == nil
}

// inLive reports whether the live version has a field called name. Its
// name is then the key of submissions already stored, and stays.
func (con *Console) inLive(c echo.Context, name string) (bool, error) {
	ctx := c.Request().Context()
	rec, err := con.cfg.Store.FormRecord(ctx, c.Param("site"), c.Param("slug"))
	if err != nil || rec.LiveVersion == 0 {
		return false, con.readErr(err)
	}
	v, err := con.cfg.Store.FormVersion(ctx, c.Param("site"), c.Param("slug"), rec.LiveVersion)
	if err != nil {
		return false, con.formError(err)
	}
	d := decodeFormFile(v.Body)
	return d != nil && d.Schema.Field(name) != nil, nil
}

// readErr is formError for an error that may be nil.
func (con *Console) readErr(err error) error {
	if err == nil {
		return nil
	}
	return con.formError(err)
}

// editText sets one text of a field, as posted: "part" is label, help,
// placeholder, text (of a heading or a paragraph) or option (its "option" the option's index; one past the
// last adds an option, an empty text removes it); or required, set by
// any text, unset by none. A field's name made
// from its label follows the label while no live version has the field,
// and so does an option's value made from its label.
func (con *Console) editText(d *formFile, c echo.Context) error {
	i, err := fieldAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	f := &s.Fields[i]
	value := strings.TrimSpace(c.FormValue("value"))
	switch part := c.FormValue("part"); part {
	case "label":
		if madeFrom(f.Name, cmp.Or(f.Label, kindOf(f.Type).Word)) && value != "" {
			live, err := con.inLive(c, f.Name)
			if err != nil {
				return err
			}
			if !live {
				old := f.Name
				f.Name = "" // its own name does not count as taken
				f.Name = uniqueName(s, nameFrom(value))
				renameField(s, old, f.Name)
			}
		}
		f.Label = value
	case "help":
		f.Help = value
	case "placeholder":
		f.Placeholder = value
	case "required":
		f.Required = value != ""
	case "option":
		return con.editOption(f, c, value)
	case "text":
		// A heading's or a paragraph's text; a paragraph keeps its lines.
		return editContent(f, i, url.Values{"text": {c.FormValue("value")}})
	default:
		return &hub.Error{Status: http.StatusBadRequest, Message: "Say which text to change: label, help, placeholder, option, text or required."}
	}
	return nil
}

// editOption sets the label of the posted option of f, adds it, or
// removes it when value is empty.
func (con *Console) editOption(f *hubclient.Field, c echo.Context, value string) error {
	k, err := strconv.Atoi(c.FormValue("option"))
	if err != nil || k < 0 || k > len(f.Options) {
		return problem("fields", "there is no option %s", c.FormValue("option"))
	}
	switch {
	case value == "" && k < len(f.Options):
		f.Options = slices.Delete(f.Options, k, k+1)
		return nil
	case value == "":
		return nil
	case k == len(f.Options):
		f.Options = append(f.Options, hubclient.Option{Value: uniqueOption(f.Options, value), Label: value})
		return nil
	}
	o := &f.Options[k]
	if old := cmp.Or(o.Label, o.Value); strings.EqualFold(o.Value, old) {
		live, err := con.inLive(c, f.Name)
		if err != nil {
			return err
		}
		if !live {
			o.Value = ""
			o.Value = uniqueOption(f.Options, value)
		}
	}
	o.Label = value
	return nil
}

// uniqueOption returns value, or value (2) ..., the first value no
// option of os has.
func uniqueOption(os []hubclient.Option, value string) string {
	for n, try := 2, value; ; n++ {
		if !slices.ContainsFunc(os, func(o hubclient.Option) bool { return o.Value == try }) {
			return try
		}
		try = fmt.Sprintf("%s (%d)", value, n)
	}
}

// stepAt returns the index of the step the route names.
func stepAt(d *formFile, c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(d.Schema.Steps) {
		return 0, problem("steps", "there is no step %s", c.Param("n"))
	}
	return n, nil
}

// editStepTitle sets the title of the step, as the Settings tab does.
func editStepTitle(d *formFile, c echo.Context) error {
	n, err := stepAt(d, c)
	if err != nil {
		return err
	}
	d.Schema.Steps[n].Title = strings.TrimSpace(c.FormValue("title"))
	return nil
}

// breakAfter starts a new step, a new page for visitors, after the field:
// the fields that follow it in its step go to the new step, titled as
// posted ("stepTitle").
func breakAfter(d *formFile, c echo.Context) error {
	i, err := fieldAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	name := s.Fields[i].Name
	k := slices.IndexFunc(s.Steps, func(st hubclient.Step) bool { return slices.Contains(st.Fields, name) })
	if k < 0 {
		return problem(fmt.Sprintf("fields[%d]", i), "%s is in no step: a page cannot start after it", name)
	}
	at := slices.Index(s.Steps[k].Fields, name) + 1
	if at == len(s.Steps[k].Fields) {
		return problem(fmt.Sprintf("fields[%d]", i), "a new page starts after %s already", name)
	}
	rest := slices.Clone(s.Steps[k].Fields[at:])
	s.Steps[k].Fields = s.Steps[k].Fields[:at]
	st := hubclient.Step{ID: newStepID(s), Title: strings.TrimSpace(c.FormValue("stepTitle")), Fields: rest}
	s.Steps = slices.Insert(s.Steps, k+1, st)
	return stepsInOrder(s)
}

// joinStep removes the page break before the step: its fields join the
// step before it, its title and their translations go. A step shown on
// a condition keeps its break, which would lose the condition.
func joinStep(d *formFile, c echo.Context) error {
	n, err := stepAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	if n == 0 {
		return problem("steps[0]", "the first page has no page break before it")
	}
	st := s.Steps[n]
	if len(st.VisibleIf) > 0 {
		return problem(fmt.Sprintf("steps[%d].visibleIf", n), "this page is shown on a condition: remove the condition first")
	}
	s.Steps[n-1].Fields = append(s.Steps[n-1].Fields, st.Fields...)
	s.Steps = slices.Delete(s.Steps, n, n+1)
	for _, tr := range s.I18n.Translations {
		delete(tr.Steps, st.ID)
	}
	return nil
}

// stepName is how the builder names a step to owners: its place and its
// title.
func stepName(s *hubclient.Schema, id string) string {
	n := stepNumber(s, id)
	name := "Page " + strconv.Itoa(n)
	if st := s.Step(id); st != nil && st.Title != "" {
		name += ": " + st.Title
	}
	return name
}

// nameRefused reports whether the page shows a problem with the name of
// field i: its Advanced part, where the name is, opens.
func (p formProps) nameRefused(i int) bool {
	at := "fields[" + strconv.Itoa(i) + "].name"
	return slices.ContainsFunc(p.Problems, func(pr formsource.Problem) bool { return pr.Path == at })
}

// inPlaceHeader marks the in-place editor's posts: it swaps the page in
// by itself, so the page comes with the answer rather than after a
// redirect, a round trip less for each edit.
const inPlaceHeader = "X-Hubform-In-Place"

// showInPlace answers the page at to, a page of the Build tab, as its
// GET would.
func (con *Console) showInPlace(c echo.Context, to string) error {
	u, err := url.Parse(to)
	if err != nil {
		return hub.Internal("reading the builder's address", err)
	}
	c.Request().URL.RawQuery = u.RawQuery
	return con.formPage(c)
}
