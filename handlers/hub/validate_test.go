package hub

import (
	"maps"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestValidatePayload(t *testing.T) {
	schema := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "intro", Type: hubclient.FieldParagraph, Text: "Hello"},
		{Name: "stars", Type: hubclient.FieldRating, Required: true},
		{Name: "at", Type: hubclient.FieldTime},
		{Name: "cv", Type: hubclient.FieldFile},
	}}
	tests := []struct {
		name    string
		payload map[string]any
		want    map[string]string
	}{
		{"fine", map[string]any{"stars": 4.0, "at": "09:15"}, nil},
		{"a value for content", map[string]any{"stars": 4.0, "intro": "mine"}, map[string]string{"intro": "a paragraph takes no value"}},
		{"empty content is nothing", map[string]any{"stars": 4.0, "intro": ""}, nil},
		{"a star too many", map[string]any{"stars": 6.0}, map[string]string{"stars": "not one of the choices"}},
		{"no stars", map[string]any{}, map[string]string{"stars": "required"}},
		{"not a time", map[string]any{"stars": 1.0, "at": "noon"}, map[string]string{"at": "not a time (HH:MM)"}},
		{"a file in the payload", map[string]any{"stars": 1.0, "cv": "cv.pdf"}, map[string]string{"cv": "files are sent as attachments, not in the payload"}},
		{"no such field", map[string]any{"stars": 1.0, "x": "y"}, map[string]string{"x": "not a field of this form"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var atts []hubclient.Attachment
			if got := ValidatePayload(schema, maps.Clone(tt.payload), &atts); !maps.Equal(got, tt.want) {
				t.Errorf("ValidatePayload(%v) = %v, want %v", tt.payload, got, tt.want)
			}
		})
	}
}

// TestValidatePayloadKeepsNumbers: a rating or a number sent as text, as
// a command line sends it, is kept as a number.
func TestValidatePayloadKeepsNumbers(t *testing.T) {
	schema := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "stars", Type: hubclient.FieldRating},
		{Name: "n", Type: hubclient.FieldNumber},
		{Name: "note", Type: hubclient.FieldText},
	}}
	payload := map[string]any{"stars": "4", "n": " 2.5", "note": "7"}
	var atts []hubclient.Attachment
	if got := ValidatePayload(schema, payload, &atts); got != nil {
		t.Fatal(got)
	}
	if want := map[string]any{"stars": 4.0, "n": 2.5, "note": "7"}; !maps.Equal(payload, want) {
		t.Errorf("payload kept as %#v, want %#v", payload, want)
	}
}
