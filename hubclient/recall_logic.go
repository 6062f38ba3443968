package hubclient

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// FieldRecall is a field's texts that recall answers, parsed once by
// Compile; a nil member recalls nothing and is shown as written.
type FieldRecall struct {
	Label, Help *RecallText
	// Text is a heading's or a paragraph's.
	Text *RecallText
	// Options holds an option's label by the option's index, nil for one
	// that recalls nothing; nil when none does.
	Options []*RecallText
}

// EndingRecall is an ending's title and text, parsed once.
type EndingRecall struct{ Title, Text *RecallText }

// RecallError is a problem of a recall token, at the member of the schema
// it is in.
type RecallError struct {
	// Path is the member's JSON path: "fields[3].label",
	// `i18n.translations["de"].steps["s2"].title`.
	Path string
	// At names the member for people, as Compile's errors do: `field
	// "email": label`.
	At  string
	Err error
}

func (e *RecallError) Error() string { return e.At + ": " + e.Err.Error() }

func (e *RecallError) Unwrap() error { return e.Err }

// recall is what Compile works out of a form's recall tokens.
type recall struct {
	fields  map[string]*FieldRecall
	steps   map[string]*RecallText
	endings map[int]*EndingRecall
	// recalled are the fields some text of the form (not an ending)
	// recalls: a change to one of them changes a text shown later.
	recalled map[string]bool
	errs     []error
}

