package hub

import (
	"regexp"
	"strings"
)

// placeholder matches "{{name}}" in an autoresponder's subject or body,
// spaces inside the braces allowed, with the field names Validate admits.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}`)

// Placeholders returns the field names the placeholders of s name, in
// order, repeats included.
func Placeholders(s string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// Fill returns s with each placeholder replaced by value(name) and the
// text between them by literal(text): a message's HTML part escapes both.
func Fill(s string, literal, value func(string) string) string {
	var b strings.Builder
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(literal(s[last:m[0]]))
		b.WriteString(value(s[m[2]:m[3]]))
		last = m[1]
	}
	b.WriteString(literal(s[last:]))
	return b.String()
}

// Text returns the subject and body of a in the locale a visitor used:
// the overlay of the locale itself, then of each shorter tag ("de-AT",
// then "de"), then the base language, each member on its own, locales
// compared without regard to case.
func (a *Autoresponder) Text(locale string) (subject, body string) {
	for tag := locale; tag != ""; {
		for key, t := range a.I18n {
			if !strings.EqualFold(key, tag) {
				continue
			}
			if subject == "" {
				subject = t.Subject
			}
			if body == "" {
				body = t.Body
			}
		}
		i := strings.LastIndexAny(tag, "-_")
		if i < 0 {
			break
		}
		tag = tag[:i]
	}
	if subject == "" {
		subject = a.Subject
	}
	if body == "" {
		body = a.Body
	}
	return subject, body
}
