package console

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// A field's panel edits the settings of its type (a rating's stars, a
// scale's ends, a slider's numbers, the pictures of options) and changes
// its type. The settings are checked here, in the owner's words, before
// formsource.Parse checks the file as every save does.

// typeChoices returns the kinds a field may change to, by group: the
// types that take a value, not hidden (which leaves the pages) nor
// content. None for a field that may not change: hidden, a honeypot,
// content.
func typeChoices(f *hubclient.Field) []kindGroup {
	if !canRetype(f) {
		return nil
	}
	return kindsByGroup(func(k fieldKind) bool {
		return k.Type != hubclient.FieldHidden && (&hubclient.Field{Type: k.Type}).TypeOf().HasValue() && !keepsItsType(k.Type)
	})
}

// canRetype reports whether the panel offers to change the field's type:
// one the palette offers, so that the select shows it chosen.
func canRetype(f *hubclient.Field) bool {
	offered := slices.ContainsFunc(fieldKinds, func(k fieldKind) bool { return k.Type == f.Type })
	return offered && f.Type != hubclient.FieldHidden && !hubclient.IsHoneypot(f.Name) && f.TypeOf().HasValue() && !keepsItsType(f.Type)
}

// keepsItsType reports whether a field of type t is made of parts of its
// own (a matrix's rows, an address's lines, a group's questions, a
// signature's drawing), which no other type could keep: it is added as
// what it is, and stays so.
func keepsItsType(t string) bool { return typeEditors[t].keeps }

// What a change of type drops, by the words the page says it with.
const (
	droppedOptions  = "options"
	droppedPictures = "pictures"
	droppedText     = "text"
	droppedBounds   = "bounds"
	droppedLabels   = "labels"
	droppedItems    = "items"
	droppedFiles    = "files"
)

// droppedWords are the words of what a change of type dropped.
var droppedWords = map[string]string{
	droppedOptions:  "its options",
	droppedPictures: "the pictures of its options",
	droppedText:     "its length and pattern rules",
	droppedBounds:   "its lowest, highest and step",
	droppedLabels:   "the words under its ends",
	droppedItems:    "its fewest and most choices",
	droppedFiles:    "its file types and several files",
}

// retypedNotice says what the change of the field called name's type
// to the type it has in body dropped, from the query's codes; "" when
// there is no such field.
func retypedNotice(body []byte, name, codes string) string {
	d := decodeFormFile(body)
	if name == "" || d == nil || d.Schema.Field(name) == nil {
		return ""
	}
	f := d.Schema.Field(name)
	msg := fmt.Sprintf("%s is now a %s.", fieldWords(f), kindOf(f.Type).Word)
	var words []string
	for c := range strings.SplitSeq(codes, ",") {
		if w, ok := droppedWords[c]; ok && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		msg += " It no longer has " + andWords(words) + ": a " + kindOf(f.Type).Word + " takes none."
	}
	return msg + " "
}

// andWords joins words as "a, b and c".
func andWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// retype changes field i of s to type to: options kept or made, and what
// the new type does not take dropped, named in the codes it returns. A
// condition of another field or page that reads the field and that the
// new type cannot answer refuses the change, as removing the field does.
func retype(s *hubclient.Schema, i int, to string) ([]string, error) {
	f := &s.Fields[i]
	if to == f.Type {
		return nil, nil
	}
	path := fmt.Sprintf("fields[%d].type", i)
	if !canRetype(f) || !slices.ContainsFunc(typeChoices(f), func(g kindGroup) bool {
		return slices.ContainsFunc(g.Kinds, func(k fieldKind) bool { return k.Type == to })
	}) {
		return nil, problem(path, "%s cannot become a %s: choose one of the types offered", fieldWords(f), kindOf(to).Word)
	}
	readers := conditionReaders(s, f.Name)
	old := *f
	var dropped []string
	drop := func(code string, set bool) {
		if set {
			dropped = append(dropped, code)
		}
	}
	f.Type = to
	t := f.TypeOf()
	switch {
	case t.TakesOptions() && len(f.Options) == 0:
		f.Options = newOptions(to)
	case !t.TakesOptions():
		drop(droppedOptions, len(f.Options) > 0)
		f.Options = nil
	}
	if to != hubclient.FieldRadio && to != hubclient.FieldCheckboxes {
		for k := range f.Options {
			drop(droppedPictures, f.Options[k].Image != "")
			f.Options[k].Image, f.Options[k].Alt = "", ""
		}
	}
	if !t.TakesText() {
		drop(droppedText, f.MinLength != 0 || f.MaxLength != 0 || f.Pattern != "")
		f.MinLength, f.MaxLength, f.Pattern = 0, 0, ""
	}
	// Bounds carry over between types that read them alike (a number
	// and a slider); a rating's stars mean nothing to a scale.
	if old.TypeOf().Range() == nil || t.Range() != old.TypeOf().Range() {
		drop(droppedBounds, f.Min != "" || f.Max != "" || f.Step != 0)
		f.Min, f.Max, f.Step = "", "", 0
	}
	if to != hubclient.FieldScale && to != hubclient.FieldNPS {
		drop(droppedLabels, f.MinLabel != "" || f.MaxLabel != "")
		f.MinLabel, f.MaxLabel = "", ""
	}
	if !t.TakesItems() {
		drop(droppedItems, f.MinItems != 0 || f.MaxItems != 0)
		f.MinItems, f.MaxItems = 0, 0
	}
	if to != hubclient.FieldFile {
		drop(droppedFiles, f.Accept != "" || f.Multiple)
		f.Accept, f.Multiple = "", false
	}
	f.Prefill = f.Prefill && canPrefill(f)
	if to == hubclient.FieldSlider && (f.Min == "" || f.Max == "") {
		f.Min, f.Max = "0", "100" // a slider needs both ends
	}
	for code := range f.Messages {
		if code != hubclient.ProblemRequired && !ruleSet(f, code) {
			delete(f.Messages, code)
		}
	}
	if err := readersFit(s, i, old, readers); err != nil {
		*f = old
		return nil, err
	}
	retypeTranslations(s, f)
	return dropped, nil
}

