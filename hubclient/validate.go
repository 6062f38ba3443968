package hubclient

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problems a value can have against its field. Each is also the key of the
// built-in text that explains it to a person.
const (
	ProblemRequired        = "required"
	ProblemNotText         = "notText"
	ProblemTooLong         = "tooLong"
	ProblemEmail           = "invalidEmail"
	ProblemURL             = "invalidURL"
	ProblemTel             = "invalidTel"
	ProblemNumber          = "invalidNumber"
	ProblemDate            = "invalidDate"
	ProblemTime            = "invalidTime"
	ProblemDateTime        = "invalidDateTime"
	ProblemChoice          = "invalidChoice"
	ProblemDuplicateChoice = "duplicateChoice"
	ProblemRanking         = "invalidRanking"
	ProblemBoolean         = "invalidBoolean"
	ProblemOneFile         = "oneFile"
)

// Longest text values accepted, in characters.
const (
	MaxLineLength = 2000
	MaxTextLength = 20000
)

// IsEmptyValue reports whether v counts as not given: nil, blank text, an
// empty list, an unchecked checkbox, or an object whose parts are all
// empty.
func IsEmptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		return len(v) == 0
	case []string:
		return len(v) == 0
	case bool:
		return !v
	case map[string]any:
		for _, part := range v {
			if !IsEmptyValue(part) {
				return false
			}
		}
		return true
	}
	return false
}

// CheckValue returns the problem of a value given for field f, or "". It
// judges values as a form post types them (text, a list of text for
// checkboxes, a boolean for a checkbox, a number) and as JSON decodes them.
// File fields are not checked here: files travel as attachments.
func CheckValue(f *Field, v any) string {
	if f.Type == FieldCheckbox && v == "false" {
		v = false // an unchecked box, as some clients send it
	}
	if IsEmptyValue(v) {
		if f.Required {
			return ProblemRequired
		}
		return ""
	}
	t := f.TypeOf()
	switch t.kind {
	case boolValue:
		switch v {
		case true, "true", "on":
			return ""
		}
		return ProblemBoolean
	case listValue:
		return checkChoices(f, v)
	case rankValue:
		return checkRanking(f, v)
	case objectValue:
		return checkObject(f, t, v)
	case signValue:
		return checkSignature(f, v)
	case groupValue:
		// Its items are judged by Logic.Check, with their children's rules.
		if _, ok := v.([]any); !ok {
			return ProblemObject
		}
		return ""
	case numberValue:
		if p := checkNumber(v); p != "" || !t.IsScale() {
			return p
		}
		n, _ := number(v)
		return checkScale(f, n)
	}
	s, ok := v.(string)
	if !ok {
		return ProblemNotText
	}
	if utf8.RuneCountInString(s) > t.limit {
		return ProblemTooLong
	}
	if t.check != nil {
		return t.check(f, s)
	}
	return ""
}

// HasOption reports whether value is one of the field's options.
func (f *Field) HasOption(value string) bool {
	for _, o := range f.Options {
		if o.Value == value {
			return true
		}
	}
	return false
}

func checkChoices(f *Field, v any) string {
	list, ok := texts(v)
	if !ok {
		return ProblemChoice
	}
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if !f.HasOption(s) {
			return ProblemChoice
		}
		if seen[s] {
			return ProblemDuplicateChoice
		}
		seen[s] = true
	}
	return ""
}

// checkRanking returns ProblemRanking unless v holds every option of the
// field once.
func checkRanking(f *Field, v any) string {
	list, ok := texts(v)
	if !ok || len(list) != len(f.Options) {
		return ProblemRanking
	}
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if !f.HasOption(s) || seen[s] {
			return ProblemRanking
		}
		seen[s] = true
	}
	return ""
}

// texts returns v as a list of texts: one text, a list of them, or a
// JSON array of strings; ok is false for anything else.
func texts(v any) (list []string, ok bool) {
	switch v := v.(type) {
	case string:
		return []string{v}, true
	case []string:
		return v, true
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			list = append(list, s)
		}
		return list, true
	}
	return nil, false
}

func checkNumber(v any) string {
	var n float64
	var err error
	switch v := v.(type) {
	case float64:
		n = v
	case int:
		n = float64(v)
	case json.Number:
		n, err = v.Float64()
	case string:
		n, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
	default:
		return ProblemNumber
	}
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
		return ProblemNumber
	}
	return ""
}

func checkTel(_ *Field, s string) string {
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case !strings.ContainsRune(" +-().", r):
			return ProblemTel
		}
	}
	if digits < 3 || digits > 20 {
		return ProblemTel
	}
	return ""
}
