package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// A family is a group of field types beyond the first thirteen that a hub
// may support or not: its check is optional. A hub whose form under test
// lacks the family's fields (it does not support them, or the form was
// made without them) gets skip, "not supported", never a failure; one that
// has them must take the family's values and refuse values out of their
// bounds, as it does for every type.
type family struct {
	// fields are the family's fields in the conformance form, with their
	// types.
	fields map[string]string
	// valid are values of every field, which the hub must accept; nil
	// for content, which takes none.
	valid map[string]any
	// invalid are payloads the hub must refuse, each beside valid
	// values, with what makes each wrong.
	invalid []invalidValue
	// supported, when set, says what else the schema must show for the
	// family to count as supported, "" when it does.
	supported func(s *hubclient.Schema) string
}

// invalidValue is one value a hub must refuse, and why.
type invalidValue struct {
	name  string
	value any
	why   string
}

var (
	ratings = family{
		fields: map[string]string{"stars": hubclient.FieldRating, "ease": hubclient.FieldScale, "nps": hubclient.FieldNPS, "amount": hubclient.FieldSlider},
		valid:  map[string]any{"stars": 4, "ease": 2, "nps": 9, "amount": 30},
		invalid: []invalidValue{
			{"stars", 6, "a rating of 6 of 5 stars"},
			{"ease", 0, "a scale of 1 to 5 given 0"},
			{"nps", 11, "an NPS of 11"},
			{"stars", 2.5, "a rating of 2.5"},
			{"amount", 130, "a slider of 0 to 100 given 130"},
		},
	}
	dateTimes = family{
		fields: map[string]string{"callAt": hubclient.FieldTime, "meetAt": hubclient.FieldDateTime},
		valid:  map[string]any{"callAt": "09:30", "meetAt": "2030-05-01T14:00"},
		invalid: []invalidValue{
			{"callAt", "25:00", `a time of "25:00"`},
			{"meetAt", "2030-05-01", `a date and time of "2030-05-01", a date alone`},
		},
	}
	rankings = family{
		fields: map[string]string{"order": hubclient.FieldRanking},
		valid:  map[string]any{"order": []string{"c", "a", "b"}},
		invalid: []invalidValue{
			{"order", []string{"a", "b"}, "a ranking without one of its options"},
			{"order", []string{"a", "a", "b"}, "a ranking holding an option twice"},
			{"order", []string{"a", "b", "d"}, "a ranking holding an option the field lacks"},
		},
	}
	pictures = family{
		fields:    map[string]string{"look": hubclient.FieldRadio},
		valid:     map[string]any{"look": "dark"},
		invalid:   []invalidValue{{"look", "blue", "a choice that is none of the pictures"}},
		supported: picturesShown,
	}
	parts = family{
		fields: map[string]string{"grid": hubclient.FieldMatrix, "ship": hubclient.FieldAddress, "team": hubclient.FieldGroup},
		valid: map[string]any{
			"grid": map[string]any{"speed": "good", "care": "bad"},
			"ship": map[string]any{"line1": "1 rue de Rivoli", "city": "Paris", "postalCode": "75001", "country": "FR"},
			"team": []any{map[string]any{"guest": "Ada"}, map[string]any{"guest": "Bo"}},
		},
		invalid: []invalidValue{
			{"grid", map[string]any{"speed": "great"}, "a matrix row given a column it lacks"},
			{"grid", "good", "a matrix given one text"},
			{"ship", map[string]any{"line1": "1 Main St", "city": "Boston", "country": "US"}, "an address in a country the field does not take"},
			{"ship", "1 rue de Rivoli, Paris", "an address given as one text"},
			{"team", []any{map[string]any{"guest": "A"}, map[string]any{"guest": "B"}, map[string]any{"guest": "C"}}, "three items in a group of at most two"},
		},
	}
	signatures = family{
		fields:  map[string]string{"sig": hubclient.FieldSignature},
		valid:   map[string]any{"sig": "Ada Lovelace"},
		invalid: []invalidValue{{"sig", 42, "a number as a signature"}},
	}
	content = family{
		fields: map[string]string{"intro": hubclient.FieldHeading, "note": hubclient.FieldParagraph, "rule": hubclient.FieldDivider},
		invalid: []invalidValue{
			{"intro", "Welcome", "a value for a heading"},
			{"note", "Text", "a value for a paragraph"},
			{"rule", "-", "a value for a divider"},
		},
	}
)

// picturesShown says whether the schema serves the look field's options
// with their pictures and what they show.
func picturesShown(s *hubclient.Schema) string {
	for _, o := range s.Field("look").Options {
		if o.Image == "" || o.Alt == "" {
			return fmt.Sprintf("the option %q of the field look is served without its image and alt", o.Value)
		}
	}
	return ""
}

func (r *run) typesRatings(ctx context.Context) (Status, string)   { return r.family(ctx, ratings) }
func (r *run) typesDateTimes(ctx context.Context) (Status, string) { return r.family(ctx, dateTimes) }
func (r *run) typesRanking(ctx context.Context) (Status, string)   { return r.family(ctx, rankings) }
func (r *run) typesPictures(ctx context.Context) (Status, string)  { return r.family(ctx, pictures) }
func (r *run) typesContent(ctx context.Context) (Status, string)   { return r.family(ctx, content) }
func (r *run) typesParts(ctx context.Context) (Status, string)     { return r.family(ctx, parts) }
func (r *run) typesSignature(ctx context.Context) (Status, string) { return r.family(ctx, signatures) }

// family checks the family f: skipped as not supported when the form
// lacks its fields; else its valid values must be accepted and each of
// its invalid ones refused.
func (r *run) family(ctx context.Context, f family) (Status, string) {
	switch {
	case r.schema == nil:
		return Skip, "no schema (schema.route failed)"
	case r.needsToken():
		return Skip, noToken
	}
	var missing []string
	for name, typ := range f.fields {
		if field := r.schema.Field(name); field == nil || field.Type != typ {
			missing = append(missing, name+" ("+typ+")")
		}
	}
	if len(missing) > 0 {
		return Skip, "not supported: the form lacks the fields " + strings.Join(sorted(missing), ", ") + " (optional; hubform conformance --print-form has them)"
	}
	if f.supported != nil {
		if why := f.supported(r.schema); why != "" {
			return Skip, "not supported: " + why
		}
	}
	if f.valid != nil {
		payload := withValues(f.valid, "", nil)
		a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: payload})
		if err != nil {
			return failf("POST %s/submit: %v", r.base, err)
		}
		if ok, why := accepted(a); !ok {
			shown, _ := json.Marshal(f.valid)
			return failf("want %s accepted: %s", shown, why)
		}
	}
	for _, bad := range f.invalid {
		payload := withValues(f.valid, bad.name, bad.value)
		a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: payload})
		if err != nil {
			return failf("POST %s/submit: %v", r.base, err)
		}
		if a.status/100 != 4 {
			return failf("want %s refused with 4xx, got %s", bad.why, a)
		}
	}
	return Pass, fmt.Sprintf("%d values refused", len(f.invalid))
}

// withValues returns the valid payload with values, and name set to value
// when name is not empty.
func withValues(values map[string]any, name string, value any) map[string]any {
	payload := validPayload()
	for k, v := range values {
		payload[k] = v
	}
	if name != "" {
		payload[name] = value
	}
	return payload
}