// compileRecall parses the recall tokens of the texts that take them:
// fields' labels, help, options' labels, headings' and paragraphs' text,
// steps' titles, endings' titles and texts, and the same in every
// translation (checked, not kept: a translated schema is compiled on its
// own). A text may recall the answers of earlier steps, the hidden fields
// (known from the start) and, from an ending, any answer. A field that a
// condition may hide needs a fallback, so that no text reads "Thanks, ".
func (l *Logic) compileRecall() {
	s := l.schema
	r := &l.recall
	stepIndex := make(map[string]int, len(s.Fields))
	for i, st := range s.Steps {
		for _, name := range st.Fields {
			stepIndex[name] = i
		}
	}
	end := len(s.Steps)
	at := func(name string) int {
		if i, ok := stepIndex[name]; ok {
			return i
		}
		return end
	}
	parse := func(path, where string, place int, text string) *RecallText {
		if !HasRecall(text) {
			return nil
		}
		t, err := ParseRecall(text)
		if err != nil {
			r.errs = append(r.errs, &RecallError{Path: path, At: where, Err: err})
		}
		for _, key := range t.Keys {
			if err := l.checkRecall(t, key, place, stepIndex); err != nil {
				r.errs = append(r.errs, &RecallError{Path: path, At: where, Err: err})
			}
		}
		if len(t.Keys) == 0 {
			return nil
		}
		return t
	}
	note := func(texts ...*RecallText) {
		for _, t := range texts {
			if t == nil {
				continue
			}
			for _, key := range t.Keys {
				name, _, _ := SplitKey(key)
				if r.recalled == nil {
					r.recalled = map[string]bool{}
				}
				r.recalled[name] = true
				// A calculation changes with the fields it reads.
				for _, read := range l.calcFields[name] {
					r.recalled[read] = true
				}
			}
		}
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		path, where, place := fmt.Sprintf("fields[%d]", i), fmt.Sprintf("field %q: ", f.Name), at(f.Name)
		fr := FieldRecall{
			Label: parse(path+".label", where+"label", place, f.Label),
			Help:  parse(path+".help", where+"help", place, f.Help),
			Text:  parse(path+".text", where+"text", place, f.Text),
		}
		note(fr.Label, fr.Help, fr.Text)
		for j, o := range f.Options {
			if t := parse(fmt.Sprintf("%s.options[%d].label", path, j), fmt.Sprintf("%soptions[%d]", where, j), place, o.Label); t != nil {
				if fr.Options == nil {
					fr.Options = make([]*RecallText, len(f.Options))
				}
				fr.Options[j] = t
				note(t)
			}
		}
		if fr.Label != nil || fr.Help != nil || fr.Text != nil || fr.Options != nil {
			if r.fields == nil {
				r.fields = map[string]*FieldRecall{}
			}
			r.fields[f.Name] = &fr
		}
	}
	for i, st := range s.Steps {
		if t := parse(fmt.Sprintf("steps[%d].title", i), fmt.Sprintf("step %q: title", st.ID), i, st.Title); t != nil {
			if r.steps == nil {
				r.steps = map[string]*RecallText{}
			}
			r.steps[st.ID] = t
			note(t)
		}
	}
	for i, e := range s.Endings {
		path, where := fmt.Sprintf("endings[%d]", i), fmt.Sprintf("ending %q: ", e.ID)
		er := EndingRecall{Title: parse(path+".title", where+"title", end+1, e.Title), Text: parse(path+".text", where+"text", end+1, e.Text)}
		if HasRecall(e.RedirectURL) {
			// Answers go in the query alone: one in the host or the path
			// could send the visitor elsewhere.
			page, query, _ := strings.Cut(e.RedirectURL, "?")
			if HasRecall(page) {
				r.errs = append(r.errs, &RecallError{Path: path + ".redirectUrl", At: where + "redirectUrl", Err: errors.New("an answer may be recalled in the address's query only, after its ?")})
			} else {
				parse(path+".redirectUrl", where+"redirectUrl", end+1, query)
			}
		}
		if er.Title != nil || er.Text != nil {
			if r.endings == nil {
				r.endings = map[int]*EndingRecall{}
			}
			r.endings[i] = &er
		}
	}
	for _, loc := range slices.Sorted(maps.Keys(s.I18n.Translations)) {
		tr := s.I18n.Translations[loc]
		base := fmt.Sprintf("i18n.translations[%q]", loc)
		for _, name := range slices.Sorted(maps.Keys(tr.Fields)) {
			ft, path, place := tr.Fields[name], fmt.Sprintf("%s.fields[%q]", base, name), at(name)
			parse(path+".label", path+".label", place, ft.Label)
			parse(path+".help", path+".help", place, ft.Help)
			parse(path+".text", path+".text", place, ft.Text)
			for _, value := range slices.Sorted(maps.Keys(ft.Options)) {
				at := fmt.Sprintf("%s.options[%q]", path, value)
				parse(at, at, place, ft.Options[value])
			}
		}
		for _, id := range slices.Sorted(maps.Keys(tr.Steps)) {
			place := end
			for i, st := range s.Steps {
				if st.ID == id {
					place = i
				}
			}
			at := fmt.Sprintf("%s.steps[%q].title", base, id)
			parse(at, at, place, tr.Steps[id].Title)
		}
		for _, id := range slices.Sorted(maps.Keys(tr.Endings)) {
			for _, m := range []struct{ member, text string }{{"title", tr.Endings[id].Title}, {"text", tr.Endings[id].Text}} {
				at := fmt.Sprintf("%s.endings[%q].%s", base, id, m.member)
				parse(at, at, end+1, m.text)
			}
		}
	}
}

// recallSource is what a text may recall by a name: the step from which
// its value is known (-1 from the start), and whether a condition may
// hide it.
type recallSource struct {
	known       int
	conditional bool
}

