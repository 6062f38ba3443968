package formsource

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// rules checks the fields' validation rules and the form's conditions:
// each rule fits its field's type, and every condition parses and reads
// only fields that exist.
func (v *validator) rules() {
	for i := range v.schema.Fields {
		f := &v.schema.Fields[i]
		at, path := fmt.Sprintf("field %q", f.Name), fmt.Sprintf("fields[%d]", i)
		t := f.TypeOf()
		text, ranged := t.TakesText(), t.Range() != nil
		counted := t.TakesItems() || t.IsFiles() && f.Multiple
		only := func(member string, set, fits bool, what string) {
			if set && !fits {
				v.addf(path+"."+member, "%s: %s applies only to %s fields", at, member, what)
			}
		}
		textTypes := typesThat((*hubclient.FieldType).TakesText)
		rangeTypes := typesThat(func(t *hubclient.FieldType) bool { return t.Range() != nil })
		textList := andList(textTypes...)
		only("minLength", f.MinLength != 0, text, textList)
		only("maxLength", f.MaxLength != 0, text, textList)
		only("pattern", f.Pattern != "", text, textList)
		only("min", f.Min != "", ranged || f.Type == hubclient.FieldScale, andList(append(rangeTypes, hubclient.FieldScale)...))
		only("max", f.Max != "", ranged || f.Type == hubclient.FieldScale || f.Type == hubclient.FieldRating, andList(append(rangeTypes, hubclient.FieldScale, hubclient.FieldRating)...))
		only("step", f.Step != 0, ranged, andList(rangeTypes...))
		only("minLabel", f.MinLabel != "", f.Type == hubclient.FieldScale || f.Type == hubclient.FieldNPS, "scale and nps")
		only("maxLabel", f.MaxLabel != "", f.Type == hubclient.FieldScale || f.Type == hubclient.FieldNPS, "scale and nps")
		only("minItems", f.MinItems != 0, counted, "checkboxes, group and multiple file")
		only("maxItems", f.MaxItems != 0, counted, "checkboxes, group and multiple file")
		if f.MinLength < 0 || f.MaxLength < 0 || f.MinItems < 0 || f.MaxItems < 0 || f.Step < 0 {
			v.addf(path, "%s: minLength, maxLength, minItems, maxItems and step may not be negative", at)
		}
		if f.MaxLength > 0 && f.MinLength > f.MaxLength {
			v.addf(path+".minLength", "%s: minLength %d is more than maxLength %d", at, f.MinLength, f.MaxLength)
		}
		if f.MaxItems > 0 && f.MinItems > f.MaxItems {
			v.addf(path+".minItems", "%s: minItems %d is more than maxItems %d", at, f.MinItems, f.MaxItems)
		}
		v.bounds(path, at, f)
		v.scale(path, at, f)
		v.content(path, at, f)
		for _, code := range sortedKeys(f.Messages) {
			if !slices.Contains(hubclient.RuleNames, code) {
				v.addf(path+".messages", "%s: messages[%q]: not one of %s", at, code, strings.Join(hubclient.RuleNames, ", "))
			}
		}
		if hubclient.IsHoneypot(f.Name) && (len(f.VisibleIf) > 0 || len(f.RequiredIf) > 0) {
			v.addf(path, "%s: a honeypot field takes no visibleIf or requiredIf", at)
		}
	}
	l, err := hubclient.Compile(v.schema)
	if err != nil {
		v.errs = append(v.errs, endingPaths(err))
	}
	v.recall(l)
}

// recall adds the problems of the texts' recall tokens, each at its
// member: a recall of a later answer, of the same step, of nothing, or of
// an answer a condition may hide without a fallback.
func (v *validator) recall(l *hubclient.Logic) {
	j, ok := l.RecallProblems().(interface{ Unwrap() []error })
	if !ok {
		return
	}
	for _, e := range j.Unwrap() {
		var re *hubclient.RecallError
		if errors.As(e, &re) {
			v.errs = append(v.errs, &Problem{Path: re.Path, Err: re})
		}
	}
}

// endingPaths gives each problem of an ending's condition or of a
// calculation among err's the path of its member, so that the console shows it beside its input.
func endingPaths(err error) error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return err
	}
	errs := j.Unwrap()
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
		if ee, ok := e.(*hubclient.EndingError); ok {
			out[i] = &Problem{Path: fmt.Sprintf("endings[%d].if", ee.Index), Err: ee}
		}
		if ce, ok := e.(*hubclient.CalculationError); ok {
			out[i] = &Problem{Path: fmt.Sprintf("calculations[%d].%s", ce.Index, ce.Member), Err: ce}
		}
	}
	return errors.Join(out...)
}

