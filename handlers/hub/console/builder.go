package console

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/hubclient"

	"github.com/hubform/hubform/handlers/hub"
)

// The structured builder edits the form file through plain HTML forms.
// The JSON stays the one source of truth: every action reads the draft
// the page was built from, changes it, validates it with formsource.Parse as a
// JSON save does, and saves it into the draft or shows the problems back.

// registerBuilder adds the builder's actions to the database forms' pages.
func (con *Console) registerBuilder(g *echo.Group) {
	g.POST("/forms/:site/:slug/fields", con.builderAction(con.addField, viewFields))
	g.POST("/forms/:site/:slug/fields/:n", con.builderAction(editField, viewFields))
	g.POST("/forms/:site/:slug/fields/:n/move", con.builderAction(moveField, viewFields))
	g.POST("/forms/:site/:slug/fields/:n/remove", con.removeFieldAction)
	g.GET("/forms/:site/:slug/settings", con.settingsPage)
	g.POST("/forms/:site/:slug/settings", con.builderAction(con.editSettings, viewSettings))
	if con.cfg.ChatTester != nil {
		g.POST("/forms/:site/:slug/settings/destinations/:n/test", con.testDestination)
	}
	g.POST("/forms/:site/:slug/translations", con.builderAction(addLocale, viewTranslations))
	g.POST("/forms/:site/:slug/translations/:locale", con.builderAction(editTranslation, viewTranslations))
	con.registerInPlace(g)
	con.registerEndings(g)
	con.registerCalculations(g)
	con.registerDesign(g)
}

// Views of a stored form's pages: the Build tab shows the fields, the
// translations or the JSON file beside the preview; the Settings tab is a
// page of its own.
const (
	viewFields       = ""
	viewTranslations = "translations"
	viewJSON         = "json"
	viewSettings     = "settings"
)

// viewOf returns the view named by the query or form value "view", the
// fields for any other.
func viewOf(name string) string {
	switch name {
	case viewTranslations, viewJSON:
		return name
	}
	return viewFields
}

// viewURL is the page of the form that shows view.
func viewURL(site, slug, view string) string {
	switch view {
	case viewSettings:
		return settingsPath(site, slug)
	case viewDesign:
		return designPath(site, slug)
	case viewFields:
		return formURL(site, slug)
	}
	return formURL(site, slug) + "?view=" + view
}

// withQuery adds name=value to the query of path.
func withQuery(path, name, value string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + name + "=" + url.QueryEscape(value)
}

// formFile is a form file decoded for the builder: the schema, and its
// member "hub" member by member, so that settings the builder does not
// show (webhooks, notify ...) are written back as they were.
type formFile struct {
	Schema *hubclient.Schema
	Hub    map[string]json.RawMessage
}

// decodeFormFile decodes body for the builder, or returns nil when it is not
// a JSON object whose members have the schema's shapes.
func decodeFormFile(body []byte) *formFile {
	var s hubclient.Schema
	if json.Unmarshal(body, &s) != nil {
		return nil
	}
	d := &formFile{Schema: &s, Hub: map[string]json.RawMessage{}}
	if raw, ok := s.Extra["hub"]; ok && json.Unmarshal(raw, &d.Hub) != nil {
		return nil
	}
	return d
}

// encode writes the decoded file back as a form file.
func (d *formFile) encode() ([]byte, error) {
	if len(d.Hub) > 0 {
		raw, err := json.Marshal(d.Hub)
		if err != nil {
			return nil, err
		}
		if d.Schema.Extra == nil {
			d.Schema.Extra = hubclient.Extra{}
		}
		d.Schema.Extra["hub"] = raw
	} else {
		delete(d.Schema.Extra, "hub")
	}
	return json.MarshalIndent(d.Schema, "", "  ")
}

// hubString returns the hub setting name as a string, "" when unset.
func (d *formFile) hubString(name string) string {
	var s string
	if raw, ok := d.Hub[name]; ok && json.Unmarshal(raw, &s) != nil {
		return string(raw)
	}
	return s
}

