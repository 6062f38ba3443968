package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// A page (a step) may be shown on a condition, its visibleIf, which may
// not read the page's own fields: the builder edits it as the rows of a
// field's condition, reading the fields of the pages before it.

// conditionView is what the condition editor shows: a condition as rows
// (or, OK false, its text), where it posts and what it may read.
type conditionView struct {
	ID     string // of the fieldset
	Member conditionMember
	// Path is where the file's problems with it are.
	Path   string
	Action string
	C      condition
	OK     bool
	Raw    json.RawMessage
	// Sources are the fields its rows may read.
	Sources []*hubclient.Field
	// Always says what no row means; NoSources, that no field can be
	// read yet.
	Always, NoSources string
}

// stepMember is a page's one condition.
var stepMember = conditionMember{Name: "visibleIf", Heading: "Show this page when", Badge: "Conditional", Lead: "Shown when"}

// stepSources returns the fields a condition of step k may read: those
// of the pages before it, and the hidden values, which the page's
// address gives.
func stepSources(s *hubclient.Schema, k int) []*hubclient.Field {
	var before []string
	for _, st := range s.Steps[:k] {
		before = append(before, st.Fields...)
	}
	var out []*hubclient.Field
	for j := range s.Fields {
		f := &s.Fields[j]
		if hubclient.IsHoneypot(f.Name) || opsFor(f.Type) == nil {
			continue
		}
		if slices.Contains(before, f.Name) || f.Type == hubclient.FieldHidden && stepOf(s, f.Name) == "" {
			out = append(out, f)
		}
	}
	return out
}

// parseStepCondition reads step k's condition as rows; ok is false for
// one the rows cannot say, or that reads a field the page may not.
func parseStepCondition(s *hubclient.Schema, k int) (condition, bool) {
	c, ok := readCondition(s, s.Steps[k].VisibleIf)
	if !ok {
		return condition{}, false
	}
	src := stepSources(s, k)
	for _, r := range c.Rows {
		if !slices.ContainsFunc(src, func(f *hubclient.Field) bool { return f.Name == r.Field }) {
			return condition{}, false
		}
	}
	return c, true
}

// stepConditionView is the editor of step k's condition, posted to act.
func stepConditionView(p formProps, s *hubclient.Schema, k int, act string) conditionView {
	src := stepSources(s, k)
	c, ok := typedCondition(p, stepMember, act, src)
	if !ok {
		c, ok = parseStepCondition(s, k)
	}
	return conditionView{
		ID: "step" + strconv.Itoa(k) + "-visibleIf", Member: stepMember, Path: fmt.Sprintf("steps[%d].visibleIf", k), Action: act,
		C: c, OK: ok, Raw: s.Steps[k].VisibleIf, Sources: src,
		Always:    "Always: no condition.",
		NoSources: "A page's condition reads the fields of the pages before it: there is none yet.",
	}
}

// stepBadge is the words of step k's condition, "" for none.
func stepBadge(s *hubclient.Schema, k int) string {
	if len(bytes.TrimSpace(s.Steps[k].VisibleIf)) == 0 {
		return ""
	}
	c, ok := parseStepCondition(s, k)
	if !ok {
		return stepMember.Lead + " a condition written in the JSON file"
	}
	return stepMember.Lead + " " + describeCondition(s, c)
}

// editStepCondition writes the posted rows as the step's visibleIf. A
// condition the editor showed as its text posts no rows and is kept; a
// post that adds or removes a row saves nothing.
func editStepCondition(d *formFile, c echo.Context) error {
	k, err := stepAt(d, c)
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
	if form.Get(stepMember.Name) != "rows" {
		return nil
	}
	s := d.Schema
	posted := conditionFromForm(form, stepMember.Name)
	if err := checkStepCondition(s, k, posted); err != nil {
		return err
	}
	if stored, ok := parseStepCondition(s, k); ok && sameCondition(stored, posted) {
		return nil
	}
	s.Steps[k].VisibleIf = encodeCondition(s, posted)
	return nil
}

// checkStepCondition refuses rows the editor should not write for step
// k: a field that is not on a page before it, a comparison its type does
// not offer, a value missing or not of its kind.
func checkStepCondition(s *hubclient.Schema, k int, c condition) error {
	path := fmt.Sprintf("steps[%d].visibleIf", k)
	if len(c.Rows) > maxConditionRows {
		return problem(path, "%s: at most %d conditions", stepMember.Heading, maxConditionRows)
	}
	src := stepSources(s, k)
	var errs []error
	for n, r := range c.Rows {
		at := fmt.Sprintf("%s, condition %d", stepMember.Heading, n+1)
		f := conditionField(s, r.Field)
		switch {
		case r.Field == "":
			errs = append(errs, problem(path, "%s: choose a field", at))
		case f == nil:
			errs = append(errs, problem(path, "%s: there is no field %q", at, r.Field))
		case !hasSource(src, f.Name):
			errs = append(errs, problem(path, "%s: %s is on this page or a later one; a page's condition reads the fields of the pages before it", at, fieldWords(f)))
		default:
			if err := checkRow(f, r, path, at); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// stepsInOrder refuses pages whose condition, shown as rows, would read
// a field on the page itself or after it: after a field moved.
func stepsInOrder(s *hubclient.Schema) error {
	var errs []error
	for k, st := range s.Steps {
		c, ok := readCondition(s, st.VisibleIf)
		if !ok || len(c.Rows) == 0 {
			continue
		}
		src := stepSources(s, k)
		for _, r := range c.Rows {
			if f := conditionField(s, r.Field); f != nil && !slices.Contains(src, f) {
				errs = append(errs, problem(fmt.Sprintf("steps[%d].visibleIf", k),
					"“%s” is shown depending on %s, which would then be on it or after it: change the page's condition first", stepName(s, st.ID), fieldWords(f)))
				break
			}
		}
	}
	return errors.Join(errs...)
}
