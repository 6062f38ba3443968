package handlers

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// stamper signs the time a form is rendered into it (components.StampField)
// and reads it back from a post: the time trap, which tells the hub how
// long the visitor had the form. A bot posting at once, or replaying an old
// page, is told apart from a person; the hub decides what is too quick or
// too old.
type stamper struct {
	key []byte
	now func() time.Time
}

// newStamper returns a stamper signing with key, or with a random key when
// key is empty.
func newStamper(key []byte) stamper {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return stamper{key: key, now: time.Now}
}

// stamp returns the stamp of form f rendered now: the time in Unix
// milliseconds, a dot, and the signature.
func (s stamper) stamp(f Form) string {
	ms := strconv.FormatInt(s.now().UnixMilli(), 10)
	return ms + "." + base64.RawURLEncoding.EncodeToString(s.sign(f, ms))
}

// sign returns the signature of form f's stamp at time ms.
func (s stamper) sign(f Form, ms string) []byte {
	return s.mac("hubform stamp", f.Site, f.Slug, ms)
}

// mac returns the HMAC-SHA256 of parts, the first of which names what is
// signed. Each part goes with its length, so that no other parts give the
// same input.
func (s stamper) mac(parts ...string) []byte {
	m := hmac.New(sha256.New, s.key)
	for _, part := range parts {
		m.Write([]byte(strconv.Itoa(len(part)) + ":" + part))
	}
	return m.Sum(nil)
}

// timing reads the stamp a post of form f carried: hubclient.StampMissing
// without one, StampInvalid when this app did not sign it for f, else
// StampValid with the seconds since it was signed (none for a stamp from
// a clock a little ahead).
func (s stamper) timing(f Form, stamp string) hubclient.Timing {
	if stamp == "" {
		return hubclient.Timing{Stamp: hubclient.StampMissing}
	}
	invalid := hubclient.Timing{Stamp: hubclient.StampInvalid}
	ms, sig, ok := strings.Cut(stamp, ".")
	if !ok {
		return invalid
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return invalid
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.sign(f, ms)) {
		return invalid
	}
	seconds := s.now().Sub(time.UnixMilli(n)).Seconds()
	return hubclient.Timing{Stamp: hubclient.StampValid, Seconds: max(seconds, 0)}
}
