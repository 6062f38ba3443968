package hubclient

import (
	"strings"
	"unicode/utf8"
)

// A signature is a drawing, which a form with JavaScript sends as a PNG
// file of the field (an attachment, through the upload pipeline, like a
// file field's), or, without JavaScript, the signer's name, typed: a
// text in the payload. A submission carries one or the other.

// SignatureMIME is the type of a drawn signature's file.
const SignatureMIME = "image/png"

// MaxSignatureBytes is the largest drawing a signature takes.
const MaxSignatureBytes = 512 << 10

// ProblemSignature: a signature's file is not a PNG of at most
// MaxSignatureBytes, or there is more than one.
const ProblemSignature = "invalidSignature"

// Signature is the value of a signature field as handlers.Bind fills it
// and hubform gen types it: the drawing, or the name typed in its place.
type Signature struct {
	// Drawing is the PNG drawn, nil when the name was typed.
	Drawing *Attachment
	// Name is the name typed, "" when a drawing was sent.
	Name string
}

// TakesFiles reports whether a field of the type takes files, as
// attachments of the field: a file field, a signature's drawing.
func (t *FieldType) TakesFiles() bool { return t.kind == filesValue || t.kind == signValue }

// CheckSignatureFile returns ProblemSignature unless a drawing of the
// given type and size is one a signature takes: a PNG, not empty, of at
// most MaxSignatureBytes. The app checks the file posted, the hub the
// attachment.
func CheckSignatureFile(mime string, size int64) string {
	mime, _, _ = strings.Cut(mime, ";")
	if !strings.EqualFold(strings.TrimSpace(mime), SignatureMIME) || size <= 0 || size > MaxSignatureBytes {
		return ProblemSignature
	}
	return ""
}

// checkSignature judges a signature's value: the typed name, a line of
// text, or the drawing, as Check sees files, a list of one file's name.
func checkSignature(f *Field, v any) string {
	switch v := v.(type) {
	case string:
		if utf8.RuneCountInString(v) > MaxLineLength {
			return ProblemTooLong
		}
		return ""
	case []string, []any:
		if itemCount(v) > 1 {
			return ProblemSignature
		}
		return ""
	}
	return ProblemNotText
}
