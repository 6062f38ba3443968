package hub

import (
	"context"
	"errors"
	"net/http"

	"github.com/hubform/hubform/hubclient"
)

// errClosed is the answer to a submission for a form that takes no more.
var errClosed = &Error{Status: http.StatusForbidden, Message: hubclient.ErrorClosed}

// checkOpen refuses a submission for a form past its closing time.
func (s *Server) checkOpen(ctx context.Context, form *Form) error {
	if at := form.Settings.ClosesAt; at != nil && !s.cfg.Now().Before(*at) {
		return errClosed
	}
	return nil
}

// limitsOf returns what the store enforces while storing a submission of
// form with payload.
func limitsOf(form *Form, payload map[string]any) Limits {
	return Limits{MaxSubmissions: form.Settings.MaxSubmissions}
}

// duplicate returns the answer to a submission refused for the value of a
// unique field, err being the store's *DuplicateError.
func duplicate(form *Form, err error) *Error {
	dup, _ := errors.AsType[*DuplicateError](err)
	field := ""
	if dup != nil {
		field = dup.Field
	}
	return &Error{Status: http.StatusConflict, Message: "a submission with this value was already sent", Fields: map[string]string{field: "This was already sent: each person may send the form once."}}
}
