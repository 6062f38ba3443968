package hub

import (
	"encoding/json"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/hubclient"
)

// Longest text values accepted, in characters.
const (
	maxLineLength = 2000
	maxTextLength = 20000
)

// validatePayload checks the payload and the attachments' fields against
// the schema and returns a message per offending field, or nil.
func validatePayload(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) map[string]string {
	problems := map[string]string{}
	for name := range payload {
		f := schema.Field(name)
		switch {
		case f == nil:
			problems[name] = "not a field of this form"
		case f.Type == hubclient.FieldFile && !isEmpty(payload[name]):
			problems[name] = "files are sent as attachments, not in the payload"
		}
	}
	files, unassigned := map[string]int{}, 0
	for _, a := range attachments {
		if a.Field == "" {
			unassigned++
			continue
		}
		if f := schema.Field(a.Field); f == nil || f.Type != hubclient.FieldFile {
			problems[a.Field] = "not a file field of this form"
			continue
		}
		files[a.Field]++
	}
	for i := range schema.Fields {
		f := &schema.Fields[i]
		if hubclient.IsHoneypot(f.Name) || problems[f.Name] != "" {
			continue
		}
		if f.Type == hubclient.FieldFile {
			switch n := files[f.Name]; {
			case f.Required && n == 0 && unassigned == 0:
				problems[f.Name] = "required"
			case !f.Multiple && n > 1:
				problems[f.Name] = "takes one file"
			}
			continue
		}
		v, present := payload[f.Name]
		if !present || isEmpty(v) || f.Type == hubclient.FieldCheckbox && v == false {
			if f.Required {
				problems[f.Name] = "required"
			}
			continue
		}
		if msg := checkValue(f, v); msg != "" {
			problems[f.Name] = msg
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return problems
}

// checkValue returns what is wrong with a non-empty value of field f, or "".
func checkValue(f *hubclient.Field, v any) string {
	switch f.Type {
	case hubclient.FieldCheckbox:
		switch v {
		case true, "true", "on":
			return ""
		}
		return "must be true or false"
	case hubclient.FieldCheckboxes:
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		seen := map[string]bool{}
		for _, e := range list {
			s, ok := e.(string)
			if !ok || !hasOption(f, s) {
				return "not one of the choices"
			}
			if seen[s] {
				return "a choice is given twice"
			}
			seen[s] = true
		}
		return ""
	case hubclient.FieldNumber:
		var n float64
		var err error
		switch v := v.(type) {
		case float64:
			n = v
		case json.Number:
			n, err = v.Float64()
		case string:
			n, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
		default:
			return "must be a number"
		}
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return "must be a number"
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		return "must be text"
	}
	limit := maxLineLength
	if f.Type == hubclient.FieldTextarea {
		limit = maxTextLength
	}
	if utf8.RuneCountInString(s) > limit {
		return "longer than " + strconv.Itoa(limit) + " characters"
	}
	switch f.Type {
	case hubclient.FieldEmail:
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || !strings.Contains(s[strings.LastIndex(s, "@"):], ".") {
			return "not an email address"
		}
	case hubclient.FieldURL:
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "not an http or https address"
		}
	case hubclient.FieldTel:
		digits := 0
		for _, r := range s {
			switch {
			case r >= '0' && r <= '9':
				digits++
			case !strings.ContainsRune(" +-().", r):
				return "not a telephone number"
			}
		}
		if digits < 3 || digits > 20 {
			return "not a telephone number"
		}
	case hubclient.FieldDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "not a date (YYYY-MM-DD)"
		}
	case hubclient.FieldSelect, hubclient.FieldRadio:
		if !hasOption(f, s) {
			return "not one of the choices"
		}
	}
	return ""
}

func hasOption(f *hubclient.Field, value string) bool {
	for _, o := range f.Options {
		if o.Value == value {
			return true
		}
	}
	return false
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		return len(v) == 0
	}
	return false
}