// retypeTranslations drops what the translations give of f that its new
// type no longer has: options gone, the words under the ends.
func retypeTranslations(s *hubclient.Schema, f *hubclient.Field) {
	for _, tr := range s.I18n.Translations {
		ft, ok := tr.Fields[f.Name]
		if !ok {
			continue
		}
		for value := range ft.Options {
			if !slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Value == value }) {
				delete(ft.Options, value)
			}
		}
		if f.Type != hubclient.FieldScale && f.Type != hubclient.FieldNPS {
			ft.MinLabel, ft.MaxLabel = "", ""
		}
		tr.Fields[f.Name] = ft
	}
}

// newOptions are the options a new field of type t starts with: one,
// which the owner edits next; three for a ranking, which orders them.
func newOptions(t string) []hubclient.Option {
	if t == hubclient.FieldRanking {
		return numbered("Option", 3)
	}
	return numbered("Option", 1)
}

// numbered returns n options named word 1 to word n.
func numbered(word string, n int) []hubclient.Option {
	os := make([]hubclient.Option, n)
	for k := range os {
		v := word + " " + strconv.Itoa(k+1)
		os[k] = hubclient.Option{Value: v, Label: v}
	}
	return os
}

// ruleSet reports whether the rule code has its member set on f, so that
// its message still has something to replace.
func ruleSet(f *hubclient.Field, code string) bool {
	switch code {
	case hubclient.ProblemMinLength:
		return f.MinLength != 0
	case hubclient.ProblemMaxLength:
		return f.MaxLength != 0
	case hubclient.ProblemPattern:
		return f.Pattern != ""
	case hubclient.ProblemMin:
		return f.Min != ""
	case hubclient.ProblemMax:
		return f.Max != ""
	case hubclient.ProblemStep:
		return f.Step != 0
	case hubclient.ProblemMinItems:
		return f.MinItems != 0
	case hubclient.ProblemMaxItems:
		return f.MaxItems != 0
	}
	return true
}

// conditionReader is a condition that reads a field: where it is, whom
// it is of in words, and its rows as the old type reads them (ok false
// for one written by hand).
type conditionReader struct {
	path, whose, verb string
	c                 condition
	ok                bool
}

// conditionReaders returns the conditions of the other fields and of the
// pages that read the field called name.
func conditionReaders(s *hubclient.Schema, name string) []conditionReader {
	var out []conditionReader
	for j := range s.Fields {
		g := &s.Fields[j]
		if g.Name == name {
			continue
		}
		for _, m := range conditionMembers {
			if raw := m.raw(g); slices.Contains(conditionRefs(raw), name) {
				c, ok := readCondition(s, raw)
				out = append(out, conditionReader{fmt.Sprintf("fields[%d].%s", j, m.Name), fieldWords(g), map[string]string{"visibleIf": "shown", "requiredIf": "required"}[m.Name], c, ok})
			}
		}
	}
	for k, st := range s.Steps {
		if slices.Contains(conditionRefs(st.VisibleIf), name) {
			c, ok := readCondition(s, st.VisibleIf)
			out = append(out, conditionReader{fmt.Sprintf("steps[%d].visibleIf", k), "“" + stepName(s, st.ID) + "”", "shown", c, ok})
		}
	}
	return out
}