// hubList returns the hub setting name, a list of strings, one a line.
func (d *formFile) hubList(name string) string {
	var l []string
	_ = json.Unmarshal(d.Hub[name], &l)
	return strings.Join(l, "\n")
}

// hubNumber returns the hub setting name, a number, "" when unset.
func (d *formFile) hubNumber(name string) string { return string(d.Hub[name]) }

// setHub sets the hub setting name to v, or removes it when v is empty.
func (d *formFile) setHub(name string, v any, empty bool) {
	if empty {
		delete(d.Hub, name)
		return
	}
	raw, _ := json.Marshal(v)
	d.Hub[name] = raw
}

// editFunc changes d as the posted form asks. An error is a problem with
// the input, shown to the owner; nothing is saved.
type editFunc func(d *formFile, c echo.Context) error

// problem is an error of the posted input, at the path of the file it
// would have changed.
func problem(path, format string, args ...any) error {
	return &formsource.Problem{Path: path, Err: fmt.Errorf(format, args...)}
}

// builderAction runs edit on the newest version, if the form is still at
// the revision the page was built from: saved into the draft when the
// result validates, and the page of view shown
// again; otherwise that page comes back with the problems and the posted
// inputs as typed. An edit's *hub.Error is a request no page of the
// console sends, answered as it says.
func (con *Console) builderAction(edit editFunc, view string) echo.HandlerFunc {
	return func(c echo.Context) error {
		site, slug := c.Param("site"), c.Param("slug")
		p, err := con.loadForm(c, site, slug)
		if err != nil {
			return err
		}
		p.View = view
		form, _ := c.FormParams()
		p.Typed, p.TypedAt = form, c.Request().URL.Path
		if baseOf(c) != p.Record.Revision {
			// The builder's forms name fields by position: acting on a
			// newer version could change another field than the one shown.
			p.Shown, p.Typed = p.Record.LastVersion, nil
			v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, p.Shown)
			if err != nil {
				return con.formError(err)
			}
			p.Body = string(v.Body)
			p.Problems = []formsource.Problem{{Err: errors.New("the form was saved again since this page was loaded: here is its newest version, nothing was changed")}}
			return con.renderEdit(c, http.StatusConflict, p)
		}
		base := p.Record.LastVersion
		v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, base)
		if err != nil {
			return con.formError(err)
		}
		p.Body = string(v.Body)
		d := decodeFormFile(v.Body)
		if d == nil {
			p.Shown = base
			p.Problems = []formsource.Problem{{Err: errors.New("this version cannot be read by the builder: fix it in the JSON editor")}}
			return con.renderEdit(c, http.StatusUnprocessableEntity, p)
		}
		if err := edit(d, c); err != nil {
			if he := (*hub.Error)(nil); errors.As(err, &he) {
				return he
			}
			if errors.Is(err, errKeepEditing) {
				return con.renderEdit(c, http.StatusOK, p)
			}
			p.Problems = formsource.Problems(err)
			return con.renderEdit(c, http.StatusUnprocessableEntity, p)
		}
		body, err := d.encode()
		if err != nil {
			return hub.Internal("encoding a form", err)
		}
		p.Body = string(body)
		// An input that showed a secret hidden posts its mark back.
		if body, err = formsource.KeepSecrets(body, v.Body); err != nil {
			p.Problems = formsource.Problems(err)
			return con.renderEdit(c, http.StatusUnprocessableEntity, p)
		}
		if _, err := formsource.Parse(site, slug, body); err != nil {
			p.Problems = formsource.Problems(err)
			return con.renderEdit(c, http.StatusUnprocessableEntity, p)
		}
		if con.inDirectory(site, slug) {
			p.Problems = []formsource.Problem{{Err: errors.New("the forms directory holds this form and wins over the database: nothing was saved")}}
			return con.renderEdit(c, http.StatusConflict, p)
		}
		n, err := con.save(c, site, slug, body, p.Record.Revision)
		if he := (*hub.Error)(nil); errors.As(err, &he) && he.Status == http.StatusConflict {
			// Saved by another page between the read and the save.
			p.Problems = []formsource.Problem{{Err: errors.New("the form was saved again since this page was loaded: nothing was changed, reload the page")}}
			return con.renderEdit(c, http.StatusConflict, p)
		}
		if err != nil {
			return err
		}
		if made, ok := c.Get(newSecretsKey).([]newSecret); ok {
			con.keepSecretsToShow(c, made)
		}
		to := withQuery(viewURL(site, slug, view), "saved", strconv.FormatInt(n, 10))
		if moved, ok := c.Get(movedKey).(string); ok {
			to = withQuery(to, "moved", moved)
		}
		if r, ok := c.Get(retypedKey).(retyped); ok {
			to = withQuery(withQuery(to, "retyped", r.name), "dropped", strings.Join(r.dropped, ","))
		}
		if e, ok := c.Get(editingKey).(editing); ok {
			// Its panel open again, where it was.
			to = withQuery(to, "editing", e.name) + "#" + e.anchor
		}
		if view == viewFields && c.Request().Header.Get(inPlaceHeader) != "" {
			return con.showInPlace(c, to)
		}
		return c.Redirect(http.StatusSeeOther, to)
	}
}

