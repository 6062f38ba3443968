package components

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// The built-in texts of calculations and quizzes, with the others.
func init() {
	DefaultTexts["quizScore"] = "Your score: {score}"
	DefaultTexts["quizAnswers"] = "Your answers"
	DefaultTexts["quizRight"] = "right"
	DefaultTexts["quizWrong"] = "wrong"
}

// calcValues returns the values of the schema's calculations for the
// values shown, worked out once per render; nil without calculations.
func (v *formView) calcValues() map[string]any {
	if v.logic == nil || !v.logic.HasCalculations() {
		return nil
	}
	if v.calculated == nil {
		v.calculated = v.logic.Calculate(hubclient.Values(v.schema, v.props.State.Values))
	}
	return v.calculated
}

// shownAfter returns the calculations the form shows at the end of step
// i: those with Show whose last field read is in the step (fields in the
// form's order), and, at the last step, those reading no field of a step.
func (v *formView) shownAfter(i int) []*hubclient.Calculation {
	if v.logic == nil {
		return nil
	}
	var out []*hubclient.Calculation
	for j := range v.schema.Calculations {
		c := &v.schema.Calculations[j]
		if c.Show && v.calcStep(c) == i {
			out = append(out, c)
		}
	}
	return out
}

// calcStep is the index of the step a shown calculation comes at the end
// of: the last step holding a field it reads, else the last step.
func (v *formView) calcStep(c *hubclient.Calculation) int {
	reads := v.logic.CalculationFields(c.Name)
	last := len(v.schema.Steps) - 1
	for i := last; i >= 0; i-- {
		if slices.ContainsFunc(v.schema.Steps[i].Fields, func(name string) bool { return slices.Contains(reads, name) }) {
			return i
		}
	}
	return last
}

// shownCalcs lists the calculations the form shows, in order.
func (v *formView) shownCalcs() []*hubclient.Calculation {
	if v.logic == nil {
		return nil
	}
	var out []*hubclient.Calculation
	for j := range v.schema.Calculations {
		if c := &v.schema.Calculations[j]; c.Show {
			out = append(out, c)
		}
	}
	return out
}

func (v *formView) calcID(c *hubclient.Calculation) string {
	return v.formID + "-calc-" + safeID(c.Name)
}

// calcText is a shown calculation's value, written for the form's locale.
func (v *formView) calcText(c *hubclient.Calculation) string {
	// A value not worked out yet (nothing chosen) is a dash, not a blank.
	return cmp.Or(c.FormatValue(v.calcValues()[c.Name], v.l.Locale), "—")
}

// quizScore is what the submitted state says of the score, "" when the
// hub sent none.
func quizScore(p HubFormProps) string {
	if p.State.Score == nil || p.InitialSchema == nil {
		return ""
	}
	text := (&hubclient.Calculation{}).FormatValue(*p.State.Score, p.Locale)
	if c := p.InitialSchema.Calculation(hubclient.ScoreName); c != nil {
		text = c.FormatValue(*p.State.Score, p.Locale)
	}
	return strings.ReplaceAll(textsOf(p).T("quizScore"), "{score}", text)
}

// quizAnswer is one question of a quiz, as the submitted state lists it.
type quizAnswer struct {
	Label string
	Right bool
}

// quizAnswers lists the questions the hub judged, in the form's order,
// under their labels in the props' locale.
func quizAnswers(p HubFormProps) []quizAnswer {
	if len(p.State.Answers) == 0 || p.InitialSchema == nil {
		return nil
	}
	s := schemaMemo.get(p.InitialSchema, p.Locale).l.Schema
	var out []quizAnswer
	for _, f := range s.Fields {
		if right, ok := p.State.Answers[f.Name]; ok {
			out = append(out, quizAnswer{Label: cmp.Or(f.Label, f.Name), Right: right})
		}
	}
	return out
}
