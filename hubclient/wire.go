package hubclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// DefaultHubURL is the hub used when none is given: the hosted hub's
// endpoint base, without a trailing slash. Its last path segment, /v1, is
// the protocol version (PROTOCOL.md §9); a hub speaking a later version of the
// protocol is reached under another segment, never by changing this one.
const DefaultHubURL = "https://hub.hubform.dev/v1"

// UploadURLRequest is the body of the upload-url route (PROTOCOL.md §2.3).
type UploadURLRequest struct {
	Filename string `json:"filename"`
	// Size is the file's length in bytes.
	Size int64  `json:"size"`
	MIME string `json:"mime"`
	// Parts says the client can send the file in parts (PROTOCOL.md §10):
	// a hub that offers them may then answer Parts instead of UploadURL.
	// It is an extension of the protocol: hubs that do not know it ignore
	// it and answer one URL.
	Parts bool `json:"parts,omitempty"`
}

// UploadURLResponse is the answer of the upload-url route (PROTOCOL.md §2.4).
type UploadURLResponse struct {
	OK bool `json:"ok"`
	// UploadURL is the presigned address the file body is PUT to; empty
	// when the hub answered Parts.
	UploadURL string `json:"uploadUrl,omitempty"`
	// Key is the object-storage key of the file, named again in the
	// attachment that refers to it.
	Key string `json:"key"`
	// Parts, answered only to a request with Parts, has the file sent in
	// parts and completed with the upload-complete route.
	Parts *UploadParts `json:"parts,omitempty"`
}

// UploadParts is how a file goes in parts (PROTOCOL.md §10): part n, from
// 1, is the bytes from (n-1)×PartSize on, PartSize of them or what is left,
// PUT to URLs[n-1]; each PUT answers the part's ETag header, which the
// upload-complete route is given back.
type UploadParts struct {
	UploadID string   `json:"uploadId"`
	PartSize int64    `json:"partSize"`
	URLs     []string `json:"urls"`
}

// Count returns how many parts a file of size bytes makes: at least one.
func (p *UploadParts) Count(size int64) int {
	if p.PartSize <= 0 || size <= p.PartSize {
		return 1
	}
	return int((size + p.PartSize - 1) / p.PartSize)
}

// UploadPartsRequest is the body of the upload-parts route (PROTOCOL.md
// §10): the upload in parts whose URLs are to be signed again.
type UploadPartsRequest struct {
	Key      string `json:"key"`
	UploadID string `json:"uploadId"`
}

// CompleteUploadRequest is the body of the upload-complete route
// (PROTOCOL.md §10): every part of the upload, in order.
type CompleteUploadRequest struct {
	Key      string         `json:"key"`
	UploadID string         `json:"uploadId"`
	Parts    []UploadedPart `json:"parts"`
}

// UploadedPart is a part a PUT stored.
type UploadedPart struct {
	// Number counts from 1.
	Number int `json:"number"`
	// ETag is the part's ETag header, as answered, quotes included.
	ETag string `json:"etag"`
}

// Attachment describes an uploaded file in the submit body (PROTOCOL.md §2.5).
type Attachment struct {
	Key      string `json:"key"`
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	MIME     string `json:"mime"`
	// Field names the form field the file was chosen in. It is an
	// extension of the protocol: hubs that do not know it ignore it.
	Field string `json:"field,omitempty"`
}

// SubmitRequest is the body of the submit route (PROTOCOL.md §2.6).
//
// Honeypots are sent as top-level members named after their field ("_hp",
// "_hp_company"), not inside the payload.
type SubmitRequest struct {
	Payload      map[string]any `json:"payload"`
	Attachments  []Attachment   `json:"attachments,omitempty"`
	CaptchaToken string         `json:"captchaToken,omitempty"`
	// IdempotencyKey makes a repeated send of one submission count once:
	// a hub that keeps keys answers a submission whose key it already
	// stored for the form with that submission's id and stores nothing.
	// A form carries one key per rendering (IdempotencyKeyField), so a
	// double click or a retry after a lost answer repeats it. It is an
	// extension of the protocol: hubs that do not know it ignore it. Empty
	// means none; see CheckIdempotencyKey for what a key may be.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// Locale is the locale the visitor used, for the hub's e-mail to them.
	// An extension of the protocol: hubs that do not know it ignore it.
	Locale string `json:"locale,omitempty"`
	// Timing is how long the visitor had the form, as the app that
	// rendered it measured. An extension of the protocol: hubs that do not
	// know it ignore it; nil means the client does not say.
	Timing *Timing `json:"timing,omitempty"`
	// Draft is the token of the draft the submission finishes (PROTOCOL.md
	// §10, "Drafts"): a hub that keeps drafts deletes it once the
	// submission is stored. An extension of the protocol: hubs that do not
	// know it ignore it.
	Draft     string            `json:"draft,omitempty"`
	Honeypots map[string]string `json:"-"`
}

