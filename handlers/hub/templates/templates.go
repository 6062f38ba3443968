// Package templates holds the forms an owner may start from: one form file
// per template, embedded, each a valid schema that shows off the richer
// question types and logic.
package templates

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

//go:embed forms/*.json
var files embed.FS

// Template describes one template of the gallery.
type Template struct {
	Name        string // the file's name without .json: contact, quiz
	Title       string
	Description string // one line
	Category    string
	Types       []string // the question types it uses, in order of first use
}

// catalogue orders the gallery and gives each template its one-line
// description and category; the title comes from the form file itself.
var catalogue = []struct{ name, description, category string }{
	{"contact", "A message with a topic, and a call back at a time the visitor picks.", "Contact"},
	{"feedback", "A Net Promoter Score with follow-up questions for fans and critics.", "Feedback"},
	{"customer-satisfaction", "Star ratings, a grid of questions and a comment.", "Feedback"},
	{"bug-report", "Steps to reproduce, severity, and a screenshot.", "Support"},
	{"event-registration", "Tickets, sessions and a list of guests, with the total.", "Events"},
	{"rsvp", "Yes or no, how many, and what they would like to eat.", "Events"},
	{"appointment", "A service, a date and a time, and contact details.", "Bookings"},
	{"order", "Products and quantities, a delivery address and the total.", "Sales"},
	{"job-application", "Experience, a CV upload and a signature.", "HR"},
	{"volunteer", "Availability, skills and an emergency contact.", "Community"},
	{"newsletter", "A sign-up with topics and how often to write.", "Marketing"},
	{"quiz", "Questions with right answers, a score and the answers shown at the end.", "Education"},
}

// List returns every template, in the gallery's order.
func List() []Template {
	out := make([]Template, 0, len(catalogue))
	for _, c := range catalogue {
		t := Template{Name: c.name, Description: c.description, Category: c.category}
		if data, err := Get(c.name); err == nil {
			t.Title, t.Types = summary(data)
		}
		out = append(out, t)
	}
	return out
}

// Names returns the templates' names, in the gallery's order.
func Names() []string {
	names := make([]string, len(catalogue))
	for i, c := range catalogue {
		names[i] = c.name
	}
	return names
}

// Get returns the form file of the template name.
func Get(name string) ([]byte, error) {
	known := false
	for _, c := range catalogue {
		known = known || c.name == name
	}
	if !known {
		sorted := Names()
		sort.Strings(sorted)
		return nil, fmt.Errorf("no template %q; the templates are %s", name, strings.Join(sorted, ", "))
	}
	return files.ReadFile("forms/" + name + ".json")
}

// summary reads a form file's title and the types of its questions.
func summary(data []byte) (string, []string) {
	var f struct {
		Title  string `json:"title"`
		Fields []struct {
			Type string `json:"type"`
		} `json:"fields"`
	}
	if json.Unmarshal(data, &f) != nil {
		return "", nil
	}
	var types []string
	seen := map[string]bool{}
	for _, fl := range f.Fields {
		if !seen[fl.Type] {
			seen[fl.Type] = true
			types = append(types, fl.Type)
		}
	}
	return f.Title, types
}
