package hubclient

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"
)

// The literal prefixes of PROTOCOL.md §7. Callers that show an error to a person
// may rely on them; tests and logs may match them.
const (
	PrefixSchema    = "schema fetch failed: "
	PrefixUploadURL = "upload-url failed: "
	PrefixUpload    = "upload PUT to R2 failed: "
	PrefixSubmit    = "submit failed: "
	// QuotaReached begins the error of a hub that refuses a submission
	// with 429 because the form's owner reached their quota, rather than
	// because the client sent too much (PROTOCOL.md §7).
	QuotaReached = "quota reached"
	// StorageFull begins the error of a hub that answers 507 because its
	// database or file storage has no room left: nothing was stored, and
	// the same request may succeed later (PROTOCOL.md §7).
	StorageFull = "storage is full"
)

// HubError is an answer of a hub, or of the storage behind a presigned URL,
// that is not a success: a status outside 2xx, or a 2xx whose body says
// "ok": false.
type HubError struct {
	Method string
	// URL is the address asked, without its query: presigned URLs carry
	// credentials in the query.
	URL        string
	StatusCode int
	// Message is the hub's "error" member when it sent one.
	Message string
	// Fields holds the hub's per-field messages, keyed by field name.
	Fields map[string]string
	// Body is the start of the answer's body, for diagnosis.
	Body string
}

func (e *HubError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	switch {
	case e.Message != "":
		b.WriteString(": ")
		b.WriteString(e.Message)
	case e.Body != "":
		b.WriteString(": ")
		b.WriteString(e.Body)
	}
	if len(e.Fields) > 0 {
		names := make([]string, 0, len(e.Fields))
		for name := range e.Fields {
			names = append(names, name)
		}
		sort.Strings(names)
		b.WriteString(" (")
		for i, name := range names {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(name + ": " + e.Fields[name])
		}
		b.WriteString(")")
	}
	return b.String()
}

// SchemaError is a failed fetch of the schema route.
type SchemaError struct{ Err error }

func (e *SchemaError) Error() string { return PrefixSchema + e.Err.Error() }
func (e *SchemaError) Unwrap() error { return e.Err }

// UploadURLError is a failed call of the upload-url route for one file.
type UploadURLError struct {
	Filename string
	Err      error
}

func (e *UploadURLError) Error() string {
	return PrefixUploadURL + quoteName(e.Filename) + e.Err.Error()
}
func (e *UploadURLError) Unwrap() error { return e.Err }

// UploadError is a failed PUT of one file to its presigned URL.
type UploadError struct {
	Filename string
	Err      error
}

func (e *UploadError) Error() string { return PrefixUpload + quoteName(e.Filename) + e.Err.Error() }
func (e *UploadError) Unwrap() error { return e.Err }

// SubmitError is a failed or refused call of the submit route, or a
// submission that could not be prepared.
type SubmitError struct{ Err error }

func (e *SubmitError) Error() string { return PrefixSubmit + e.Err.Error() }
func (e *SubmitError) Unwrap() error { return e.Err }

func quoteName(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf("%q: ", name)
}

// excerpt returns the start of a body as one printable line.
func excerpt(body []byte, max int) string {
	if len(body) > max {
		body = body[:max]
		for len(body) > 0 && !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "")), " ")
	if len(body) == max {
		s += "…"
	}
	return s
}

// ErrFormClosed matches, with errors.Is, a hub's refusal of a submission
// for a form that takes no more: 403 with the error ErrorClosed.
var ErrFormClosed = errors.New("the form is closed")

// ErrDuplicate matches, with errors.Is, a hub's refusal of a submission
// whose value of a unique field was already sent: 409 with a message for
// that field in Fields.
var ErrDuplicate = errors.New("a value was already sent")

// Is reports whether e is the refusal target names: ErrFormClosed or
// ErrDuplicate.
func (e *HubError) Is(target error) bool {
	switch target {
	case ErrFormClosed:
		return e.StatusCode == http.StatusForbidden && e.Message == ErrorClosed
	case ErrDuplicate:
		return e.StatusCode == http.StatusConflict && len(e.Fields) > 0
	}
	return false
}
