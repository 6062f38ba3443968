package localblob

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

func TestSignedURLShape(t *testing.T) {
	h := newTestHub(t, testSecret)
	raw, err := h.store.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if base := u.Scheme + "://" + u.Host + u.Path; base != h.putURL {
		t.Errorf("URL %s does not point at %s", raw, h.putURL)
	}
	q := u.Query()
	if len(q) != 4 || q.Get("obj") != testKey || q.Get("method") != http.MethodPut || q.Get("signature") == "" {
		t.Errorf("query %v, want obj, expiry, method=PUT and signature", q)
	}
	if exp, _ := strconv.ParseInt(q.Get("expiry"), 10, 64); exp != h.clock.Now().Add(10*time.Minute).Unix() {
		t.Errorf("expiry %s, want now + 10 minutes", q.Get("expiry"))
	}
}

func TestSignedPutURLExpiryBounds(t *testing.T) {
	h := newTestHub(t, testSecret)
	for _, d := range []time.Duration{0, -time.Second, MaxExpiry + time.Second, time.Hour} {
		if _, err := h.store.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, d); err == nil {
			t.Errorf("SignedPutURL with expiry %v: no error", d)
		}
	}
	for _, d := range []time.Duration{time.Second, MaxExpiry} {
		if _, err := h.store.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, d); err != nil {
			t.Errorf("SignedPutURL with expiry %v: %v", d, err)
		}
	}
}

// fileblobURLs are URLs that gocloud.dev's fileblob.URLSignerHMAC signed
// with testSecret for http://hub.example/v1/_uploads, expiring at
// fileblobExpiry: URLs of hub processes that kept files through it.
var fileblobURLs = []struct{ method, contentType, url string }{
	{http.MethodPut, "", "http://hub.example/v1/_uploads?expiry=4949455272&method=PUT&obj=uploads%2Facme%2Fcontact%2F0123456789abcdef01234567%2Freport.pdf&signature=JKqg_ERv8I3LHOLS648teYq85Lc3lYvlQvJRUiK2Nvw"},
	{http.MethodGet, "", "http://hub.example/v1/_uploads?expiry=4949455272&method=GET&obj=uploads%2Facme%2Fcontact%2F0123456789abcdef01234567%2Freport.pdf&signature=qSipz2uOdHliyY6UCzwC-_ViKvPlIjudopxt6t9pj7M"},
	{http.MethodPut, "image/png", "http://hub.example/v1/_uploads?contentType=image%2Fpng&expiry=4949455272&method=PUT&obj=uploads%2Facme%2Fcontact%2F0123456789abcdef01234567%2Freport.pdf&signature=g3BhrXqKSHvEq9MdU7_EZy-jEUZSuNAcGkMM2CKFVdU"},
	{http.MethodGet, "image/png", "http://hub.example/v1/_uploads?contentType=image%2Fpng&expiry=4949455272&method=GET&obj=uploads%2Facme%2Fcontact%2F0123456789abcdef01234567%2Freport.pdf&signature=WctkXuq7F8yohmOWFAwKdayOii-G8houPz6hNCsUgEk"},
}

const fileblobExpiry = 4949455272

// TestSignerMatchesFileblob checks that the signer makes the URLs of
// fileblob.URLSignerHMAC byte for byte and verifies them, so that hub
// processes signing with either take each other's URLs.
func TestSignerMatchesFileblob(t *testing.T) {
	const key = "uploads/acme/contact/0123456789abcdef01234567/report.pdf"
	base, _ := url.Parse("http://hub.example/v1/_uploads")
	now := time.Unix(fileblobExpiry, 0).Add(-time.Minute)
	ours := &signer{base: *base, secret: testSecret, now: func() time.Time { return now }}
	for _, f := range fileblobURLs {
		if got := ours.sign(key, f.method, f.contentType, time.Minute); got != f.url {
			t.Errorf("signed %s %q:\n%s\nwant fileblob's\n%s", f.method, f.contentType, got, f.url)
		}
		u, _ := url.Parse(f.url)
		su, err := ours.verify(u.Query())
		if err != nil || su.key != key || su.method != f.method || su.contentType != f.contentType || su.expiry.Unix() != fileblobExpiry {
			t.Errorf("fileblob's URL %s: %+v, error %v", f.url, su, err)
		}
	}
	// A byte changed in the secret refuses them all.
	other := append([]byte(nil), testSecret...)
	other[0] ^= 1
	theirs := &signer{base: *base, secret: other, now: ours.now}
	for _, f := range fileblobURLs {
		u, _ := url.Parse(f.url)
		if _, err := theirs.verify(u.Query()); err != errBadSignature {
			t.Errorf("fileblob's URL %s under another secret: %v, want %v", f.url, err, errBadSignature)
		}
	}
}

