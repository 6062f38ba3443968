package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// failureText returns the key of the built-in text (components.Texts) that
// tells a visitor why a submission failed. The visitor never reads the
// error itself: it names the hub's address and the hub's own words, which
// go to the log and to OnError.
func failureText(err error) string {
	var hubErr *hubclient.HubError
	answered := errors.As(err, &hubErr)
	var uploadURL *hubclient.UploadURLError
	var upload *hubclient.UploadError
	switch {
	case answered && hubErr.StatusCode == http.StatusTooManyRequests && strings.HasPrefix(hubErr.Message, hubclient.QuotaReached):
		return "quotaReached"
	case answered && hubErr.StatusCode == http.StatusTooManyRequests:
		return "tooMany"
	case answered && hubErr.StatusCode == http.StatusInsufficientStorage:
		return "storageFull"
	case errors.Is(err, hubclient.ErrNoCaptchaToken):
		return "captchaFailed"
	case !answered || hubErr.StatusCode >= 500:
		// Not reached, or failing itself: nothing the visitor can change.
		if answered && (errors.As(err, &uploadURL) || errors.As(err, &upload)) {
			return "uploadFailed"
		}
		return "hubUnavailable"
	case errors.As(err, &uploadURL), errors.As(err, &upload):
		return "fileRefused"
	case len(hubErr.Fields) > 0:
		return "checkFields"
	case hubErr.StatusCode == http.StatusForbidden:
		return "captchaFailed"
	}
	return "submitRefused"
}

// refusalStatus returns the status a route of the browser's answers for
// err from the hub: the hub's own when it refused (4xx), 502 when it
// failed or was not reached.
func refusalStatus(err error) int {
	var hubErr *hubclient.HubError
	if errors.As(err, &hubErr) && hubErr.StatusCode < 500 {
		return hubErr.StatusCode
	}
	return http.StatusBadGateway
}
