package inbox

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/hubclient"
)

// Column is a question of a form, one column of its table of results.
type Column struct {
	// Name is the field's name, Label what the form asks (its name when it
	// has no label).
	Name, Label string
	// File marks a field that takes files, whose cells are the files
	// chosen in it (a signature's drawing; else the name typed).
	File bool
	// typ and options render an answer: a checkbox's true as "Yes", an
	// option's value as its label.
	typ     string
	options map[string]string
	// outOf is a rating's number of stars, which its answers are out of.
	outOf int
	// composite is a matrix's or an address's field, which writes its
	// answers and lays out its parts' columns in an export.
	composite *hubclient.Field
	// calc is a calculation, whose cells are the values the hub stored
	// with the submissions.
	calc *hubclient.Calculation
}

// Columns returns the questions of schema in the form's order, file
// fields included, honeypots and content without answers left out.
func Columns(s *hubclient.Schema) []Column {
	if s == nil {
		return nil
	}
	out := make([]Column, 0, len(s.Fields))
	for _, f := range s.Fields {
		if hubclient.IsHoneypot(f.Name) || !f.TypeOf().HasValue() {
			continue
		}
		c := Column{Name: f.Name, Label: cmp.Or(hubclient.Caption(f.Label), f.Name), File: f.TypeOf().TakesFiles(), typ: f.Type}
		if f.Type == hubclient.FieldRating {
			_, c.outOf, _ = f.Scale()
		}
		if f.TypeOf().IsComposite() || f.TypeOf().IsGroup() {
			c.composite = &f
		}
		for _, o := range f.Options {
			if o.Label != "" && o.Label != o.Value {
				if c.options == nil {
					c.options = map[string]string{}
				}
				c.options[o.Value] = o.Label
			}
		}
		out = append(out, c)
	}
	// The calculations follow the questions, as the hub stored them.
	for i := range s.Calculations {
		c := &s.Calculations[i]
		out = append(out, Column{Name: c.Name, Label: c.Title(), calc: c})
	}
	return out
}

// Calculated reports whether the column is a calculation's.
func (c Column) Calculated() bool { return c.calc != nil }

// WithExtra returns cols followed by a column for each name of payloads
// that cols lacks, by name: a value sent to an older version of the form
// keeps a place in the table.
func WithExtra(cols []Column, payloads ...json.RawMessage) []Column {
	known := map[string]bool{}
	for _, c := range cols {
		known[c.Name] = true
	}
	extra := map[string]bool{}
	for _, p := range payloads {
		var m map[string]json.RawMessage
		json.Unmarshal(p, &m)
		for k := range m {
			if !known[k] && !hubclient.IsHoneypot(k) {
				extra[k] = true
			}
		}
	}
	out := slices.Clip(cols)
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		out = append(out, Column{Name: k, Label: k})
	}
	return out
}

// Answer is one cell of the table: the text of a value, or the files
// chosen in a file field. Both empty is an unanswered question.
type Answer struct {
	Text  string
	Files []File
}

// Empty reports whether the question was left unanswered.
func (a Answer) Empty() bool { return a.Text == "" && len(a.Files) == 0 }

// File is a file of a submission: N is its place among the submission's
// attachments, which its download route names.
type File struct {
	N    int
	Name string
	Size int64
}

// Answers returns the cells of s under cols, in order. A file of a field
// no column names lands in the first file column, if any, so that no file
// is left out of the table.
func Answers(s hub.Submission, cols []Column) []Answer {
	var m map[string]any
	json.Unmarshal(s.Payload, &m)
	out := make([]Answer, len(cols))
	firstFile := -1
	byName := make(map[string]int, len(cols))
	for i, c := range cols {
		byName[c.Name] = i
		if c.File && firstFile < 0 {
			firstFile = i
		}
		if c.calc != nil {
			out[i].Text = c.calc.FormatValue(s.Calculations[c.Name], "")
			continue
		}
		// A signature is a drawing, a file, or a name typed in its place.
		out[i].Text = c.Text(m[c.Name])
	}
	for n, a := range s.Attachments {
		i, ok := byName[a.Field]
		if !ok || !cols[i].File {
			i = firstFile
		}
		if i >= 0 {
			out[i].Files = append(out[i].Files, File{N: n, Name: a.Filename, Size: a.Size})
		}
	}
	return out
}

// Text renders a value of c for people: a checkbox as "Yes" or "No", a
// choice by its option's label, a date as "28 Nov 2026", a date and time
// as "28 Nov 2026, 10:15", a rating as "4 of 5", a list (a ranking's in
// its order) joined by commas, a matrix's rows joined by "; " and an
// address's lines by ", ", nothing as "".
func (c Column) Text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		if v {
			return "Yes"
		}
		return "No"
	case string:
		if l, ok := c.options[v]; ok {
			return l
		}
		switch c.typ {
		case hubclient.FieldDate:
			if t, err := time.Parse(time.DateOnly, v); err == nil {
				return t.Format("2 Jan 2006")
			}
		case hubclient.FieldDateTime:
			if t, err := time.Parse(hubclient.DateTimeLayout, v); err == nil {
				return t.Format("2 Jan 2006, 15:04")
			}
		}
		return v
	case float64:
		if c.outOf > 0 {
			return strconv.FormatFloat(v, 'f', -1, 64) + " of " + strconv.Itoa(c.outOf)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []any:
		if c.composite != nil {
			return compositeText(c.composite, v)
		}
		parts := make([]string, 0, len(v))
		for _, e := range v {
			if s := c.Text(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		if c.composite != nil {
			return compositeText(c.composite, v)
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Sheet is c as an export lays it out: one column, or a column per part
// of a matrix (a row each, its columns in words) or of an address.
func (c Column) Sheet() []export.SheetColumn {
	if c.calc != nil {
		calc := c.calc
		return []export.SheetColumn{{Name: c.Name, Label: c.Label, Calculation: func(v any) string { return calc.FormatValue(v, "") }}}
	}
	if c.composite == nil || c.composite.TypeOf().IsGroup() {
		// A group is one column, its items as JSON.
		return []export.SheetColumn{{Name: c.Name, Label: c.Label, File: c.File, Options: c.options}}
	}
	var columns map[string]string
	for _, o := range c.composite.Columns {
		if o.Label != "" && o.Label != o.Value {
			if columns == nil {
				columns = map[string]string{}
			}
			columns[o.Value] = o.Label
		}
	}
	out := make([]export.SheetColumn, 0, len(c.composite.Parts()))
	for _, part := range c.composite.Parts() {
		out = append(out, export.SheetColumn{Name: c.Name, Part: part, Label: c.Label + ": " + c.composite.PartLabel(part), Options: columns})
	}
	return out
}

// compositeText writes a matrix's or an address's answer on one line: a
// matrix's rows joined by "; ", an address's lines by ", ".
func compositeText(f *hubclient.Field, v any) string {
	sep := "; "
	if f.Type == hubclient.FieldAddress {
		sep = ", "
	}
	return strings.Join(f.AnswerLines(v), sep)
}