// readersFit refuses a new type of field i (old before) that a condition
// reading it cannot compare as it does: its comparison is not one the new
// type offers, or its value not of the new type's kind. A condition
// written by hand is refused too: the builder cannot tell what it means
// for the new type.
func readersFit(s *hubclient.Schema, i int, old hubclient.Field, readers []conditionReader) error {
	f := &s.Fields[i]
	var errs []error
	for _, r := range readers {
		if !r.ok {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].type", i),
				"%s is %s depending on %s by a condition written in the JSON file: change that condition first, or keep the type %s", r.whose, r.verb, fieldWords(f), kindOf(old.Type).Word))
			continue
		}
		for _, row := range r.c.Rows {
			if row.Field != f.Name || rowFits(f, row) {
				continue
			}
			words := fieldWords(&old) + " " + opLabel(old.Type, row.Op)
			if takesValue(row.Op) {
				words += " " + valueWords(&old, row.Value)
			}
			errs = append(errs, problem(fmt.Sprintf("fields[%d].type", i),
				"%s is %s when %s, which a %s cannot be: change that condition first, or keep the type %s", r.whose, r.verb, words, kindOf(f.Type).Word, kindOf(old.Type).Word))
			break
		}
	}
	return errors.Join(errs...)
}

// rowFits reports whether a condition's row still means what it says
// when it reads f: f's type offers its comparison, and its value is of
// f's kind (a number, one of f's options).
func rowFits(f *hubclient.Field, r conditionRow) bool {
	op := r.Op
	if m, ok := map[string]string{opFilled: opChecked, opEmpty: opUnchecked}[op]; ok && f.Type == hubclient.FieldCheckbox {
		op = m // "is not empty" of a box is "is checked"
	}
	if opLabel(f.Type, op) == "" {
		return false
	}
	if !takesValue(r.Op) {
		return true
	}
	switch {
	case numeric(f.Type):
		_, err := strconv.ParseFloat(r.Value, 64)
		return err == nil
	case f.Type == hubclient.FieldDate:
		return dateValue.MatchString(r.Value)
	case isChoice(f.Type):
		return slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Value == r.Value })
	}
	return true
}

// numeric reports whether a condition reads the values of a field of type
// t as numbers: a number, a rating, a scale, an NPS, a slider.
func numeric(t string) bool {
	switch t {
	case hubclient.FieldNumber, hubclient.FieldRating, hubclient.FieldScale, hubclient.FieldNPS, hubclient.FieldSlider:
		return true
	}
	return false
}

// typeEditor is the builder's side of a field type's own settings, those
// beyond the texts every field has: edit reads them from the field's
// panel into the schema, each checked in the owner's words, a setting not
// posted left as it is (nil for a type with none to read); panel shows
// them in the field's panel.
type typeEditor struct {
	edit  func(f *hubclient.Field, i int, form url.Values) []error
	panel func(p formProps, f *hubclient.Field, id, act string) templ.Component
	// keeps is set for a type made of parts of its own, which keeps its
	// type (keepsItsType).
	keeps bool
}

// typeEditors are the editors of the types that have settings of their
// own, by type. Each family's editor is its own file and templ file
// (builder_types_ratings, _bounds, _pictures, _scoring, _file, _matrix,
// _address, _group, _signature, _content): a new type with settings is its file and
// one line here.
var typeEditors = map[string]typeEditor{
	hubclient.FieldRating:     {editRating, ratingSettings, false},
	hubclient.FieldScale:      {editScale, scaleSettings, false},
	hubclient.FieldNPS:        {editEndLabels, npsSettings, false},
	hubclient.FieldNumber:     {editBounds, numberSettings, false},
	hubclient.FieldSlider:     {editBounds, numberSettings, false},
	hubclient.FieldDate:       {editBounds, dateSettings, false},
	hubclient.FieldTime:       {editBounds, timeSettings, false},
	hubclient.FieldDateTime:   {editBounds, timeSettings, false},
	hubclient.FieldSelect:     {editScoring, optionScoring, false},
	hubclient.FieldRadio:      {editChoices, choiceSettings, false},
	hubclient.FieldCheckboxes: {editChoices, choiceSettings, false},
	hubclient.FieldFile:       {editFile, fileSettings, false},
	hubclient.FieldMatrix:     {editMatrix, matrixSettings, true},
	hubclient.FieldAddress:    {editCountries, addressSettings, true},
	hubclient.FieldGroup:      {editGroup, groupSettings, true},
	hubclient.FieldSignature:  {nil, signatureSettings, true},
	hubclient.FieldHeading:    {editContentSettings, contentSettings, false},
	hubclient.FieldParagraph:  {editContentSettings, contentSettings, false},
	hubclient.FieldImage:      {editContentSettings, contentSettings, false},
	hubclient.FieldDivider:    {nil, contentSettings, false},
}

