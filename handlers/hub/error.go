package hub

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/hubform/hubform/hubclient"
)

// Error is a request that fails with a known answer: its HTTP status, a
// message for people and, when values break a form's rules, a message per
// field. Handlers return it and write nothing; each surface's one error
// handler writes it in the surface's shape: JSON for the protocol and the
// admin API, a page or a fragment for the console. Err is the cause, for
// the log: it is never answered.
type Error struct {
	Status  int
	Message string
	Fields  map[string]string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of status whose message is formatted.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Internal returns a 500 *Error that says what failed and keeps err, the
// cause, for the log; or, when err is the storage's being full
// (ErrStorageFull), a 507 that says so (hubclient.StorageFull), which a
// client may tell people and retry later.
func Internal(what string, err error) *Error {
	if errors.Is(err, ErrStorageFull) {
		return storageFull(err)
	}
	return &Error{Status: http.StatusInternalServerError, Message: what + ": internal error", Err: err}
}

// AsError returns the *Error in err's chain, or for any other error a 500
// "internal error" that keeps it (a 507 for ErrStorageFull, as Internal).
func AsError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	if errors.Is(err, ErrStorageFull) {
		return storageFull(err)
	}
	return &Error{Status: http.StatusInternalServerError, Message: "internal error", Err: err}
}

// storageFull is the answer to a write the storage had no room for.
func storageFull(err error) *Error {
	return &Error{Status: http.StatusInsufficientStorage, Message: hubclient.StorageFull + ": nothing was stored; try again later", Err: err}
}

// IsTimeout reports whether err is a read that ran past its deadline.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