// submitRequestBody is SubmitRequest without its JSON methods: the
// members other than the honeypots.
type submitRequestBody SubmitRequest

// Timing is the time-trap signal of a submission: how many seconds passed
// between the rendering of the form and its post, measured by the app from
// a stamp it signed into the form.
type Timing struct {
	// Stamp is StampValid, StampMissing or StampInvalid.
	Stamp string `json:"stamp"`
	// Seconds is the time from rendering to post, when Stamp is
	// StampValid.
	Seconds float64 `json:"seconds,omitempty"`
}

// Values of Timing.Stamp.
const (
	// StampValid: the post carried the stamp the app signed.
	StampValid = "valid"
	// StampMissing: the post carried no stamp; it was not sent from a
	// form the app rendered.
	StampMissing = "missing"
	// StampInvalid: the post carried a stamp the app did not sign.
	StampInvalid = "invalid"
)

// ErrorClosed is the error of a hub's answer to a submission for a form
// that takes no more: past its closing time or its number of submissions
// (403, {"ok": false, "error": "closed"}).
const ErrorClosed = "closed"

// MaxIdempotencyKeyLength is the longest idempotency key, in bytes.
const MaxIdempotencyKeyLength = 128

// CheckIdempotencyKey reports why key cannot be an idempotency key: it is
// longer than MaxIdempotencyKeyLength or holds a byte that is not
// printable ASCII (space to tilde). The empty key, meaning none, is fine.
func CheckIdempotencyKey(key string) error {
	if len(key) > MaxIdempotencyKeyLength {
		return fmt.Errorf("idempotency key of %d bytes is longer than %d", len(key), MaxIdempotencyKeyLength)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < ' ' || key[i] > '~' {
			return fmt.Errorf("idempotency key holds byte %#02x at %d; only printable ASCII is allowed", key[i], i)
		}
	}
	return nil
}

// MarshalJSON writes the honeypots as top-level members and an absent
// payload as {}.
func (r SubmitRequest) MarshalJSON() ([]byte, error) {
	body := submitRequestBody(r)
	if body.Payload == nil {
		body.Payload = map[string]any{}
	}
	data, err := json.Marshal(body)
	if err != nil || len(r.Honeypots) == 0 {
		return data, err
	}
	names := make([]string, 0, len(r.Honeypots))
	for name := range r.Honeypots {
		if !IsHoneypot(name) {
			return nil, fmt.Errorf("honeypot %q: name must start with _hp", name)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	buf.Write(data[:len(data)-1])
	for _, name := range names {
		k, _ := json.Marshal(name)
		v, _ := json.Marshal(r.Honeypots[name])
		buf.WriteByte(',')
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ErrNoPayload is returned when a submit body has no payload object.
var ErrNoPayload = errors.New("payload: missing or not an object")

// UnmarshalJSON reads a submit body as a hub receives it: payload must be an
// object, top-level "_hp*" members are honeypots (a non-string honeypot is
// an error), other unknown members are ignored.
func (r *SubmitRequest) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	raw, ok := members["payload"]
	if !ok || len(raw) == 0 || raw[0] != '{' {
		return ErrNoPayload
	}
	var body submitRequestBody
	if err := json.Unmarshal(data, &body); err != nil {
		return err
	}
	*r = SubmitRequest(body)
	for name, value := range members {
		if !IsHoneypot(name) {
			continue
		}
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return fmt.Errorf("honeypot %q: not a string", name)
		}
		if r.Honeypots == nil {
			r.Honeypots = make(map[string]string)
		}
		r.Honeypots[name] = s
	}
	return nil
}

// SubmitResponse is the answer of the submit route (PROTOCOL.md §2.7). A hub that
// refuses a submission answers OK false with Error and, where they apply,
// per-field messages in Fields.
type SubmitResponse struct {
	OK           bool              `json:"ok"`
	SubmissionID string            `json:"submissionId,omitempty"`
	Error        string            `json:"error,omitempty"`
	Fields       map[string]string `json:"fields,omitempty"`
	// Ending is the id of the form's ending the submission reached, as the
	// hub decided it from the values it stored (PROTOCOL.md §10,
	// "Endings"); empty for none, the thank-you panel, or a hub that does
	// not know endings.
	Ending string `json:"ending,omitempty"`
	// Score is the form's score for the submission, the value of its
	// calculation named "score" as the hub worked it out, sent for a quiz
	// (Schema.Quiz) alone (PROTOCOL.md §10, "Calculations"); nil when there
	// is none, or it could not be worked out.
	Score *float64 `json:"score,omitempty"`
	// Answers say, for a quiz that shows its answers (Quiz.ShowAnswers),
	// whether each question with a correct option was answered right, by
	// field name; a question hidden by the conditions is left out.
	Answers map[string]bool `json:"answers,omitempty"`
	// Attachments are the files the submission carried, as sent: set by
	// the submit pipeline (Submitter.Submit), not read from the hub's answer.
	Attachments []Attachment `json:"-"`
}
