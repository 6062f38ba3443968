package console

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// The builder's calculations: after the endings, a card for each of the
// form's calculated values (a price, a total, the score), its formula
// written in arithmetic (formula.go) and checked as it is typed, its
// format, and whether the form shows it; then the quiz's settings. Each
// action is a builder action, saved into the draft as the member who
// posted.

// registerCalculations adds the calculations' actions and the check of a
// formula as it is typed.
func (con *Console) registerCalculations(g *echo.Group) {
	g.POST("/forms/:site/:slug/calculations", con.builderAction(addCalculation, viewFields))
	g.POST("/forms/:site/:slug/calculations/check", con.checkFormula)
	g.POST("/forms/:site/:slug/calculations/quiz", con.builderAction(editQuiz, viewFields))
	g.POST("/forms/:site/:slug/calculations/:n", con.builderAction(editCalculation, viewFields))
	g.POST("/forms/:site/:slug/calculations/:n/remove", con.removeCalculationAction)
}

// calculationURL is the path of the action on calculation n.
func calculationURL(p formProps, n int, action string) string {
	return builderURL(p, "/calculations/"+strconv.Itoa(n)+action)
}

// calculationAt returns the index of the calculation the route names.
func calculationAt(d *formFile, c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= len(d.Schema.Calculations) {
		return 0, problem("calculations", "there is no calculation %s: the form has %d", c.Param("n"), len(d.Schema.Calculations))
	}
	return n, nil
}

// calculationFormats are the formats a calculation's value takes, in the
// owner's words.
var calculationFormats = []struct{ value, label string }{
	{hubclient.FormatNumber, "Number"},
	{hubclient.FormatCurrency, "Amount of money"},
	{hubclient.FormatPercent, "Percentage (0.25 shows as 25 %)"},
}

// addCalculation adds a calculation after the others from the posted
// label, formula and format; its name is made from its label, "score"
// when the owner asks for the form's score.
func addCalculation(d *formFile, c echo.Context) error {
	s := d.Schema
	n := len(s.Calculations)
	calc := hubclient.Calculation{}
	if err := calculationFromForm(s, &calc, c, n); err != nil {
		return err
	}
	base := cmp.Or(nameFrom(calc.Label), "value")
	if c.FormValue("score") == "1" && s.Calculation(hubclient.ScoreName) == nil {
		base = hubclient.ScoreName
	}
	calc.Name = base
	for k := 2; s.Field(calc.Name) != nil || s.Calculation(calc.Name) != nil; k++ {
		calc.Name = base + "_" + strconv.Itoa(k)
	}
	s.Calculations = append(s.Calculations, calc)
	c.Set(editingKey, editing{name: "calculation:" + calc.Name, anchor: "calculation-" + strconv.Itoa(n)})
	return nil
}

// editCalculation sets calculation n's label, formula, format and
// whether the form shows it.
func editCalculation(d *formFile, c echo.Context) error {
	n, err := calculationAt(d, c)
	if err != nil {
		return err
	}
	calc := &d.Schema.Calculations[n]
	c.Set(editingKey, editing{name: "calculation:" + calc.Name, anchor: "calculation-" + strconv.Itoa(n)})
	return calculationFromForm(d.Schema, calc, c, n)
}

// calculationFromForm reads the posted label, formula, format, currency
// and show into calc, the form's n-th calculation, refusing in words a
// formula that does not compile or reads a name the calculation cannot.
func calculationFromForm(s *hubclient.Schema, calc *hubclient.Calculation, c echo.Context, n int) error {
	path := fmt.Sprintf("calculations[%d]", n)
	calc.Label = strings.TrimSpace(c.FormValue("label"))
	var errs []error
	if calc.Label == "" {
		errs = append(errs, problem(path+".label", "a calculation needs a name people read, such as Total"))
	}
	if c.FormValue(exprAsJSON) == "" {
		expr, err := checkedFormula(s, n, c.FormValue("formula"))
		if err != nil {
			errs = append(errs, problem(path+".expr", "%v", err))
		} else {
			calc.Expr = expr
		}
	} else if expr := strings.TrimSpace(c.FormValue("expr")); expr != "" {
		if !json.Valid([]byte(expr)) {
			errs = append(errs, problem(path+".expr", "the expression is not JSON"))
		} else {
			calc.Expr = json.RawMessage(expr)
		}
	}
	format := c.FormValue("format")
	if !slices.ContainsFunc(calculationFormats, func(f struct{ value, label string }) bool { return f.value == format }) {
		format = hubclient.FormatNumber
	}
	calc.Format, calc.Currency = format, ""
	if format == hubclient.FormatNumber {
		calc.Format = ""
	}
	if format == hubclient.FormatCurrency {
		calc.Currency = strings.ToUpper(strings.TrimSpace(c.FormValue("currency")))
		if len(calc.Currency) != 3 || strings.Trim(calc.Currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			errs = append(errs, problem(path+".currency", "the currency is its three-letter code, such as EUR or USD"))
		}
	}
	calc.Show = c.FormValue("show") == "on"
	return errors.Join(errs...)
}

