package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// errClosed is the answer to a submission for a form that takes no more.
var errClosed = &hub.Error{Status: http.StatusForbidden, Message: hubclient.ErrorClosed}

// checkOpen refuses a submission for a form past its closing time or
// holding its number of submissions, before the submission is read
// further. The count is read without a lock: the store checks it again,
// exactly, as it stores the submission.
func (s *Server) checkOpen(ctx context.Context, form *hub.Form) error {
	closed, err := s.closed(ctx, form)
	switch {
	case err != nil:
		return hub.Internal("counting the form's submissions", err)
	case closed:
		return errClosed
	}
	return nil
}

// closed reports whether form takes no more submissions: past its closing
// time, or holding its MaxSubmissions. Only a form with a maximum costs a
// query, bounded by that maximum.
func (s *Server) closed(ctx context.Context, form *hub.Form) (bool, error) {
	st := form.Settings
	if st.ClosesAt != nil && !s.cfg.Now().Before(*st.ClosesAt) {
		return true, nil
	}
	if st.MaxSubmissions <= 0 {
		return false, nil
	}
	return s.cfg.Store.FormFull(ctx, form.Site, form.Slug, st.MaxSubmissions)
}

// limitsOf returns what the store enforces while storing a submission of
// form with payload: its maximum, and the normalised values of its unique
// fields. A unique field left empty is not checked: many people may leave
// an optional field out.
func limitsOf(form *hub.Form, payload map[string]any) hub.Limits {
	l := hub.Limits{MaxSubmissions: form.Settings.MaxSubmissions}
	seen := make(map[string]bool, len(form.Settings.UniqueFields))
	for _, name := range form.Settings.UniqueFields {
		f := form.Schema.Field(name)
		if f == nil || seen[name] {
			continue
		}
		seen[name] = true
		if v := uniqueValue(f, payload[name]); v != "" {
			l.Unique = append(l.Unique, hub.UniqueValue{Field: name, Value: v})
		}
	}
	return l
}

// uniqueValue returns v as the store compares it for field f: trimmed, an
// e-mail address lower-cased (people type their address in any case and
// mean the same mailbox), a number in one spelling ("1.50" is 1.5). It
// returns "" for an empty value, or one of a shape no unique field takes.
func uniqueValue(f *hubclient.Field, v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = strings.TrimSpace(v)
	case float64:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return ""
	}
	switch f.Type {
	case hubclient.FieldEmail:
		s = strings.ToLower(s)
	case hubclient.FieldNumber:
		if n, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
			s = strconv.FormatFloat(n, 'g', -1, 64)
		}
	}
	return s
}

// duplicate returns the answer to a submission refused for the value of a
// unique field, err being the store's *DuplicateError: 409, with the
// error beside the field, in words the person who sent it understands.
func duplicate(form *hub.Form, err error) *hub.Error {
	dup, _ := errors.AsType[*hub.DuplicateError](err)
	if dup == nil || dup.Field == "" {
		return &hub.Error{Status: http.StatusConflict, Message: "this form was already sent with these values", Err: err}
	}
	what, message := "this value", "This value has already been sent with this form, which takes it only once."
	if f := form.Schema.Field(dup.Field); f != nil {
		if f.Type == hubclient.FieldEmail {
			what, message = "this e-mail address", "This e-mail address has already been used to send this form. Each address may send it once."
		} else if f.Label != "" {
			what = "this " + strings.ToLower(f.Label)
		}
	}
	return &hub.Error{
		Status:  http.StatusConflict,
		Message: fmt.Sprintf("already sent: a submission with %s was received before", what),
		Fields:  map[string]string{dup.Field: message},
		Err:     err,
	}
}