// renderEdit shows the page of p.View after a refused edit. htmx swaps
// only successful answers by default, so its requests get 200 with the
// page, whose problems are announced by their alert; plain posts get
// status.
func (con *Console) renderEdit(c echo.Context, status int, p formProps) error {
	if c.Request().Header.Get("HX-Request") != "" {
		status = http.StatusOK
	}
	if p.View != viewSettings && p.View != viewDesign {
		p.Preview = con.previewOf(c, p.Site, p.Slug, []byte(p.Body), "")
	}
	return con.renderForm(c, status, p)
}

// fieldAt returns the index of the field the route names.
func fieldAt(d *formFile, c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(d.Schema.Fields) {
		return 0, problem("fields", "there is no field %s", c.Param("n"))
	}
	return n, nil
}

// addField adds a field of the posted type at the position "at" (from 0;
// the end when none is posted). Its name is the one posted, or one made
// from its label, unique; a field with neither is labelled with its
// type's word. Placed among other fields, it joins the step of the field
// before it (or after it, first), unless a step is posted.
func (con *Console) addField(d *formFile, c echo.Context) error {
	s := d.Schema
	f := hubclient.Field{Type: c.FormValue("type"), Name: strings.TrimSpace(c.FormValue("name")), Label: strings.TrimSpace(c.FormValue("label"))}
	if !slices.Contains(hubclient.FieldTypes, f.Type) {
		return problem("fields", "choose a field type")
	}
	if !f.TypeOf().HasValue() {
		// Content says its text, not a label; it starts with words or a
		// picture to replace, since the file needs them.
		f.Text, f.Label = f.Label, ""
		switch f.Type {
		case hubclient.FieldHeading:
			f.Text = cmp.Or(f.Text, "A heading")
		case hubclient.FieldParagraph:
			f.Text = cmp.Or(f.Text, "Some words for visitors to read.")
		case hubclient.FieldImage:
			f.Text, f.Src = "", con.publicURL(c)+staticPath+"/"+assetURL("picture.svg")
		default:
			f.Text = ""
		}
		if f.Name == "" {
			f.Name = uniqueName(s, nameFrom(kindOf(f.Type).Word))
		}
	}
	at := len(s.Fields)
	if v := c.FormValue("at"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(s.Fields) {
			return problem("fields", "there is no position %s: the form has %d fields", v, len(s.Fields))
		}
		at = n
	}
	if f.Name == "" {
		if f.Label == "" {
			f.Label = kindOf(f.Type).Word
		}
		f.Name = uniqueName(s, nameFrom(f.Label))
	}
	if s.Field(f.Name) != nil {
		return problem("fields", "a field is called %q already", f.Name)
	}
	if f.TypeOf().TakesOptions() {
		// Such a field needs an option to validate; the owner edits it next.
		f.Options = newOptions(f.Type)
	}
	switch f.Type {
	case hubclient.FieldSlider:
		f.Min, f.Max = "0", "100" // a slider needs both ends
	case hubclient.FieldMatrix:
		// A matrix needs its rows and columns; the owner names them next.
		f.Rows = numbered("Row", 2)
		f.Columns = numbered("Column", 3)
	case hubclient.FieldGroup:
		// A group needs a question to repeat.
		f.Fields = []hubclient.Field{{Name: "name", Type: hubclient.FieldText, Label: "Name"}}
	}
	s.Fields = slices.Insert(s.Fields, at, f)
	if c.FormValue("step") == "" && f.Type != hubclient.FieldHidden {
		for _, k := range []int{at - 1, at + 1} {
			if k < 0 || k >= len(s.Fields) {
				continue
			}
			if st := stepOf(s, s.Fields[k].Name); st != "" {
				placeInStep(s, f.Name, st)
				return nil
			}
		}
	}
	return putInStep(d, f.Name, c)
}