// recallSourceOf returns what key names for recall: a field, or a part of
// a composite field; an error for what no text may recall. Names the form
// computes, once it has some, are looked up here too.
func (l *Logic) recallSourceOf(key string, stepIndex map[string]int) (recallSource, error) {
	name, part, dotted := SplitKey(key)
	if c := l.schema.Calculation(name); c != nil && !dotted {
		return l.calculationSource(name, stepIndex)
	}
	f := l.schema.Field(name)
	switch {
	case f == nil || IsHoneypot(name) || dotted && !slices.Contains(f.Parts(), part):
		return recallSource{}, fmt.Errorf("recalls %q, which the form does not have", key)
	case !f.TypeOf().HasValue():
		return recallSource{}, fmt.Errorf("recalls %q, which takes no answer", key)
	case f.TypeOf().IsFiles():
		return recallSource{}, fmt.Errorf("recalls %q, whose files a text cannot show", key)
	}
	// A field in no step is never asked: it comes after everything.
	src := recallSource{known: len(l.schema.Steps) + 2}
	if at, ok := stepIndex[name]; ok {
		src.known = at
	}
	// A hidden field's value is known from the start: the host or the
	// link gives it.
	if f.Type == FieldHidden {
		src.known = -1
	}
	step := l.schema.Step(l.stepOf[name])
	src.conditional = len(f.VisibleIf) > 0 || step != nil && len(step.VisibleIf) > 0
	return src, nil
}

// calculationSource is recallSource for the calculation called name: it
// is known once the last field it reads is, and a condition may hide it
// when one may hide a field it reads.
func (l *Logic) calculationSource(name string, stepIndex map[string]int) (recallSource, error) {
	src := recallSource{known: -1}
	for _, read := range l.calcFields[name] {
		s, err := l.recallSourceOf(read, stepIndex)
		if err != nil {
			return recallSource{}, fmt.Errorf("recalls %q, which reads a field no text may recall: %w", name, err)
		}
		src.known = max(src.known, s.known)
		src.conditional = src.conditional || s.conditional
	}
	return src, nil
}

// checkRecall reports what is wrong with text t, at the step of index
// place (one past the last for an ending), recalling key.
func (l *Logic) checkRecall(t *RecallText, key string, place int, stepIndex map[string]int) error {
	src, err := l.recallSourceOf(key, stepIndex)
	switch {
	case err != nil:
		return err
	case src.known > place:
		return fmt.Errorf("recalls %q, which comes later", key)
	case src.known == place:
		return fmt.Errorf("recalls %q, which is on the same step: a text recalls the answers of earlier steps", key)
	case src.conditional && !t.fallbackEverywhere(key):
		return fmt.Errorf("recalls %q, which a condition may hide: give a fallback, {{%s|…}}", key, key)
	}
	return nil
}

// RecallProblems returns the problems of the form's recall tokens, each a
// *RecallError, joined; nil for none. They are not among Compile's: a
// text that recalls wrongly shows its fallback, and the form works.
func (l *Logic) RecallProblems() error { return errors.Join(l.recall.errs...) }

// HasRecall reports whether some text of the form, endings left out,
// recalls an answer.
func (l *Logic) HasRecall() bool { return len(l.recall.fields) > 0 || len(l.recall.steps) > 0 }

// FieldRecall returns the field's texts that recall answers, or nil.
func (l *Logic) FieldRecall(name string) *FieldRecall { return l.recall.fields[name] }

// StepRecall returns the step's title when it recalls answers, or nil.
func (l *Logic) StepRecall(id string) *RecallText { return l.recall.steps[id] }

// EndingRecall returns the title and text of the ending at index i of the
// schema's endings when they recall answers, or nil.
func (l *Logic) EndingRecall(i int) *EndingRecall { return l.recall.endings[i] }

// IsRecalled reports whether a text of the form (an ending's aside)
// recalls the field called name.
func (l *Logic) IsRecalled(name string) bool { return l.recall.recalled[name] }

// RecallValues returns the values a text recalls: those of the fields the
// conditions show for values, the others' dropped, as a condition sees
// them, and the calculations' (Calculate). values are typed as Values
// types them; the result is shared with neither.
func (l *Logic) RecallValues(values map[string]any) map[string]any {
	o := l.Evaluate(values)
	out := make(map[string]any, len(values)+len(l.calcs))
	for name, v := range values {
		if o.Visible(name) && !IsHoneypot(name) {
			out[name] = v
		}
	}
	for name, v := range l.Calculate(values) {
		if v != nil {
			out[name] = v
		}
	}
	return out
}
