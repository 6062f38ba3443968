package protocol_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// partsForm takes files of up to 1 MiB, which its hub sends in parts of
// partSize.
const (
	partsForm = `{
  "fields": [{"name": "video", "type": "file"}],
  "steps": [{"id": "main", "fields": ["video"]}],
  "hub": {"maxFileSize": 1048576}
}`
	partSize = 64 << 10
)

// newPartsHarness serves partsForm as acme/big from a hub whose parts are
// of partSize bytes.
func newPartsHarness(t *testing.T, options ...func(*protocol.Config)) *harness {
	h := newHarness(t, append([]func(*protocol.Config){func(c *protocol.Config) { c.UploadPartSize = partSize }}, options...)...)
	h.WriteForm("acme", "big", partsForm)
	return h
}

// startParts asks form big for an upload of body in parts.
func (h *harness) startParts(body []byte) hubclient.UploadURLResponse {
	h.t.Helper()
	res := h.postJSON("/v1/acme/big/upload-url", hubclient.UploadURLRequest{Filename: "v.mp4", Size: int64(len(body)), MIME: "video/mp4", Parts: true})
	res.wantStatus(h.t, http.StatusOK)
	var u hubclient.UploadURLResponse
	if err := json.Unmarshal(res.body, &u); err != nil {
		h.t.Fatalf("upload-url answer %s: %v", res.body, err)
	}
	if u.Parts == nil {
		h.t.Fatalf("upload-url answer %s: no parts", res.body)
	}
	return u
}

// putPart sends part n (from 1) of body to its URL and returns its ETag.
func (h *harness) putPart(u hubclient.UploadURLResponse, body []byte, n int) string {
	h.t.Helper()
	start := int64(n-1) * u.Parts.PartSize
	end := min(start+u.Parts.PartSize, int64(len(body)))
	res := h.put(u.Parts.URLs[n-1], "", body[start:end])
	res.wantStatus(h.t, http.StatusOK)
	etag := res.header.Get("ETag")
	if etag == "" {
		h.t.Fatalf("part %d: no ETag", n)
	}
	return etag
}

func (h *harness) completeParts(u hubclient.UploadURLResponse, etags []string) *response {
	h.t.Helper()
	req := hubclient.CompleteUploadRequest{Key: u.Key, UploadID: u.Parts.UploadID}
	for i, e := range etags {
		req.Parts = append(req.Parts, hubclient.UploadedPart{Number: i + 1, ETag: e})
	}
	return h.postJSON("/v1/acme/big/upload-complete", req)
}

func randomFile(t *testing.T, n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func TestFilesInParts(t *testing.T) {
	h := newPartsHarness(t)
	body := randomFile(t, 5*partSize+123)
	u := h.startParts(body)
	if u.UploadURL != "" || u.Parts.PartSize != partSize || len(u.Parts.URLs) != 6 {
		t.Fatalf("answer %+v %+v, want 6 parts of %d and no uploadUrl", u, u.Parts, partSize)
	}
	// Sent out of order, one twice, as a client retrying after a cut.
	etags := make([]string, 6)
	for _, n := range []int{3, 1, 6, 2, 5, 4, 3} {
		etags[n-1] = h.putPart(u, body, n)
	}
	h.completeParts(u, etags).wantOK(t)
	// Asked again, as after a lost answer.
	h.completeParts(u, etags).wantOK(t)
	// A part sent after the file was joined stores nothing.
	h.put(u.Parts.URLs[0], "", body[:partSize]).wantStatus(t, http.StatusConflict)
	att := hubclient.Attachment{Key: u.Key, Filename: "v.mp4", Size: int64(len(body)), MIME: "video/mp4", Field: "video"}
	h.submit("big", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{att}}).wantOK(t)
	if !bytes.Equal(h.File(u.Key), body) {
		t.Error("the stored file differs from the one sent in parts")
	}
	// The parts were deleted when joined.
	if n, err := h.Blobs.SweepLeftovers(context.Background(), time.Now().Add(time.Hour)); n != 0 || err != nil {
		t.Errorf("%d files left beside the file joined (%v), want none", n, err)
	}
	h.completeParts(u, etags).wantError(t, http.StatusConflict)
}