// editField sets the field's texts, flags, options and step.
func editField(d *formFile, c echo.Context) error {
	i, err := fieldAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	f := &s.Fields[i]
	old := f.Name
	f.Name = strings.TrimSpace(c.FormValue("name"))
	form := c.Request().PostForm
	if f.TypeOf().HasValue() {
		f.Label, f.Placeholder, f.Help = c.FormValue("label"), c.FormValue("placeholder"), c.FormValue("help")
		f.Required = c.FormValue("required") != ""
		f.Prefill = canPrefill(f) && c.FormValue("prefill") != ""
	}
	if _, ok := form["options"]; ok {
		f.Options = parseOptions(c.FormValue("options"), f.Options)
	}
	if err := editTypeSettings(f, i, form); err != nil {
		return err
	}
	if f.Name != old {
		renameField(s, old, f.Name)
	}
	partsTranslations(s, &s.Fields[i])
	if err := editConditions(d, i, old, c); err != nil {
		return err
	}
	if to := c.FormValue("type"); to != "" && to != f.Type {
		dropped, err := retype(s, i, to)
		if err != nil {
			return err
		}
		c.Set(retypedKey, retyped{name: f.Name, dropped: dropped})
	}
	if c.FormValue(questionActionField) != "" {
		c.Set(editingKey, editing{name: f.Name, anchor: fmt.Sprintf("f%d-questions", i)})
	}
	if err := putInStep(d, f.Name, c); err != nil {
		return err
	}
	return stepsInOrder(s)
}

// editingKey is where editField leaves the field whose panel the page
// after it shows open, and where on it: a group whose question a button
// moved, added or removed.
const editingKey = "hubform.console.editing"

type editing struct{ name, anchor string }

// retypedKey is where editField leaves the field whose type it changed
// and what the change dropped, for the page after it to say so.
const retypedKey = "hubform.console.retyped"

type retyped struct {
	name    string
	dropped []string
}

// canPrefill reports whether the builder offers the field to take its
// value from the page's query string: a visible field that is not a file
// nor a signature, which no address can carry, nor a group or a matrix,
// whose entries and rows an address would name one by one, nor content, which takes no value. Hidden
// fields always take it.
func canPrefill(f *hubclient.Field) bool {
	return f.Type != hubclient.FieldHidden && !f.TypeOf().TakesFiles() && f.Type != hubclient.FieldGroup && f.Type != hubclient.FieldMatrix && f.TypeOf().HasValue()
}

// prefillKey is the key of the page's address that prefills f: its name,
// or for an address one of its parts, by which each part is given.
func prefillKey(f *hubclient.Field) string {
	if f.Type == hubclient.FieldAddress {
		return f.PartKey(hubclient.AddressCity)
	}
	return f.Name
}

