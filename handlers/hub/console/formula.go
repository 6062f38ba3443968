package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A formula is a calculation as the builder shows it to owners: the
// arithmetic they know over the form's names, such as
//
//	guests * 35 + points(capital)
//	if(guests > 10, guests * 30, guests * 35)
//
// with numbers, names of fields and calculations (a group's number of
// entries is "team.count"), + - * / %, parentheses, and the functions
// points(field), min(…), max(…) and if(test, then, else), whose test
// compares with = != < <= > >=. It is written to the schema as the
// JSONLogic the hub evaluates (parseFormula), and a stored expression is
// shown back as a formula when it is one (formatFormula).

// formulaError is what is wrong with a formula, at a position in it.
type formulaError struct {
	At  int // byte offset in the formula
	Msg string
}

func (e *formulaError) Error() string { return e.Msg }

// maxFormulaBytes bounds a formula as hubclient.MaxRuleBytes bounds its
// JSONLogic.
const maxFormulaBytes = 2000

// parseFormula compiles formula to JSONLogic, and returns the names it
// reads, in order, each once.
func parseFormula(formula string) (json.RawMessage, []string, error) {
	if len(formula) > maxFormulaBytes {
		return nil, nil, &formulaError{Msg: fmt.Sprintf("a formula is at most %d characters", maxFormulaBytes)}
	}
	p := &formulaParser{src: formula}
	p.next()
	if p.tok.kind == tokEnd {
		return nil, nil, &formulaError{Msg: "write a formula, such as guests * 35"}
	}
	node, err := p.comparison()
	if err != nil {
		return nil, nil, err
	}
	if p.tok.kind != tokEnd {
		return nil, nil, p.errorf("%q is not expected here", p.tok.text)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// ">" reads better than "\u003e" in the JSON file.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(node); err != nil {
		return nil, nil, err
	}
	return bytes.TrimSpace(b.Bytes()), p.names, nil
}

type tokKind int

const (
	tokEnd tokKind = iota
	tokNumber
	tokName
	tokOp
	tokOpen
	tokClose
	tokComma
)

type formulaToken struct {
	kind tokKind
	text string
	at   int
}

type formulaParser struct {
	src   string
	pos   int
	tok   formulaToken
	names []string
}

func (p *formulaParser) errorf(format string, args ...any) error {
	return &formulaError{At: p.tok.at, Msg: fmt.Sprintf(format, args...)}
}

// next reads the next token into p.tok; a character no token starts
// with is a tokOp of its own, refused by the grammar.
func (p *formulaParser) next() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = formulaToken{kind: tokEnd, at: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.') {
			p.pos++
		}
		p.tok = formulaToken{tokNumber, p.src[start:p.pos], start}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.pos < len(p.src) && (p.src[p.pos] == '_' || p.src[p.pos] == '.' || p.src[p.pos] >= 'a' && p.src[p.pos] <= 'z' ||
			p.src[p.pos] >= 'A' && p.src[p.pos] <= 'Z' || p.src[p.pos] >= '0' && p.src[p.pos] <= '9') {
			p.pos++
		}
		p.tok = formulaToken{tokName, p.src[start:p.pos], start}
	case c == '(':
		p.pos++
		p.tok = formulaToken{tokOpen, "(", start}
	case c == ')':
		p.pos++
		p.tok = formulaToken{tokClose, ")", start}
	case c == ',':
		p.pos++
		p.tok = formulaToken{tokComma, ",", start}
	default:
		for _, op := range []string{"<=", ">=", "!=", "==", "<", ">", "=", "+", "-", "*", "/", "%"} {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = formulaToken{tokOp, op, start}
				return
			}
		}
		r := []rune(p.src[p.pos:])[0]
		p.pos += len(string(r))
		p.tok = formulaToken{tokOp, string(r), start}
	}
}

// comparison := sum [("=" | "!=" | "<" | "<=" | ">" | ">=") sum]
func (p *formulaParser) comparison() (any, error) {
	left, err := p.sum()
	if err != nil {
		return nil, err
	}
	ops := map[string]string{"=": "==", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
	if op, ok := ops[p.tok.text]; ok && p.tok.kind == tokOp {
		p.next()
		right, err := p.sum()
		if err != nil {
			return nil, err
		}
		return map[string]any{op: []any{left, right}}, nil
	}
	return left, nil
}

// sum := product (("+" | "-") product)*
func (p *formulaParser) sum() (any, error) {
	return p.chain(p.product, "+", "-")
}

// product := unary (("*" | "/" | "%") unary)*
func (p *formulaParser) product() (any, error) {
	return p.chain(p.unary, "*", "/", "%")
}

// chain reads operands of operand joined by ops, left to right; a run of
// + or * is one operation of many arguments, as JSONLogic writes it.
func (p *formulaParser) chain(operand func() (any, error), ops ...string) (any, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && slices.Contains(ops, p.tok.text) {
		op := p.tok.text
		p.next()
		right, err := operand()
		if err != nil {
			return nil, err
		}
		if m, ok := left.(map[string]any); ok && (op == "+" || op == "*") {
			if args, ok := m[op].([]any); ok && len(m) == 1 {
				m[op] = append(args, right)
				continue
			}
		}
		left = map[string]any{op: []any{left, right}}
	}
	return left, nil
}

// unary := "-" unary | primary
func (p *formulaParser) unary() (any, error) {
	if p.tok.kind == tokOp && p.tok.text == "-" {
		p.next()
		v, err := p.unary()
		if err != nil {
			return nil, err
		}
		if n, ok := v.(float64); ok {
			return -n, nil
		}
		return map[string]any{"-": []any{v}}, nil
	}
	return p.primary()
}

// formulaFunctions are the functions of a formula, with their least and
// most arguments (-1: any number).
var formulaFunctions = map[string][2]int{"points": {1, 1}, "min": {1, -1}, "max": {1, -1}, "if": {3, 3}}

// primary := number | name | function "(" args ")" | "(" comparison ")"
func (p *formulaParser) primary() (any, error) {
	t := p.tok
	switch t.kind {
	case tokNumber:
		n, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errorf("%q is not a number", t.text)
		}
		p.next()
		return n, nil
	case tokName:
		p.next()
		if p.tok.kind == tokOpen {
			return p.call(t)
		}
		p.use(t.text)
		return map[string]any{"var": t.text}, nil
	case tokOpen:
		p.next()
		v, err := p.comparison()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tokClose {
			return nil, &formulaError{At: t.at, Msg: "a ( is not closed"}
		}
		p.next()
		return v, nil
	case tokEnd:
		return nil, p.errorf("the formula ends where a number or a name is expected")
	}
	return nil, p.errorf("%q is not expected here: a number or a name is", t.text)
}