func TestFilesInPartsOnlyWhenAskedAndLarge(t *testing.T) {
	h := newPartsHarness(t)
	for _, tt := range []struct {
		size  int64
		parts bool
		want  bool
	}{
		{4 * partSize, true, true},
		{4*partSize - 1, true, false}, // one PUT costs less
		{4 * partSize, false, false},  // a client that cannot
	} {
		res := h.postJSON("/v1/acme/big/upload-url", hubclient.UploadURLRequest{Filename: "v.mp4", Size: tt.size, MIME: "video/mp4", Parts: tt.parts})
		res.wantStatus(t, http.StatusOK)
		var u hubclient.UploadURLResponse
		json.Unmarshal(res.body, &u)
		if got := u.Parts != nil; got != tt.want || got == (u.UploadURL != "") {
			t.Errorf("%d bytes, parts asked %v: answer %s; want parts %v", tt.size, tt.parts, res.body, tt.want)
		}
	}
}

func TestFilesInPartsRefusals(t *testing.T) {
	var served atomic.Int32 // PUTs answered
	h := newPartsHarness(t, func(c *protocol.Config) {
		store := c.Uploads
		c.Uploads = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer served.Add(1)
			store.ServeHTTP(w, r)
		})
	})
	body := randomFile(t, 4*partSize+1)
	u := h.startParts(body)
	etags := make([]string, 5)
	for n := 1; n <= 4; n++ {
		etags[n-1] = h.putPart(u, body, n)
	}
	// A part of another length than its URL's.
	h.put(u.Parts.URLs[4], "", body[:0]).wantError(t, http.StatusBadRequest)
	h.put(u.Parts.URLs[4], "", body[:2]).wantError(t, http.StatusRequestEntityTooLarge)
	// A part of unknown length.
	chunked, err := http.NewRequest(http.MethodPut, u.Parts.URLs[4], struct{ io.Reader }{bytes.NewReader(body[4*partSize:])})
	if err != nil {
		t.Fatal(err)
	}
	send(t, chunked).wantError(t, http.StatusLengthRequired)
	// A URL whose part number was changed.
	h.put(strings.Replace(u.Parts.URLs[4], "part=5", "part=4", 1), "", body[4*partSize:]).wantError(t, http.StatusForbidden)

	// The last part is missing.
	etags[4] = etags[3]
	h.completeParts(u, etags).wantError(t, http.StatusBadRequest)
	etags[4] = h.putPart(u, body, 5)
	// An ETag that is not the part's, or a part left out.
	wrong := append([]string(nil), etags...)
	wrong[1] = `"0123"`
	h.completeParts(u, wrong).wantError(t, http.StatusBadRequest)
	h.completeParts(u, etags[:4]).wantError(t, http.StatusBadRequest)
	// Another form's, or another id.
	req := hubclient.CompleteUploadRequest{Key: u.Key, UploadID: u.Parts.UploadID, Parts: []hubclient.UploadedPart{{Number: 1, ETag: etags[0]}}}
	h.postJSON("/v1/acme/apply/upload-complete", req).wantError(t, http.StatusNotFound)
	req.UploadID = "other"
	h.postJSON("/v1/acme/big/upload-complete", req).wantError(t, http.StatusNotFound)
	// Parts out of order.
	req.UploadID = u.Parts.UploadID
	req.Parts = []hubclient.UploadedPart{{Number: 2, ETag: etags[1]}, {Number: 1, ETag: etags[0]}}
	if a := h.postJSON("/v1/acme/big/upload-complete", req).wantError(t, http.StatusBadRequest); !strings.Contains(a.Error, "want part 1") {
		t.Errorf("parts out of order: %q, want the first part asked for", a.Error)
	}
	// Not yet completed, the file cannot be submitted.
	att := hubclient.Attachment{Key: u.Key, Filename: "v.mp4", Size: int64(len(body)), MIME: "video/mp4", Field: "video"}
	h.submit("big", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{att}}).wantError(t, http.StatusUnprocessableEntity)
	// A part sent again and cut short is no longer stored, though its
	// first sending was.
	cutShort, err := http.NewRequest(http.MethodPut, u.Parts.URLs[0], io.MultiReader(bytes.NewReader(body[:100]), errReader{}))
	if err != nil {
		t.Fatal(err)
	}
	cutShort.ContentLength = partSize
	before := served.Load()
	if res, err := http.DefaultClient.Do(cutShort); err == nil {
		res.Body.Close()
	}
	waitFor(t, "the cut part's PUT to end", func() bool { return served.Load() > before })
	h.completeParts(u, etags).wantError(t, http.StatusBadRequest)
	etags[0] = h.putPart(u, body, 1)
	// And all is still well with the right parts.
	h.completeParts(u, etags).wantOK(t)
	h.submit("big", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{att}}).wantOK(t)
}

