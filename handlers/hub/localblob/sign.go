package localblob

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Query members of a signed URL, named as gocloud.dev's
// fileblob.URLSignerHMAC named them.
const (
	queryKey         = "obj"
	queryExpiry      = "expiry"
	queryMethod      = "method"
	queryContentType = "contentType"
	querySignature   = "signature"
	// A part's URL (see Store.StartParts) signs three more.
	queryPart    = "part"
	queryPartsID = "upload"
	queryOffset  = "offset"
	queryLength  = "length"
)

// partMembers are the query members a part's URL signs besides the others.
var partMembers = []string{queryPart, queryPartsID, queryOffset, queryLength}

// Reasons a URL is refused; their texts are shown to the client.
var (
	errUnsigned     = errors.New("upload URL is not signed")
	errBadSignature = errors.New("upload URL signature is invalid")
	errExpired      = errors.New("upload URL has expired")
)

// signer makes and checks URLs in the form of gocloud.dev's
// fileblob.URLSignerHMAC, byte for byte: earlier versions of the store
// signed with that one, and hub processes of either version take each
// other's URLs. Unlike that signer it reads
// now rather than the wall clock, and tells a forged URL from an expired
// one, checking the MAC first so that "expired" is said only of URLs the
// hub did sign.
type signer struct {
	base   url.URL
	secret []byte
	now    func() time.Time
}

// signedURL is what a verified URL grants.
type signedURL struct {
	key, method string
	// contentType is empty unless the URL was signed with one.
	contentType string
	expiry      time.Time
	// part, from 1, is the part of upload partsID the URL takes: length
	// bytes from offset on. Zero for a URL of the whole file.
	part           int
	partsID        string
	offset, length int64
}

// sign returns the URL for method on key that expires after expiry; a
// contentType other than "" is signed too, and binds the request's.
func (g *signer) sign(key, method, contentType string, expiry time.Duration) string {
	q := url.Values{queryKey: {key}, queryMethod: {method}}
	if contentType != "" {
		q.Set(queryContentType, contentType)
	}
	return g.url(q, expiry)
}

// url returns the endpoint's URL with the query q, which it signs with an
// expiry of expiry from now.
func (g *signer) url(q url.Values, expiry time.Duration) string {
	q.Set(queryExpiry, strconv.FormatInt(g.now().Add(expiry).Unix(), 10))
	q.Set(querySignature, g.mac(q))
	u := g.base
	u.RawQuery = q.Encode()
	return u.String()
}

// verify checks the MAC of a signed URL's query, then its expiry.
func (g *signer) verify(q url.Values) (signedURL, error) {
	sig := q.Get(querySignature)
	if sig == "" || q.Get(queryKey) == "" || q.Get(queryExpiry) == "" {
		return signedURL{}, errUnsigned
	}
	if !hmac.Equal([]byte(sig), []byte(g.mac(q))) {
		return signedURL{}, errBadSignature
	}
	exp, err := strconv.ParseInt(q.Get(queryExpiry), 10, 64)
	if err != nil {
		// Only a holder of the secret can have signed this.
		return signedURL{}, errBadSignature
	}
	// The expiry second itself is still valid, as with fileblob.
	if g.now().Unix() > exp {
		return signedURL{}, errExpired
	}
	su := signedURL{
		key:         q.Get(queryKey),
		method:      q.Get(queryMethod),
		contentType: q.Get(queryContentType),
		expiry:      time.Unix(exp, 0),
	}
	if q.Has(queryPart) {
		part, perr := strconv.Atoi(q.Get(queryPart))
		offset, oerr := strconv.ParseInt(q.Get(queryOffset), 10, 64)
		length, lerr := strconv.ParseInt(q.Get(queryLength), 10, 64)
		if perr != nil || oerr != nil || lerr != nil || part < 1 || offset < 0 || length < 0 || q.Get(queryPartsID) == "" {
			return signedURL{}, errBadSignature // signed so by the secret's holder alone
		}
		su.part, su.partsID, su.offset, su.length = part, q.Get(queryPartsID), offset, length
	}
	return su, nil
}

// partURL returns the URL of part (from 1) of the upload partsID of key,
// length bytes from offset on, that expires after expiry.
func (g *signer) partURL(key, partsID string, part int, length int64, expiry time.Duration, offset int64) string {
	return g.url(url.Values{
		queryKey:     {key},
		queryMethod:  {http.MethodPut},
		queryPart:    {strconv.Itoa(part)},
		queryPartsID: {partsID},
		queryOffset:  {strconv.FormatInt(offset, 10)},
		queryLength:  {strconv.FormatInt(length, 10)},
	}, expiry)
}

// mac is fileblob.URLSignerHMAC's MAC, over a part's members too:
// HMAC-SHA256 over the query encoding of the signed members, unpadded
// base64url.
func (g *signer) mac(q url.Values) string {
	signed := url.Values{}
	signed.Set(queryKey, q.Get(queryKey))
	signed.Set(queryExpiry, q.Get(queryExpiry))
	signed.Set(queryMethod, q.Get(queryMethod))
	if ct := q.Get(queryContentType); ct != "" {
		signed.Set(queryContentType, ct)
	}
	if q.Has(queryPart) {
		for _, m := range partMembers {
			signed.Set(m, q.Get(m))
		}
	}
	h := hmac.New(sha256.New, g.secret)
	h.Write([]byte(signed.Encode()))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