func TestTamperedURL(t *testing.T) {
	tests := []struct {
		name   string
		change func(q url.Values)
		want   string
	}{
		{"key", func(q url.Values) { q.Set("obj", testKey+"2") }, "invalid"},
		{"key prefix", func(q url.Values) { q.Set("obj", "uploads/acme/contact/other/report.pdf") }, "invalid"},
		{"expiry later", func(q url.Values) {
			exp, _ := strconv.ParseInt(q.Get("expiry"), 10, 64)
			q.Set("expiry", strconv.FormatInt(exp+3600, 10))
		}, "invalid"},
		{"expiry earlier", func(q url.Values) {
			exp, _ := strconv.ParseInt(q.Get("expiry"), 10, 64)
			q.Set("expiry", strconv.FormatInt(exp-3600, 10))
		}, "invalid"},
		{"expiry not a number", func(q url.Values) { q.Set("expiry", "soon") }, "invalid"},
		{"signature", func(q url.Values) {
			sig := []byte(q.Get("signature"))
			sig[0] ^= 1
			q.Set("signature", string(sig))
		}, "invalid"},
		{"signature empty", func(q url.Values) { q.Set("signature", "") }, "not signed"},
		{"signature missing", func(q url.Values) { q.Del("signature") }, "not signed"},
		{"method", func(q url.Values) { q.Set("method", http.MethodGet) }, "invalid"},
		{"content type added", func(q url.Values) { q.Set("contentType", "application/pdf") }, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHub(t, testSecret)
			raw := h.expect(t, testKey, "application/pdf", 3)
			h.expect(t, testKey+"2", "application/pdf", 3)
			h.expect(t, "uploads/acme/contact/other/report.pdf", "application/pdf", 3)
			u, _ := url.Parse(raw)
			q := u.Query()
			tt.change(q)
			u.RawQuery = q.Encode()
			wantRefusal(t, put(t, u.String(), "application/pdf", 3, []byte("abc")), http.StatusForbidden, tt.want)
			if left := files(t, h.dir); len(left) > 0 {
				t.Errorf("directory holds %q", left)
			}
		})
	}
}

// TestURLNotForPut refuses a URL correctly signed for another method.
func TestURLNotForPut(t *testing.T) {
	h := newTestHub(t, testSecret)
	h.expect(t, testKey, "application/pdf", 3)
	u := h.store.signer.sign(testKey, http.MethodGet, "", time.Minute)
	wantRefusal(t, put(t, u, "application/pdf", 3, []byte("abc")), http.StatusForbidden, "not signed for PUT")
}

// TestSignedContentType holds a client to the type a URL was signed with,
// for URLs signed with one, as fileblob's signer could.
func TestSignedContentType(t *testing.T) {
	h := newTestHub(t, testSecret)
	h.expect(t, testKey, "application/pdf", 3)
	base, _ := url.Parse(h.putURL)
	u := (&signer{base: *base, secret: testSecret, now: h.clock.Now}).sign(testKey, http.MethodPut, "image/png", time.Minute)
	wantRefusal(t, put(t, u, "application/pdf", 3, []byte("abc")), http.StatusUnsupportedMediaType, "signed type")
}

func TestOtherStoreSecret(t *testing.T) {
	h := newTestHub(t, testSecret)
	h.uploads.put(hub.Upload{Key: testKey, MIME: "text/plain", Size: 3})

	other := []byte("another secret of at least 32 bytes!")
	foreign, err := Open(context.Background(), t.TempDir(), h.putURL, other)
	if err != nil {
		t.Fatal(err)
	}
	defer foreign.Close()
	u, err := foreign.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, put(t, u, "text/plain", 3, []byte("abc")), http.StatusForbidden, "signature is invalid")

	// A second hub process: its own directory, the same secret.
	peer, err := Open(context.Background(), t.TempDir(), h.putURL, testSecret)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	u, err = peer.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	res := put(t, u, "text/plain", 3, []byte("abc"))
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("URL of a Store with the same secret: status %d, want 200", res.StatusCode)
	}
	if size, _, err := h.store.Attributes(context.Background(), testKey); err != nil || size != 3 {
		t.Errorf("Attributes = %d, %v; want 3, nil", size, err)
	}
}
