package hubclient

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A text of a form may recall an earlier answer: "Thanks, {{name}}",
// "{{addr.city}}" for a part of a composite field, "{{name|there}}" with a
// fallback shown while the answer is empty, hidden or not given yet. The
// value is inserted as text, after translation, never read as HTML or
// Markdown.

// recallKey is what a token may name: a field, or a part of a composite
// field ("addr.city").
var recallKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}(\.[A-Za-z0-9_-]{1,64})?$`)

// RecallText is a text with its recall tokens parsed once, filled for
// given values by Fill.
type RecallText struct {
	parts []recallPart
	// Keys are the names and parts the text recalls, in order, each once.
	Keys []string
}

// recallPart is a run of literal text, or a token when key is set.
type recallPart struct {
	lit, key, fallback string
	// hasFallback tells "{{key|}}", an empty fallback, from "{{key}}".
	hasFallback bool
}

// recallOpen and recallClose delimit a token.
const recallOpen, recallClose = "{{", "}}"

// HasRecall reports whether text may hold a recall token: texts without
// one, most, are shown as they are.
func HasRecall(text string) bool { return strings.Contains(text, recallOpen) }

// ParseRecall parses the recall tokens of text: "{{key}}" or
// "{{key|fallback}}", the key a field's name or a composite field's part
// ("addr.city"). A "{{" without its "}}", or a key that is no name, is an
// error; the text returned then keeps such a token as it is written.
func ParseRecall(text string) (*RecallText, error) {
	t := &RecallText{}
	var errs []error
	rest := text
	for {
		i := strings.Index(rest, recallOpen)
		if i < 0 {
			break
		}
		j := strings.Index(rest[i+len(recallOpen):], recallClose)
		if j < 0 {
			errs = append(errs, errors.New(`a "{{" without its "}}"`))
			break
		}
		inner := rest[i+len(recallOpen) : i+len(recallOpen)+j]
		key, fallback, hasFallback := strings.Cut(inner, "|")
		key = strings.TrimSpace(key)
		end := i + len(recallOpen) + j + len(recallClose)
		if !recallKey.MatchString(key) {
			errs = append(errs, fmt.Errorf("%q does not name an answer: write {{name}}, {{name.part}} or {{name|fallback}}", rest[i:end]))
			t.literal(rest[:end])
			rest = rest[end:]
			continue
		}
		t.literal(rest[:i])
		t.parts = append(t.parts, recallPart{key: key, fallback: fallback, hasFallback: hasFallback})
		if !slices.Contains(t.Keys, key) {
			t.Keys = append(t.Keys, key)
		}
		rest = rest[end:]
	}
	t.literal(rest)
	return t, errors.Join(errs...)
}

func (t *RecallText) literal(s string) {
	if s == "" {
		return
	}
	if n := len(t.parts); n > 0 && t.parts[n-1].key == "" {
		t.parts[n-1].lit += s
		return
	}
	t.parts = append(t.parts, recallPart{lit: s})
}

// fallbackEverywhere reports whether every token recalling key gives a
// fallback, an empty one ("{{key|}}") included.
func (t *RecallText) fallbackEverywhere(key string) bool {
	for _, p := range t.parts {
		if p.key == key && !p.hasFallback {
			return false
		}
	}
	return true
}

// Fill returns the text with each token replaced by the words of the
// value it recalls, as text shows it: display turns a value of values,
// found by RecallValue, into words; an empty one, or none, gives the
// token's fallback. The result is text, to be escaped where it is shown.
func (t *RecallText) Fill(values map[string]any, display func(key string, v any) string) string {
	return t.FillWith(func(key string) string {
		v, ok := RecallValue(values, key)
		if !ok {
			return ""
		}
		return display(key, v)
	})
}

// FillWith is Fill with the words of each key given by words ("" for
// none, which gives the fallback).
func (t *RecallText) FillWith(words func(key string) string) string {
	if len(t.parts) == 1 && t.parts[0].key == "" {
		return t.parts[0].lit
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.key == "" {
			b.WriteString(p.lit)
			continue
		}
		if s := words(p.key); s != "" {
			b.WriteString(s)
		} else {
			b.WriteString(p.fallback)
		}
	}
	return b.String()
}

// RecallValue returns the value values holds for a key a token recalls: a
// field's name, or a part of a composite value ("addr.city"); false for
// none or an empty one. Values are typed as Values types them (the names a
// form computes may be added to the same map).
func RecallValue(values map[string]any, key string) (any, bool) {
	name, part, dotted := SplitKey(key)
	v, ok := values[name]
	if ok && dotted {
		obj, isObj := objectOf(v)
		v, ok = obj[part], isObj
		if ok {
			_, ok = obj[part]
		}
	}
	if !ok || emptyValue(v) {
		return nil, false
	}
	return v, true
}

// emptyValue reports whether v is no answer: nil, "", an empty list or
// object.
func emptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []string:
		return len(v) == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// Caption returns text as owners read it where no answer fills it: a
// question's label in the inbox's columns, exports, e-mails and the
// Summary, each token as the key it recalls between brackets, "Thanks,
// [name] — your e-mail?".
func Caption(text string) string {
	if !HasRecall(text) {
		return text
	}
	t, err := ParseRecall(text)
	if err != nil {
		return text
	}
	return t.FillWith(func(key string) string { return "[" + key + "]" })
}

// Recall fills text's tokens from values, parsing it on each call: for a
// text used once. Forms parse theirs once (Logic.FieldRecall and the
// others) and fill them with RecallText.Fill.
func Recall(text string, values map[string]any, display func(key string, v any) string) string {
	if !HasRecall(text) {
		return text
	}
	t, _ := ParseRecall(text)
	return t.Fill(values, display)
}

// RecallWords writes a value of the field (or of its part, when part is
// set) as a recalled text shows it, as the inbox does: an option by its
// label, a list joined by ", ", a number without trailing zeros, a yes or
// no as yes and no, a matrix's rows by "; " and an address's lines by ", ",
// a part in words.
func (f *Field) RecallWords(part string, v any, yes, no string) string {
	if part != "" {
		return f.PartText(v)
	}
	switch v := v.(type) {
	case bool:
		if v {
			return yes
		}
		return no
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case string:
		return f.optionLabel(v)
	case []string:
		words := make([]string, 0, len(v))
		for _, s := range v {
			words = append(words, f.optionLabel(s))
		}
		return strings.Join(words, ", ")
	case []any:
		if f.Type == FieldGroup {
			return strings.Join(f.AnswerLines(v), "; ")
		}
		words := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				words = append(words, f.optionLabel(s))
			}
		}
		return strings.Join(words, ", ")
	case map[string]any:
		sep := "; "
		if f.Type == FieldAddress {
			sep = ", "
		}
		return strings.Join(f.AnswerLines(v), sep)
	}
	return fmt.Sprint(v)
}

// optionLabel returns the label of the option of value s, or s.
func (f *Field) optionLabel(s string) string {
	for _, o := range f.Options {
		if o.Value == s && o.Label != "" {
			return o.Label
		}
	}
	return s
}
