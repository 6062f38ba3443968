package formsource

import (
	"fmt"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// uniqueTypes are the field types whose value can be unique: one value a
// person types or picks. A file has no value to compare, and checkboxes
// hold a set.
var uniqueTypes = map[string]bool{
	hubclient.FieldText: true, hubclient.FieldEmail: true, hubclient.FieldTel: true,
	hubclient.FieldNumber: true, hubclient.FieldURL: true, hubclient.FieldHidden: true,
	hubclient.FieldSelect: true, hubclient.FieldRadio: true, hubclient.FieldDate: true,
}

// limits checks closesAt, maxSubmissions and uniqueFields.
func (v *validator) limits(s hub.Settings) {
	// JSON has parsed closesAt as RFC 3339 already; the zero time is what
	// an unset value would be mistaken for, and a year past 9999 cannot
	// be written back.
	if at := s.ClosesAt; at != nil && (at.IsZero() || at.Year() < 1 || at.Year() > 9999) {
		v.addf("hub.closesAt", "hub.closesAt: %s is not a time a form can close at; write one such as \"2026-12-31T23:59:00Z\"", at.Format(time.RFC3339))
	}
	if s.MaxSubmissions < 0 {
		v.addf("hub.maxSubmissions", "hub.maxSubmissions: %d is negative; 0 takes any number", s.MaxSubmissions)
	}
	seen := make(map[string]bool, len(s.UniqueFields))
	for i, name := range s.UniqueFields {
		path := fmt.Sprintf("hub.uniqueFields[%d]", i)
		f := v.byName[name]
		switch {
		case seen[name]:
			v.addf(path, "%s: %q is listed more than once", path, name)
		case f == nil:
			v.addf(path, "%s: %q is not a field of the form", path, name)
		case !uniqueTypes[f.Type]:
			v.addf(path, "%s: field %q is of type %s, whose value cannot be unique; use a text, email, tel, number, url, hidden, select, radio or date field", path, name, f.Type)
		}
		seen[name] = true
	}
}