// editTypeSettings sets the settings of field i's type that the panel
// posted, by its type's editor.
func editTypeSettings(f *hubclient.Field, i int, form url.Values) error {
	if e, ok := typeEditors[f.Type]; ok && e.edit != nil {
		return errors.Join(e.edit(f, i, form)...)
	}
	return nil
}

// typeSettings is the part of the field's panel its type's editor
// shows, nothing for a type without one.
func typeSettings(p formProps, f *hubclient.Field, id, act string) templ.Component {
	if e, ok := typeEditors[f.Type]; ok && e.panel != nil {
		return e.panel(p, f, id, act)
	}
	return templ.NopComponent
}

// postedText returns the member posted, trimmed, and whether it was.
func postedText(form url.Values, member string) (string, bool) {
	v, ok := form[member]
	if !ok || len(v) == 0 {
		return "", false
	}
	return strings.TrimSpace(v[0]), true
}

// wholeIn reads text as a whole number from lo to hi, a setting at path
// that words name ("The number of stars"); what it is not is said in
// those words.
func wholeIn(path, text string, lo, hi int, words string) (int, error) {
	n, err := strconv.Atoi(text)
	switch {
	case err != nil:
		return 0, problem(path, "%s is a whole number, from %d to %d", words, lo, hi)
	case n > hi:
		return 0, problem(path, "%s is %d at most", words, hi)
	case n < lo:
		return 0, problem(path, "%s is %d at least", words, lo)
	}
	return n, nil
}

// memberPath is the path in the file of member of field i.
func memberPath(i int, member string) string { return fmt.Sprintf("fields[%d].%s", i, member) }

// optionWords is what an owner calls an option: its label, else its value.
func optionWords(o *hubclient.Option) string {
	if o.Label != "" {
		return o.Label
	}
	return o.Value
}

// stepText is a step as its input shows it: empty for none.
func stepText(n float64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// fieldTitle is how the list names a field: its label; for content, its
// text's beginning or the image's description; else its name.
func fieldTitle(f *hubclient.Field) string {
	t := f.Label
	if !f.TypeOf().HasValue() {
		t = f.Text
		if f.Type == hubclient.FieldImage {
			t = f.Alt
		}
	}
	if f.Type == hubclient.FieldParagraph {
		t = plainMarkdown(t)
	}
	t = strings.Join(strings.Fields(t), " ")
	if r := []rune(t); len(r) > 60 {
		t = string(r[:59]) + "…"
	}
	if t == "" {
		return f.Name
	}
	return t
}

// paragraphSource gives a paragraph's list item its text as written,
// for inplace.js to edit in place of the rendered text.
func paragraphSource(f *hubclient.Field) templ.Attributes {
	if f.Type != hubclient.FieldParagraph {
		return nil
	}
	return templ.Attributes{"data-text": f.Text}
}

// takesPlaceholder reports whether the field's input shows a placeholder
// while empty: text, a number, a dropdown's first line. One set before
// its type changed stays offered, to be seen and emptied.
func takesPlaceholder(f *hubclient.Field) bool {
	t := f.TypeOf()
	return t.TakesText() || f.Type == hubclient.FieldNumber || f.Type == hubclient.FieldSelect || f.Placeholder != ""
}

// markdownLink is a link of a paragraph's Markdown: [text](address).
var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// plainMarkdown is a paragraph's text without its Markdown's marks: a
// link's text, no emphasis, no list marks.
func plainMarkdown(t string) string {
	t = markdownLink.ReplaceAllString(t, "$1")
	var lines []string
	for l := range strings.Lines(t) {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "- ")
		if n := strings.Index(l, ". "); n > 0 && n <= 3 && strings.Trim(l[:n], "0123456789") == "" {
			l = l[n+2:]
		}
		lines = append(lines, l)
	}
	return strings.NewReplacer("**", "", "*", "").Replace(strings.Join(lines, " "))
}

// partsTranslations drops what the translations give of f's parts that
// it no longer has: rows and columns gone, questions removed, and the
// options of a question gone.
func partsTranslations(s *hubclient.Schema, f *hubclient.Field) {
	keep := func(m map[string]string, os []hubclient.Option) {
		for value := range m {
			if !slices.ContainsFunc(os, func(o hubclient.Option) bool { return o.Value == value }) {
				delete(m, value)
			}
		}
	}
	for _, tr := range s.I18n.Translations {
		ft, ok := tr.Fields[f.Name]
		if !ok {
			continue
		}
		keep(ft.Rows, f.Rows)
		keep(ft.Columns, f.Columns)
		for name, ct := range ft.Fields {
			c := f.Child(name)
			if c == nil {
				delete(ft.Fields, name)
				continue
			}
			keep(ct.Options, c.Options)
		}
		tr.Fields[f.Name] = ft
	}
}