// exprAsJSON is posted by a card that shows its expression as JSON, the
// formula's subset not saying it: the expr input holds it then.
const exprAsJSON = "exprAsJSON"

// checkedFormula compiles formula, the n-th calculation's, and refuses a
// name the form does not have, one that is this calculation or a later
// one, and points() of a question without options, in words, with the
// name nearest to one mistyped.
func checkedFormula(s *hubclient.Schema, n int, formula string) (json.RawMessage, error) {
	expr, names, err := parseFormula(formula)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if f := conditionField(s, name); f != nil {
			if strings.Contains(formula, "points("+name+")") && len(f.Options) == 0 {
				return nil, fmt.Errorf("in points(%s), %s has no options to give points to", name, fieldWords(f))
			}
			continue
		}
		if k := slices.IndexFunc(s.Calculations, func(c hubclient.Calculation) bool { return c.Name == name }); k >= 0 {
			if k >= n {
				return nil, fmt.Errorf("the calculation %s is this one or one after it: a calculation reads the questions and the calculations before it", name)
			}
			continue
		}
		msg := fmt.Sprintf("there is no question or calculation called %s in this form", name)
		if near := nearestName(s, n, name); near != "" {
			msg += ": did you mean " + near + "?"
		}
		return nil, errors.New(msg)
	}
	return expr, nil
}

// formulaNames are the names a formula of calculation n may read, with
// what each is: the questions whose answers are numbers, those with
// options (for points()), a group's number of entries, the calculations
// before it.
func formulaNames(s *hubclient.Schema, n int) []formulaName {
	var out []formulaName
	for i := range s.Fields {
		f := &s.Fields[i]
		switch {
		case f.Type == hubclient.FieldGroup:
			out = append(out, formulaName{Insert: f.Name + groupCountSuffix, Words: "Number of " + cmp.Or(f.Label, f.Name)})
		case numeric(f.Type):
			out = append(out, formulaName{Insert: f.Name, Words: cmp.Or(f.Label, f.Name)})
		case len(f.Options) > 0:
			out = append(out, formulaName{Insert: "points(" + f.Name + ")", Words: "Points of " + cmp.Or(f.Label, f.Name)})
		}
	}
	for k := 0; k < n && k < len(s.Calculations); k++ {
		c := s.Calculations[k]
		out = append(out, formulaName{Insert: c.Name, Words: cmp.Or(c.Label, c.Name)})
	}
	return out
}

// formulaName is a name a formula may read: what to insert, what it is.
type formulaName struct{ Insert, Words string }

