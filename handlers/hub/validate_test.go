package hub

import (
	"encoding/json"
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

// TestValidatePayloadComposite: the hub judges a matrix and an address as
// JSON decodes them, with the app's check and the hub's words.
func TestValidatePayloadComposite(t *testing.T) {
	schema := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "grid", Type: hubclient.FieldMatrix, Required: true, Rows: []hubclient.Option{{Value: "speed"}, {Value: "care"}},
			Columns: []hubclient.Option{{Value: "bad"}, {Value: "good"}}},
		{Name: "addr", Type: hubclient.FieldAddress, Required: true, Countries: []string{"FR"}},
	}}
	tests := []struct {
		name, payload string
		want          map[string]string
	}{
		{"fine", `{"grid": {"speed": "good", "care": "bad"}, "addr": {"line1": "1 rue de la Paix", "city": "Paris", "country": "FR"}}`, nil},
		{"a row left out", `{"grid": {"speed": "good"}, "addr": {"line1": "1 rue de la Paix", "city": "Paris", "country": "FR"}}`,
			map[string]string{"grid": "required: every row needs an answer"}},
		{"no city, another country", `{"grid": {"speed": "good", "care": "bad"}, "addr": {"line1": "1 Main St", "country": "US"}}`,
			map[string]string{"addr": "not a country this form takes (an ISO 3166-1 code such as FR)"}},
		{"no city", `{"grid": {"speed": "good", "care": "bad"}, "addr": {"line1": "1 rue de la Paix", "country": "FR"}}`,
			map[string]string{"addr": "required: the first line, the city and the country"}},
		{"not objects", `{"grid": "good", "addr": "Paris"}`,
			map[string]string{"grid": "must be an object of the field's parts", "addr": "must be an object of the field's parts"}},
	}
	for _, tt := range tests {
		var payload map[string]any
		if err := json.Unmarshal([]byte(tt.payload), &payload); err != nil {
			t.Fatal(err)
		}
		var atts []hubclient.Attachment
		if got := ValidatePayload(schema, payload, &atts); !maps.Equal(got, tt.want) {
			t.Errorf("%s: ValidatePayload = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestValidatePayloadSignature: the hub takes a signature typed, or drawn
// as one PNG attachment of the field, and refuses another file.
func TestValidatePayloadSignature(t *testing.T) {
	schema := &hubclient.Schema{Fields: []hubclient.Field{{Name: "sign", Type: hubclient.FieldSignature, Required: true}}}
	png := hubclient.Attachment{Key: "k", Filename: "signature.png", MIME: "image/png", Size: 2048, Field: "sign"}
	jpeg := png
	jpeg.MIME = "image/jpeg"
	tests := []struct {
		name    string
		payload map[string]any
		atts    []hubclient.Attachment
		want    map[string]string
	}{
		{"typed", map[string]any{"sign": "Ada"}, nil, nil},
		{"drawn", map[string]any{}, []hubclient.Attachment{png}, nil},
		{"neither", map[string]any{}, nil, map[string]string{"sign": "required"}},
		{"a JPEG", map[string]any{}, []hubclient.Attachment{jpeg}, map[string]string{"sign": "a drawn signature is one PNG file of at most 512 KiB"}},
		{"two drawings", map[string]any{}, []hubclient.Attachment{png, png}, map[string]string{"sign": "a drawn signature is one PNG file of at most 512 KiB"}},
	}
	for _, tt := range tests {
		atts := tt.atts
		if got := ValidatePayload(schema, tt.payload, &atts); !maps.Equal(got, tt.want) {
			t.Errorf("%s: ValidatePayload = %v, want %v", tt.name, got, tt.want)
		}
	}
}