// bounds checks that min and max read as the field's type and are in order.
func (v *validator) bounds(path, at string, f *hubclient.Field) {
	r := f.TypeOf().Range()
	if r == nil {
		return
	}
	what := r.What
	lo, okLo := r.Read(f.Min)
	hi, okHi := r.Read(f.Max)
	if f.Min != "" && !okLo {
		v.addf(path+".min", "%s: min %q is not %s", at, f.Min, what)
	}
	if f.Max != "" && !okHi {
		v.addf(path+".max", "%s: max %q is not %s", at, f.Max, what)
	}
	if okLo && okHi && lo > hi {
		v.addf(path+".min", "%s: min %s is after max %s", at, f.Min, f.Max)
	}
	if f.Type == hubclient.FieldDate && f.Step != 0 && f.Step != float64(int64(f.Step)) {
		v.addf(path+".step", "%s: step of a date is a whole number of days", at)
	}
	if (f.Type == hubclient.FieldTime || f.Type == hubclient.FieldDateTime) && f.Step != 0 && f.Step != float64(int64(f.Step)) {
		v.addf(path+".step", "%s: step of a time is a whole number of minutes", at)
	}
	if f.Type == hubclient.FieldSlider && (f.Min == "" || f.Max == "") {
		v.addf(path, "%s: a slider needs min and max", at)
	}
}

// scale checks the ends of a rating (max 3 to 10 stars) and of a scale
// (min 0 or 1, max up to 10, after min).
func (v *validator) scale(path, at string, f *hubclient.Field) {
	whole := func(b hubclient.Bound) (int, bool) {
		n, ok := b.Number()
		return int(n), ok && n == float64(int(n))
	}
	switch f.Type {
	case hubclient.FieldRating:
		if n, ok := whole(f.Max); f.Max != "" && (!ok || n < hubclient.MinRatingMax || n > hubclient.MaxRatingMax) {
			v.addf(path+".max", "%s: max of a rating is a whole number of stars from %d to %d", at, hubclient.MinRatingMax, hubclient.MaxRatingMax)
		}
	case hubclient.FieldScale:
		lo, okLo := whole(f.Min)
		if f.Min != "" && (!okLo || lo != 0 && lo != 1) {
			v.addf(path+".min", "%s: min of a scale is 0 or 1", at)
		}
		if hi, ok := whole(f.Max); f.Max != "" && (!ok || hi < 2 || hi > 10) {
			v.addf(path+".max", "%s: max of a scale is a whole number from 2 to 10", at)
		}
	}
}

// typesThat lists the known types for which is holds, in the order of
// hubclient.FieldTypes.
func typesThat(is func(*hubclient.FieldType) bool) []string {
	var names []string
	for _, name := range hubclient.FieldTypes {
		if f := (hubclient.Field{Type: name}); is(f.TypeOf()) {
			names = append(names, name)
		}
	}
	return names
}

// content checks the members of content between the questions: a
// heading's and a paragraph's text, an image's address; content takes no
// value, so it cannot be required or prefilled.
func (v *validator) content(path, at string, f *hubclient.Field) {
	only := func(member string, set bool, types ...string) {
		if set && !slices.Contains(types, f.Type) {
			v.addf(path+"."+member, "%s: %s applies only to %s fields", at, member, andList(types...))
		}
	}
	only("text", f.Text != "", hubclient.FieldHeading, hubclient.FieldParagraph)
	only("src", f.Src != "", hubclient.FieldImage)
	only("alt", f.Alt != "", hubclient.FieldImage)
	if f.TypeOf().HasValue() {
		return
	}
	if f.Required || len(f.RequiredIf) > 0 || f.Prefill {
		v.addf(path, "%s: a %s takes no value: it cannot be required or prefilled", at, f.Type)
	}
	switch f.Type {
	case hubclient.FieldHeading, hubclient.FieldParagraph:
		if strings.TrimSpace(f.Text) == "" {
			v.addf(path+".text", "%s: a %s needs a text", at, f.Type)
		}
	case hubclient.FieldImage:
		if !hubclient.WebAddress(f.Src) {
			v.addf(path+".src", "%s: src is the image's http or https address", at)
		}
	}
}

// andList joins names as "a, b and c".
func andList(names ...string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
