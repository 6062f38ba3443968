package console

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFormula: formulas compile to the JSONLogic the hub evaluates, name
// what they read, and are written back as they would be typed.
func TestFormula(t *testing.T) {
	for _, tc := range []struct {
		formula, logic, shown string
		names                 []string
	}{
		{"guests * 35", `{"*":[{"var":"guests"},35]}`, "guests * 35", []string{"guests"}},
		{"guests*35 + points(capital)", `{"+":[{"*":[{"var":"guests"},35]},{"points":"capital"}]}`, "guests * 35 + points(capital)", []string{"guests", "capital"}},
		{"a + b + c", `{"+":[{"var":"a"},{"var":"b"},{"var":"c"}]}`, "a + b + c", []string{"a", "b", "c"}},
		{"(a + b) * c", `{"*":[{"+":[{"var":"a"},{"var":"b"}]},{"var":"c"}]}`, "(a + b) * c", []string{"a", "b", "c"}},
		{"a - (b - c)", `{"-":[{"var":"a"},{"-":[{"var":"b"},{"var":"c"}]}]}`, "a - (b - c)", []string{"a", "b", "c"}},
		{"a - b - c", `{"-":[{"-":[{"var":"a"},{"var":"b"}]},{"var":"c"}]}`, "a - b - c", []string{"a", "b", "c"}},
		{"-guests + 2.5", `{"+":[{"-":[{"var":"guests"}]},2.5]}`, "-guests + 2.5", []string{"guests"}},
		{"price * -1", `{"*":[{"var":"price"},-1]}`, "price * (-1)", []string{"price"}},
		{"if(guests > 10, guests * 30, guests * 35)", `{"if":[{">":[{"var":"guests"},10]},{"*":[{"var":"guests"},30]},{"*":[{"var":"guests"},35]}]}`,
			"if(guests > 10, guests * 30, guests * 35)", []string{"guests"}},
		{"if(size = 2, 1, 0)", `{"if":[{"==":[{"var":"size"},2]},1,0]}`, "if(size = 2, 1, 0)", []string{"size"}},
		{"max(0, team.count - 1) * 20", `{"*":[{"max":[0,{"-":[{"var":"team.count"},1]}]},20]}`, "max(0, team.count - 1) * 20", []string{"team.count"}},
		{"total % 7", `{"%":[{"var":"total"},7]}`, "total % 7", []string{"total"}},
	} {
		logic, names, err := parseFormula(tc.formula)
		if err != nil {
			t.Errorf("%s: %v", tc.formula, err)
			continue
		}
		if string(logic) != tc.logic {
			t.Errorf("%s: %s, want %s", tc.formula, logic, tc.logic)
		}
		if strings.Join(names, ",") != strings.Join(tc.names, ",") {
			t.Errorf("%s: reads %v, want %v", tc.formula, names, tc.names)
		}
		if shown, ok := formatFormula(logic); !ok || shown != tc.shown {
			t.Errorf("%s: shown as %q (%v), want %q", tc.formula, shown, ok, tc.shown)
		}
	}
}

func TestFormulaErrors(t *testing.T) {
	for formula, want := range map[string]string{
		"":                               "write a formula",
		"guests *":                       "the formula ends where a number or a name is expected",
		"(guests + 1":                    "a ( is not closed",
		"guests 35":                      `"35" is not expected here`,
		"sqrt(guests)":                   "sqrt() is not a function: there are points(), min(), max() and if()",
		"points(1)":                      "points() takes the name of a question with options",
		"if(a, b)":                       "if() takes 3 values, not 2",
		"max()":                          "max() takes at least 1 value, not 0",
		"guests $ 2":                     `"$" is not expected here`,
		"1.2.3":                          `"1.2.3" is not a number`,
		strings.Repeat("a+", 1001) + "a": "a formula is at most 2000 characters",
	} {
		_, _, err := parseFormula(formula)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: %v, want %q", formula, err, want)
		}
	}
}

// TestFormatFormulaRefuses: JSONLogic outside the formula's subset is not
// shown as a formula.
func TestFormatFormulaRefuses(t *testing.T) {
	for _, raw := range []string{`{"cat":["a","b"]}`, `{"var":["a",1]}`, `"text"`, `{"if":[true,1]}`, `{"+":[{"var":"a"}]}`, `{"<":[1,{"var":"a"},3]}`} {
		if s, ok := formatFormula(json.RawMessage(raw)); ok {
			t.Errorf("%s shown as %q", raw, s)
		}
	}
}
