// Package bodylimit refuses request bodies declared longer than a limit,
// in a way a browser still sending one gets the answer.
package bodylimit

import (
	"io"
	"net/http"
	"strings"
	"time"
)

// Drain is how far past its limit a body declared too long is read and
// dropped before the answer, and DrainTime how long that may take.
const (
	Drain     = 16 << 20
	DrainTime = 10 * time.Second
)

// Over reports whether r's body is declared longer than limit. When it
// is, the connection is set to close after the answer, rather than take
// what is left of the body for the next request, and the body is not to
// be read. Up to Drain past the limit it is first read and dropped,
// unless the client asked to be told before it sends (Expect:
// 100-continue): a browser sends the whole body before it reads the
// answer, and a connection closed under what it is sending is reset, the
// answer lost with it. A longer body is not read at all.
func Over(w http.ResponseWriter, r *http.Request, limit int64) bool {
	if r.ContentLength <= limit {
		return false
	}
	w.Header().Set("Connection", "close")
	// An error means the connection takes no deadlines (HTTP/2), whose
	// streams need no close.
	rc := http.NewResponseController(w)
	if r.ContentLength-limit <= Drain && !strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		_ = rc.SetReadDeadline(time.Now().Add(DrainTime))
		io.Copy(io.Discard, r.Body)
		// Read to its end, the connection is watched for the client
		// going away: a deadline past would read as that, and cancel
		// the answer.
		_ = rc.SetReadDeadline(time.Time{})
	} else {
		_ = rc.SetReadDeadline(time.Now())
	}
	return true
}