// parseOptions reads options one a line, "value|label" or a value that is
// its own label, keeping what old knew of each value beyond its label.
func parseOptions(text string, old []hubclient.Option) []hubclient.Option {
	var out []hubclient.Option
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		value, label, ok := strings.Cut(line, "|")
		value = strings.TrimSpace(value)
		if !ok {
			label = value
		}
		o := hubclient.Option{Value: value, Label: strings.TrimSpace(label)}
		if j := slices.IndexFunc(old, func(o hubclient.Option) bool { return o.Value == value }); j >= 0 {
			// An option kept keeps its picture, points and what else it has.
			o, o.Label = old[j], strings.TrimSpace(label)
		}
		out = append(out, o)
	}
	return out
}

// optionsText is the inverse of parseOptions.
func optionsText(os []hubclient.Option) string {
	var b strings.Builder
	for _, o := range os {
		b.WriteString(o.Value)
		if o.Label != "" && o.Label != o.Value {
			b.WriteString("|" + o.Label)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// renameField follows a field's new name in the steps and translations.
func renameField(s *hubclient.Schema, old, name string) {
	for i := range s.Steps {
		for k, n := range s.Steps[i].Fields {
			if n == old {
				s.Steps[i].Fields[k] = name
			}
		}
	}
	for _, tr := range s.I18n.Translations {
		if ft, ok := tr.Fields[old]; ok {
			delete(tr.Fields, old)
			tr.Fields[name] = ft
		}
	}
}

// putInStep moves the field to the posted step: an existing step's id, or
// "new" with a title for a new step. Without a step posted, a field in no
// step goes to the last one, or a first step when there is none. Hidden
// fields, which visitors never see, stay out of the steps.
func putInStep(d *formFile, name string, c echo.Context) error {
	s := d.Schema
	if f := s.Field(name); f != nil && f.Type == hubclient.FieldHidden {
		return nil
	}
	id := c.FormValue("step")
	if id == "" {
		if stepOf(s, name) != "" {
			return nil
		}
		if len(s.Steps) > 0 {
			id = s.Steps[len(s.Steps)-1].ID
		} else {
			id = "new"
		}
	}
	if id == "new" {
		id = newStepID(s)
		s.Steps = append(s.Steps, hubclient.Step{ID: id, Title: c.FormValue("stepTitle")})
	}
	to := slices.IndexFunc(s.Steps, func(st hubclient.Step) bool { return st.ID == id })
	if to < 0 {
		return problem("steps", "there is no step %q", id)
	}
	if stepOf(s, name) == id {
		return nil
	}
	removeFromSteps(s, name)
	to = slices.IndexFunc(s.Steps, func(st hubclient.Step) bool { return st.ID == id })
	s.Steps[to].Fields = append(s.Steps[to].Fields, name)
	return nil
}

// stepOf returns the id of the step the field is in, "" for none.
func stepOf(s *hubclient.Schema, name string) string {
	for _, st := range s.Steps {
		if slices.Contains(st.Fields, name) {
			return st.ID
		}
	}
	return ""
}

// removeFromSteps takes the field out of its step, and removes a step
// left empty, which visitors would see as a blank page.
func removeFromSteps(s *hubclient.Schema, name string) {
	steps := s.Steps[:0]
	for _, st := range s.Steps {
		if i := slices.Index(st.Fields, name); i >= 0 {
			st.Fields = slices.Delete(st.Fields, i, i+1)
			if len(st.Fields) == 0 {
				continue
			}
		}
		steps = append(steps, st)
	}
	s.Steps = steps
}

// newStepID returns "step-N", the first N not taken.
func newStepID(s *hubclient.Schema) string {
	for n := len(s.Steps) + 1; ; n++ {
		id := "step-" + strconv.Itoa(n)
		if s.Step(id) == nil {
			return id
		}
	}
}

// moveField moves the field up, down (the buttons) or to the position
// "to" names, counted from 0 (a drop): in the list of fields, and in its
// step, which sets the order visitors see. Up from the first field of a
// step, or down from the last, it crosses the page break into the step
// next to it; a drop may name the step it lands in ("step").
func moveField(d *formFile, c echo.Context) error {
	i, err := fieldAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	name := s.Fields[i].Name
	var j int
	switch to := c.FormValue("to"); to {
	case "up", "down":
		if k := crossedStep(s, name, to); k >= 0 {
			// Up, it ends the page before; down, it starts the page after.
			id := s.Steps[k].ID
			removeFromSteps(s, name)
			k = slices.IndexFunc(s.Steps, func(st hubclient.Step) bool { return st.ID == id })
			if to == "up" {
				s.Steps[k].Fields = append(s.Steps[k].Fields, name)
			} else {
				s.Steps[k].Fields = slices.Insert(s.Steps[k].Fields, 0, name)
			}
			c.Set(movedKey, name)
			return stepsInOrder(s)
		}
		j = i - 1
		if to == "down" {
			j = i + 1
		}
	default:
		if j, err = strconv.Atoi(to); err != nil {
			return &hub.Error{Status: http.StatusBadRequest, Message: "Say where the field goes: up, down or a position from 0."}
		}
		if j < 0 || j >= len(s.Fields) {
			return problem(fmt.Sprintf("fields[%d]", i), "there is no position %d: the form has %d fields", j, len(s.Fields))
		}
	}
	if j < 0 || j >= len(s.Fields) {
		return problem(fmt.Sprintf("fields[%d]", i), "the field cannot move further %s", c.FormValue("to"))
	}
	moveTo(s, i, j)
	if st := c.FormValue("step"); st != "" && s.Step(st) != nil && stepOf(s, name) != "" {
		placeInStep(s, name, st)
	}
	c.Set(movedKey, name)
	return errors.Join(conditionsInOrder(s), stepsInOrder(s))
}

// crossedStep returns the index of the step a field moved up (to "up")
// or down crosses into: the step before its own when it is the first of
// its step, the step after when it is the last; -1 when it stays in its
// own.
func crossedStep(s *hubclient.Schema, name, to string) int {
	k := slices.IndexFunc(s.Steps, func(st hubclient.Step) bool { return slices.Contains(st.Fields, name) })
	if k < 0 {
		return -1
	}
	fs := s.Steps[k].Fields
	switch {
	case to == "up" && fs[0] == name && k > 0:
		return k - 1
	case to == "down" && fs[len(fs)-1] == name && k < len(s.Steps)-1:
		return k + 1
	}
	return -1
}

// movedKey is where moveField leaves the name of the field it moved, for
// the page after it to say where the field went.
const movedKey = "hubform.console.moved"

// movedNotice says where the field called name is in the form file body,
// after a move; "" for no field.
func movedNotice(body []byte, name string) string {
	d := decodeFormFile(body)
	if name == "" || d == nil {
		return ""
	}
	i := slices.IndexFunc(d.Schema.Fields, func(f hubclient.Field) bool { return f.Name == name })
	if i < 0 {
		return ""
	}
	page := ""
	if len(d.Schema.Steps) > 1 {
		if k := slices.IndexFunc(d.Schema.Steps, func(st hubclient.Step) bool { return slices.Contains(st.Fields, name) }); k >= 0 {
			page = fmt.Sprintf("It is on page %d of %d. ", k+1, len(d.Schema.Steps))
		}
	}
	return fmt.Sprintf("Moved %s to position %d of %d. %s", name, i+1, len(d.Schema.Fields), page)
}

// moveTo moves field i to position j of the list, and in its step as
// placeInStep does, so that the other fields keep their order.
func moveTo(s *hubclient.Schema, i, j int) {
	f := s.Fields[i]
	s.Fields = slices.Insert(slices.Delete(s.Fields, i, i+1), j, f)
	if st := stepOf(s, f.Name); st != "" {
		placeInStep(s, f.Name, st)
	}
}

// placeInStep puts the field called name in the step id, before the
// first of the step's fields that follows it in the list of fields, so
// that visitors see the list's order. The step it leaves, left without
// fields, is removed.
func placeInStep(s *hubclient.Schema, name, id string) {
	pos := func(n string) int {
		return slices.IndexFunc(s.Fields, func(f hubclient.Field) bool { return f.Name == n })
	}
	at := pos(name)
	left := ""
	for k := range s.Steps {
		if x := slices.Index(s.Steps[k].Fields, name); x >= 0 {
			s.Steps[k].Fields = slices.Delete(s.Steps[k].Fields, x, x+1)
			left = s.Steps[k].ID
		}
	}
	if st := s.Step(id); st != nil {
		x := slices.IndexFunc(st.Fields, func(n string) bool { return pos(n) > at })
		if x < 0 {
			x = len(st.Fields)
		}
		st.Fields = slices.Insert(st.Fields, x, name)
	}
	s.Steps = slices.DeleteFunc(s.Steps, func(st hubclient.Step) bool { return st.ID == left && len(st.Fields) == 0 })
}

// removeField removes the field, from its step and its translations too.
func removeField(d *formFile, c echo.Context) error {
	i, err := fieldAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	name := s.Fields[i].Name
	if err := conditionsReading(s, name); err != nil {
		return err
	}
	s.Fields = slices.Delete(s.Fields, i, i+1)
	removeFromSteps(s, name)
	for _, tr := range s.I18n.Translations {
		delete(tr.Fields, name)
	}
	return nil
}

// lines returns the text's lines that are not blank, trimmed.
func lines(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// typed returns the value the owner posted for name in the form at action
// when the page comes back from a refused post, else value.
func (p formProps) typed(action, name, value string) string {
	if p.TypedAt != action {
		return value
	}
	if v, ok := p.Typed[name]; ok && len(v) > 0 {
		return v[0]
	}
	return value
}

// typedOn is typed for a checkbox.
func (p formProps) typedOn(action, name string, on bool) bool {
	if p.TypedAt != action || p.Typed == nil {
		return on
	}
	return p.Typed.Get(name) != ""
}

// removeFieldAction removes a field once the owner confirmed it. Without
// confirmed=1 it asks first, naming the field of the version the page
// was built from; a post the builder would refuse anyway (an older page,
// no such field) is refused at once.
func (con *Console) removeFieldAction(c echo.Context) error {
	return con.confirmRemoval(c, con.builderAction(removeField, viewFields), func(d *formFile) (confirmation, bool) {
		i, err := fieldAt(d, c)
		if err != nil {
			return confirmation{}, false
		}
		name := d.Schema.Fields[i].Name
		if conditionsReading(d.Schema, name) != nil {
			return confirmation{}, false // refused at once, naming the conditions
		}
		return confirmation{
			Question: "Remove field " + name + "?",
			Detail:   "The field leaves the draft with its translations. The live version keeps it until you publish.",
			Action:   "Remove " + name, Cancel: formURL(c.Param("site"), c.Param("slug")),
		}, true
	})
}

// confirmRemoval answers a removal: remove once the owner confirmed it,
// else a page that asks, as ask words it for the version the page was
// built from. A post the builder would refuse anyway (an older page,
// nothing to remove, ask's false) goes to remove at once, which says why.
func (con *Console) confirmRemoval(c echo.Context, remove echo.HandlerFunc, ask func(d *formFile) (confirmation, bool)) error {
	if c.FormValue(confirmedField) == "1" {
		return remove(c)
	}
	site, slug := c.Param("site"), c.Param("slug")
	rec, err := con.cfg.Store.FormRecord(c.Request().Context(), site, slug)
	if err != nil {
		return con.formError(err)
	}
	if baseOf(c) != rec.Revision {
		return remove(c)
	}
	v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, rec.LastVersion)
	if err != nil {
		return con.formError(err)
	}
	d := decodeFormFile(v.Body)
	if d == nil {
		return remove(c)
	}
	q, ok := ask(d)
	if !ok {
		return remove(c)
	}
	_, err = con.confirmed(c, q)
	return err
}
