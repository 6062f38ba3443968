package hubclient

import (
	"math"
	"strconv"
)

// Summary is how the answers of a type of field are summed up across
// submissions, and so what a hub counts of each answer as it stores it
// (see Field.Tally).
type Summary int

const (
	// NoSummary: content, files and honeypots, nothing to sum up.
	NoSummary Summary = iota
	// ChoiceSummary: how many chose each option (select, radio,
	// checkboxes, pictures among them).
	ChoiceSummary
	// YesNoSummary: how many said yes and no (one checkbox).
	YesNoSummary
	// ScaleSummary: the average and how many gave each number (rating,
	// scale, slider).
	ScaleSummary
	// NPSSummary: the net promoter score, with the scale's counts.
	NPSSummary
	// RankingSummary: each option's average place.
	RankingSummary
	// TextSummary: how many answered, and the newest answers, read from
	// the newest submissions rather than counted.
	TextSummary
	// MatrixSummary: for each row, how many chose each column (MatrixCell).
	MatrixSummary
)

// MatrixCell is the Answer of a matrix's tally that counts column chosen
// for row: the two values, joined by a unit separator, which no value
// typed or made from a label holds.
func MatrixCell(row, column string) string { return row + "\x1f" + column }

// Summary returns how the field's answers are summed up. It follows the
// value side of the type (FieldType): a type added there is summed up as
// its values are typed, with no list of types to extend here.
func (f *Field) Summary() Summary {
	t := f.TypeOf()
	switch {
	case !t.HasValue() || t.IsFiles() || IsHoneypot(f.Name):
		return NoSummary
	case f.Type == FieldNPS:
		return NPSSummary
	case f.Type == FieldMatrix:
		return MatrixSummary
	case t.IsScale() || f.Type == FieldSlider:
		return ScaleSummary
	case t.kind == rankValue:
		return RankingSummary
	case t.kind == boolValue:
		return YesNoSummary
	case t.options:
		return ChoiceSummary
	}
	return TextSummary
}

// Tally is what one answer adds to the counts of its field: one under
// Answer, and Sum to the field's sum under that answer (a ranking's
// place, a number's value). Answer "" counts the submissions that
// answered at all, for the fields whose options do not add up to that
// (checkboxes, text).
type Tally struct {
	Answer string
	Sum    float64
}

// Answered is the Answer of the tally that counts who answered.
const Answered = ""

// Tally returns what the value v of the field, as a hub stores it,
// adds to its counts: nothing for an empty value or a field summed up by
// none.
func (f *Field) Tally(v any) []Tally {
	switch l := v.(type) {
	case nil:
		return nil
	case []string:
		v = anys(l)
	}
	switch f.Summary() {
	case ChoiceSummary:
		switch v := v.(type) {
		case string:
			if v != "" {
				return []Tally{{Answer: v}}
			}
		case []any:
			out := make([]Tally, 0, len(v)+1)
			for _, e := range v {
				if s, ok := e.(string); ok && s != "" {
					out = append(out, Tally{Answer: s})
				}
			}
			if len(out) == 0 {
				return nil
			}
			return append(out, Tally{Answer: Answered})
		}
	case YesNoSummary:
		if b, ok := v.(bool); ok {
			return []Tally{{Answer: strconv.FormatBool(b)}}
		}
	case ScaleSummary, NPSSummary:
		if n, ok := number(v); ok && !math.IsInf(n, 0) && !math.IsNaN(n) {
			return []Tally{{Answer: strconv.FormatFloat(n, 'f', -1, 64), Sum: n}}
		}
	case RankingSummary:
		list, _ := v.([]any)
		out := make([]Tally, 0, len(list))
		for i, e := range list {
			if s, ok := e.(string); ok && s != "" {
				out = append(out, Tally{Answer: s, Sum: float64(i + 1)})
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case MatrixSummary:
		rows, _ := v.(map[string]any)
		var out []Tally
		for _, row := range f.Rows {
			chosen := rows[row.Value]
			columns, ok := chosen.([]any)
			if !ok {
				columns = []any{chosen}
			}
			for _, c := range columns {
				if c, ok := c.(string); ok && c != "" {
					out = append(out, Tally{Answer: MatrixCell(row.Value, c)})
				}
			}
		}
		if len(out) == 0 {
			return nil
		}
		return append(out, Tally{Answer: Answered})
	case TextSummary:
		switch v := v.(type) {
		case string:
			if v == "" {
				return nil
			}
		case []any:
			if len(v) == 0 {
				return nil
			}
		}
		return []Tally{{Answer: Answered}}
	}
	return nil
}

// anys returns l as JSON decodes a list.
func anys(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}
