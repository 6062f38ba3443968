package hubclient

import "testing"

// TestSignature judges a signature as app and hub both do: a typed name,
// or one drawing as a PNG of at most MaxSignatureBytes.
func TestSignature(t *testing.T) {
	f := &Field{Name: "sign", Type: FieldSignature, Required: true}
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"typed", "Ada Lovelace", ""},
		{"drawn", []string{"signature.png"}, ""},
		{"drawn, as JSON decodes it", []any{"signature.png"}, ""},
		{"nothing", "", ProblemRequired},
		{"no drawing", []string{}, ProblemRequired},
		{"two drawings", []string{"a.png", "b.png"}, ProblemSignature},
		{"a number", 5.0, ProblemNotText},
	}
	for _, tt := range tests {
		if got := CheckValue(f, tt.value); got != tt.want {
			t.Errorf("%s: CheckValue(%#v) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
	for _, tt := range []struct {
		mime string
		size int64
		want string
	}{
		{"image/png", 1024, ""},
		{"IMAGE/PNG; charset=binary", MaxSignatureBytes, ""},
		{"image/jpeg", 1024, ProblemSignature},
		{"image/png", MaxSignatureBytes + 1, ProblemSignature},
		{"image/png", 0, ProblemSignature},
	} {
		if got := CheckSignatureFile(tt.mime, tt.size); got != tt.want {
			t.Errorf("CheckSignatureFile(%q, %d) = %q, want %q", tt.mime, tt.size, got, tt.want)
		}
	}
	if !f.TypeOf().TakesFiles() || f.TypeOf().IsFiles() || f.Prefillable() {
		t.Error("a signature takes a file, is no file field, and is never prefilled")
	}
}