// call reads the arguments of the function named by t, at its "(".
func (p *formulaParser) call(t formulaToken) (any, error) {
	arity, ok := formulaFunctions[strings.ToLower(t.text)]
	if !ok {
		return nil, &formulaError{At: t.at, Msg: fmt.Sprintf("%s() is not a function: there are points(), min(), max() and if()", t.text)}
	}
	name := strings.ToLower(t.text)
	p.next()
	var args []any
	for p.tok.kind != tokClose {
		if len(args) > 0 {
			if p.tok.kind != tokComma {
				return nil, p.errorf("a , or a ) is expected after the %s of %s()", ordinal(len(args)), name)
			}
			p.next()
		}
		if name == "points" {
			if p.tok.kind != tokName {
				return nil, p.errorf("points() takes the name of a question with options, such as points(capital)")
			}
			p.use(p.tok.text)
			args = append(args, p.tok.text)
			p.next()
			continue
		}
		a, err := p.comparison()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	p.next()
	if len(args) < arity[0] || arity[1] >= 0 && len(args) > arity[1] {
		want := fmt.Sprintf("%d %s", arity[0], plural(int64(arity[0]), "value", "values"))
		if arity[1] < 0 {
			want = "at least " + want
		}
		return nil, &formulaError{At: t.at, Msg: fmt.Sprintf("%s() takes %s, not %d", name, want, len(args))}
	}
	if name == "points" {
		return map[string]any{"points": args[0]}, nil
	}
	return map[string]any{name: args}, nil
}

func (p *formulaParser) use(name string) {
	if !slices.Contains(p.names, name) {
		p.names = append(p.names, name)
	}
}

func ordinal(n int) string {
	return [...]string{"first", "second", "third"}[min(n, 3)-1] + " value"
}

// formulaPrecedence is how tightly each operator of a formula binds.
var formulaPrecedence = map[string]int{"==": 1, "!=": 1, "<": 1, "<=": 1, ">": 1, ">=": 1, "+": 2, "-": 2, "*": 3, "/": 3, "%": 3}

// formatFormula writes a stored expression as a formula; ok is false for
// one that is not in the formula's subset of JSONLogic, which the builder
// shows as JSON.
func formatFormula(raw json.RawMessage) (string, bool) {
	var node any
	if json.Unmarshal(raw, &node) != nil {
		return "", false
	}
	s, ok := formatNode(node, 0)
	if !ok {
		return "", false
	}
	// What is shown must read back as what is stored.
	again, _, err := parseFormula(s)
	if err != nil || !sameLogic(again, raw) {
		return "", false
	}
	return s, true
}

// sameLogic reports whether two JSONLogic expressions are the same
// values, however spaced or written.
func sameLogic(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// formatNode writes node, in parentheses when its operator binds less
// tightly than outer.
func formatNode(node any, outer int) (string, bool) {
	switch v := node.(type) {
	case float64:
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if v < 0 && outer > 0 {
			s = "(" + s + ")"
		}
		return s, true
	case map[string]any:
		if len(v) != 1 {
			return "", false
		}
		for op, arg := range v {
			return formatOperation(op, arg, outer)
		}
	}
	return "", false
}

func formatOperation(op string, arg any, outer int) (string, bool) {
	args, _ := arg.([]any)
	switch op {
	case "var":
		name, ok := arg.(string)
		return name, ok && name != ""
	case "points":
		name, ok := arg.(string)
		return "points(" + name + ")", ok && name != ""
	case "min", "max", "if":
		if len(args) == 0 || op == "if" && len(args) != 3 {
			return "", false
		}
		parts := make([]string, len(args))
		for i, a := range args {
			s, ok := formatNode(a, 0)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return op + "(" + strings.Join(parts, ", ") + ")", true
	}
	prec, ok := formulaPrecedence[op]
	if !ok {
		return "", false
	}
	if op == "-" && len(args) == 1 {
		s, ok := formatNode(args[0], 4)
		return "-" + s, ok
	}
	if len(args) < 2 || prec == 1 && len(args) != 2 || (op == "-" || op == "/" || op == "%") && len(args) != 2 {
		return "", false
	}
	word := map[string]string{"==": "="}[op]
	if word == "" {
		word = op
	}
	parts := make([]string, len(args))
	for i, a := range args {
		// The right of - / % binds one tighter: a - (b - c).
		inner := prec
		if i > 0 && op != "+" && op != "*" {
			inner = prec + 1
		}
		s, ok := formatNode(a, inner)
		if !ok {
			return "", false
		}
		parts[i] = s
	}
	s := strings.Join(parts, " "+word+" ")
	if prec < outer || prec == outer && outer == 1 {
		s = "(" + s + ")"
	}
	return s, true
}
