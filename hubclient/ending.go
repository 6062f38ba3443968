package hubclient

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"encoding/json"
)

// Ending is one end of a form, reached after a submission when its
// condition holds for the answers: a title and a text in place of the
// thank-you panel, or a page the visitor is sent to. The hub decides which
// ending a submission reached and says so in its answer
// (SubmitResponse.Ending); a client shows it, and never decides it.
type Ending struct {
	// ID names the ending, unique in the form: the submit answer, the
	// translations and the hub's counts refer to it.
	ID string `json:"id"`
	// Title is the ending's heading.
	Title string `json:"title,omitempty"`
	// Text is shown under the title, in the safe subset of Markdown of a
	// paragraph field.
	Text string `json:"text,omitempty"`
	// RedirectURL, when set, is the absolute http or https page the
	// visitor is sent to instead (EndingRedirect).
	RedirectURL string `json:"redirectUrl,omitempty"`
	// If is a JSONLogic condition over the answers, as a field's
	// visibleIf; empty always holds.
	If    json.RawMessage `json:"if,omitempty"`
	Extra Extra           `json:"-"`
}

// EndingTranslation overlays one ending.
type EndingTranslation struct {
	Title string `json:"title,omitempty"`
	Text  string `json:"text,omitempty"`
	Extra Extra  `json:"-"`
}

// Ending returns the ending of id, or nil.
func (s *Schema) Ending(id string) *Ending {
	if id == "" {
		return nil
	}
	for i := range s.Endings {
		if s.Endings[i].ID == id {
			return &s.Endings[i]
		}
	}
	return nil
}

// ValidEndingRedirect reports whether raw may be an ending's redirectUrl:
// ValidRedirect's absolute http or https address, not a path, since an
// ending's page is the form owner's, whichever site shows the form.
func ValidEndingRedirect(raw string) bool {
	return ValidRedirect(raw) && !strings.HasPrefix(raw, "/")
}

// Redirect returns the page the ending sends the visitor to, or "" when
// it has none or ValidEndingRedirect refuses it (a client checks again
// what a hub sent). The answers its query recalls ("?name={{name}}") are
// filled in from values, each escaped as a query value: an answer
// "a&b=c" cannot add a parameter. A value goes in as it is stored (an
// option's value, not its label; a list joined by commas).
func (e *Ending) Redirect(values map[string]any) string {
	if e == nil || !ValidEndingRedirect(e.RedirectURL) {
		return ""
	}
	u, _ := url.Parse(e.RedirectURL)
	if HasRecall(u.RawQuery) {
		t, _ := ParseRecall(u.RawQuery)
		u.RawQuery = t.FillWith(func(key string) string {
			v, ok := RecallValue(values, key)
			if !ok {
				return ""
			}
			return url.QueryEscape(queryWords(v))
		})
	}
	return u.String()
}

// queryWords writes a value for an address's query: as it is stored, a
// list joined by commas.
func queryWords(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case []string:
		return strings.Join(v, ",")
	case []any:
		words := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				words = append(words, s)
			}
		}
		return strings.Join(words, ",")
	}
	return ""
}

// EndingError is a problem of the condition of the ending at Index in the
// schema's endings, of id ID, as Compile reports it.
type EndingError struct {
	Index int
	ID    string
	Err   error
}

func (e *EndingError) Error() string { return fmt.Sprintf("ending %q: if: %v", e.ID, e.Err) }

func (e *EndingError) Unwrap() error { return e.Err }

// compileEndings parses the endings' conditions into l.endingIf, in the
// endings' order. A condition that reads no field of the form is an
// error naming the ending.
func (l *Logic) compileEndings(known func(string) bool) []error {
	var errs []error
	for i := range l.schema.Endings {
		e := &l.schema.Endings[i]
		if len(e.If) == 0 {
			continue
		}
		c, err := parseRule(e.If, known, l.schema)
		if err != nil {
			errs = append(errs, &EndingError{Index: i, ID: e.ID, Err: err})
			continue
		}
		l.score(c)
		if l.endingIf == nil {
			l.endingIf = map[int]*Condition{}
		}
		l.endingIf[i] = c
	}
	return errs
}

// Ending returns the ending values reach: the first of the schema's
// endings whose condition holds, an ending without one always holding;
// nil for none, the thank-you panel. Values are typed as Values types
// them, or as JSON decodes a stored payload (file fields as a list, as
// WithFiles makes them). The conditions see the values as a field's do:
// those of hidden fields are dropped first. An ending whose condition
// did not parse is never reached.
func (l *Logic) Ending(values map[string]any) *Ending {
	if len(l.schema.Endings) == 0 {
		return nil
	}
	seen := l.visibleValues(l.Evaluate(values), values)
	l.fill(seen, len(l.calcs))
	for i := range l.schema.Endings {
		e := &l.schema.Endings[i]
		if len(e.If) == 0 {
			return e
		}
		if c := l.endingIf[i]; c != nil && c.Holds(seen) {
			return e
		}
	}
	return nil
}

// WithFiles returns payload with each file field's value the list of the
// names of its attachments, as a condition sees a file field: what a hub
// judges a stored submission's ending on. payload is not changed.
func WithFiles(payload map[string]any, attachments []Attachment) map[string]any {
	if len(attachments) == 0 {
		return payload
	}
	out := make(map[string]any, len(payload)+1)
	for k, v := range payload {
		out[k] = v
	}
	for _, a := range attachments {
		if a.Field == "" {
			continue
		}
		names, _ := out[a.Field].([]string)
		out[a.Field] = append(names, a.Filename)
	}
	return out
}