// abortCounter counts the uploads in parts the hub aborts.
type abortCounter struct {
	*localblob.Store
	aborted []string
}

func (a *abortCounter) AbortParts(ctx context.Context, u hub.Upload) error {
	a.aborted = append(a.aborted, u.Key)
	return a.Store.AbortParts(ctx, u)
}

func TestSweepAbortsFilesInParts(t *testing.T) {
	counter := &abortCounter{}
	h := newPartsHarness(t, func(c *protocol.Config) {
		counter.Store = c.Blobs.(*localblob.Store)
		c.Blobs = counter
	})
	body := randomFile(t, 4*partSize)
	u := h.startParts(body)
	h.putPart(u, body, 1)
	single := h.uploadURL("big", "a.mp4", "video/mp4", 10)
	h.clock.Add(protocol.MinUploadTTL + time.Minute)
	if _, err := h.Protocol.Sweep(context.Background(), protocol.MinUploadTTL); err != nil {
		t.Fatal(err)
	}
	if len(counter.aborted) != 1 || counter.aborted[0] != u.Key {
		t.Errorf("the sweep aborted %q, want the upload in parts %q alone (not %q)", counter.aborted, u.Key, single.Key)
	}
	h.wantNoUploads()
	// Its parts are gone, with or without the sweep of leftovers.
	if n, err := h.Blobs.SweepLeftovers(context.Background(), time.Now().Add(time.Hour)); n != 0 || err != nil {
		t.Errorf("%d files left of an aborted upload (%v), want none", n, err)
	}
}

// errReader fails every read, as a connection cut.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// waitFor polls cond for 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

// TestFilesInPartsOutlastTheirURLs has a part's URL expire: the
// upload-parts route signs them again, and the parts sent stay sent.
func TestFilesInPartsOutlastTheirURLs(t *testing.T) {
	h := newPartsHarness(t, func(c *protocol.Config) { c.UploadURLExpiry = time.Second })
	body := randomFile(t, 4*partSize)
	u := h.startParts(body)
	etags := []string{h.putPart(u, body, 1)}
	time.Sleep(2100 * time.Millisecond)
	h.put(u.Parts.URLs[1], "", body[partSize:2*partSize]).wantError(t, http.StatusForbidden)

	renew := hubclient.UploadPartsRequest{Key: u.Key, UploadID: u.Parts.UploadID}
	res := h.postJSON("/v1/acme/big/upload-parts", renew)
	res.wantStatus(t, http.StatusOK)
	var renewed hubclient.UploadURLResponse
	if err := json.Unmarshal(res.body, &renewed); err != nil || renewed.Parts == nil || renewed.Parts.UploadID != u.Parts.UploadID || len(renewed.Parts.URLs) != 4 {
		t.Fatalf("upload-parts answered %s", res.body)
	}
	for n := 2; n <= 4; n++ {
		etags = append(etags, h.putPart(renewed, body, n))
	}
	h.completeParts(u, etags).wantOK(t)
	att := hubclient.Attachment{Key: u.Key, Filename: "v.mp4", Size: int64(len(body)), MIME: "video/mp4", Field: "video"}
	h.submit("big", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{att}}).wantOK(t)
	if !bytes.Equal(h.File(u.Key), body) {
		t.Error("the stored file differs from the one sent in parts")
	}

	// Only this form's upload, by its key and id; not once submitted.
	h.postJSON("/v1/acme/apply/upload-parts", renew).wantError(t, http.StatusNotFound)
	h.postJSON("/v1/acme/big/upload-parts", hubclient.UploadPartsRequest{Key: u.Key, UploadID: "other"}).wantError(t, http.StatusNotFound)
	h.postJSON("/v1/acme/big/upload-parts", renew).wantError(t, http.StatusConflict)
}
