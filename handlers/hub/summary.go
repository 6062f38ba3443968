package hub

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/hubform/hubform/hubclient"
)

// Tallies returns what a submission of payload adds to its form's
// summary, as the store keeps it beside the submission (Submission.Tallies)
// and counts it while the submission is neither spam nor deleted: a JSON
// list of [field, answer, sum], the first [ "", "", 0 ] counting the
// submission itself, then what each field of schema adds (Field.Tally).
// Counted by field name, the answers of a field stay with it across the
// form's versions.
func Tallies(schema *hubclient.Schema, payload map[string]any) string {
	return TalliesWith(schema, payload, nil)
}

// TalliesWith is Tallies of a submission whose calculations the hub
// worked out already (Work): the score is read from them rather than
// worked out again. nil calculations are worked out if the form has a
// score.
func TalliesWith(schema *hubclient.Schema, payload, calculations map[string]any) string {
	b := make([]byte, 0, 256)
	b = append(b, `[["","",0]`...)
	if schema != nil {
		// A field named twice, or an answer given twice, is counted once:
		// a submission adds one to an answer at most. The pairs are few: a
		// list looks them up faster than a map is made.
		var seen [][2]string
		for i := range schema.Fields {
			f := &schema.Fields[i]
			v, ok := payload[f.Name]
			if !ok || f.Name == "" {
				continue
			}
			for _, t := range f.Tally(v) {
				k := [2]string{f.Name, t.Answer}
				if slices.Contains(seen, k) {
					continue
				}
				seen = append(seen, k)
				b = append(b, ',', '[')
				b = appendJSONString(b, f.Name)
				b = append(b, ',')
				b = appendJSONString(b, t.Answer)
				b = append(b, ',')
				b = strconv.AppendFloat(b, t.Sum, 'g', -1, 64)
				b = append(b, ']')
			}
		}
		if score, ok := scoreOf(schema, payload, calculations); ok {
			b = append(b, ',', '[')
			b = appendJSONString(b, hubclient.ScoreName)
			b = append(b, ',')
			b = appendJSONString(b, strconv.FormatFloat(score, 'f', -1, 64))
			b = append(b, ',')
			b = strconv.AppendFloat(b, score, 'g', -1, 64)
			b = append(b, ']')
		}
	}
	return string(append(b, ']'))
}

// scoreOf returns the form's score for payload, the calculation called
// hubclient.ScoreName worked out as the hub stores it, when the schema has
// one and it is a number: the Summary shows the scores' distribution,
// counted under the calculation's name as a scale's answers are.
func scoreOf(schema *hubclient.Schema, payload, calculations map[string]any) (float64, bool) {
	if schema.Calculation(hubclient.ScoreName) == nil {
		return 0, false
	}
	if calculations == nil {
		logic, _ := hubclient.Compile(schema)
		calculations = logic.Calculate(payload)
	}
	score, ok := calculations[hubclient.ScoreName].(float64)
	return score, ok
}

// appendJSONString appends s to b as a JSON string: strconv's quoting
// writes Go's escapes (\x1f), which JSON has not. Most names and answers
// are plain ASCII, written as they are.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// TalliesOf is Tallies of a payload as stored, JSON; one that does not
// decode adds the submission alone.
func TalliesOf(schema *hubclient.Schema, payload json.RawMessage) string {
	var m map[string]any
	json.Unmarshal(payload, &m)
	return Tallies(schema, m)
}

// AnswerCount is how many submissions of a form, in a period, gave an
// answer to a field, and the sum of their tallies' sums. Field and Answer
// both "" count the submissions; Answer "" (hubclient.Answered) those that
// answered the field.
type AnswerCount struct {
	Field, Answer string
	N             int64
	Sum           float64
}