// nearestName returns the name calculation n may read nearest to the
// mistyped name, "" when none is near.
func nearestName(s *hubclient.Schema, n int, name string) string {
	best, bestDist := "", 3
	for _, fn := range formulaNames(s, n) {
		cand := strings.TrimSuffix(strings.TrimPrefix(fn.Insert, "points("), ")")
		if d := editDistance(strings.ToLower(name), strings.ToLower(cand)); d < bestDist {
			best, bestDist = cand, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// checkFormula answers the check of a formula as it is typed: what is
// wrong with it, or what it reads. It reads the newest version and
// stores nothing.
func (con *Console) checkFormula(c echo.Context) error {
	p, err := con.loadNewest(c, viewFields)
	if err != nil {
		return err
	}
	d := decodeFormFile([]byte(p.Body))
	if d == nil {
		return c.HTML(http.StatusOK, "")
	}
	n, err := strconv.Atoi(c.FormValue("n"))
	if err != nil || n < 0 || n > len(d.Schema.Calculations) {
		n = len(d.Schema.Calculations)
	}
	msg, ok := formulaVerdict(d.Schema, n, c.FormValue("formula"))
	return con.render(c, http.StatusOK, formulaCheckOf(checkID(c.FormValue("check")), msg, ok))
}

// checkID is the id of the check's message the page asks for, "" when it
// is not one of a calculation's.
func checkID(id string) string {
	if strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || !strings.HasSuffix(id, "-check") {
		return ""
	}
	return id
}

// formulaVerdict is what the check says of formula, calculation n's.
func formulaVerdict(s *hubclient.Schema, n int, formula string) (msg string, ok bool) {
	if strings.TrimSpace(formula) == "" {
		return "", true
	}
	_, err := checkedFormula(s, n, formula)
	if err != nil {
		msg := capitalized(err.Error())
		if !strings.HasSuffix(msg, "?") {
			msg += "."
		}
		return msg, false
	}
	_, names, _ := parseFormula(formula)
	if len(names) == 0 {
		return "A fixed number: it reads no answer.", true
	}
	words := make([]string, len(names))
	for i, name := range names {
		words[i] = nameWords(s, name)
	}
	return "Reads " + wordList(words) + ".", true
}

// nameWords is how the builder names what a formula reads.
func nameWords(s *hubclient.Schema, name string) string {
	if f := conditionField(s, name); f != nil {
		return cmp.Or(f.Label, f.Name)
	}
	if c := s.Calculation(name); c != nil {
		return cmp.Or(c.Label, c.Name)
	}
	return name
}

// capitalized is s with its first letter upper case.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// uncapitalized is s with its first letter lower case.
func uncapitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// calculationFormula is calculation n's formula as the card shows it,
// and whether its expression is one (else the card shows its JSON).
func calculationFormula(calc hubclient.Calculation) (string, bool) {
	if len(calc.Expr) == 0 {
		return "", true
	}
	return formatFormula(calc.Expr)
}

// editQuiz makes the form a quiz or not, and sets whether it shows which
// answers were right. A quiz needs a calculation called score: asked for
// without one, it is made from the points of every question that has
// some.
func editQuiz(d *formFile, c echo.Context) error {
	s := d.Schema
	if c.FormValue("quiz") != "on" {
		s.Quiz = nil
		return nil
	}
	if s.Quiz == nil {
		s.Quiz = &hubclient.Quiz{}
	}
	s.Quiz.ShowAnswers = c.FormValue("showAnswers") == "on"
	if s.Calculation(hubclient.ScoreName) != nil {
		return nil
	}
	var terms []string
	for _, f := range s.Fields {
		if slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Points != 0 || o.Correct }) {
			terms = append(terms, "points("+f.Name+")")
		}
	}
	if len(terms) == 0 {
		return problem("quiz", "a quiz counts the points of its answers: give points to some options first (in a choice question's settings)")
	}
	expr, _, err := parseFormula(strings.Join(terms, " + "))
	if err != nil {
		return err
	}
	s.Calculations = append(s.Calculations, hubclient.Calculation{Name: hubclient.ScoreName, Label: "Score", Expr: expr})
	return nil
}

// removeCalculation removes calculation n; one a condition, an ending or
// a later calculation reads is refused by the hub's check, in words.
func removeCalculation(d *formFile, c echo.Context) error {
	n, err := calculationAt(d, c)
	if err != nil {
		return err
	}
	s := d.Schema
	s.Calculations = slices.Delete(s.Calculations, n, n+1)
	return nil
}

// removeCalculationAction asks before removing a calculation.
func (con *Console) removeCalculationAction(c echo.Context) error {
	return con.confirmRemoval(c, con.builderAction(removeCalculation, viewFields), func(d *formFile) (confirmation, bool) {
		n, err := calculationAt(d, c)
		if err != nil {
			return confirmation{}, false
		}
		calc := d.Schema.Calculations[n]
		return confirmation{
			Question: "Remove the calculation “" + cmp.Or(calc.Label, calc.Name) + "”?",
			Detail:   "The value leaves the draft. The live version keeps it until you publish; submissions keep the values they were sent with.",
			Action:   "Remove the calculation", Cancel: formURL(c.Param("site"), c.Param("slug")) + "#calculations",
		}, true
	})
}

// wordList joins words as "a, b and c".
func wordList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
