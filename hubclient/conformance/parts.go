package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/hubform/hubform/hubclient"
)

// partsSize is the length of the file upload.parts sends: 64 MiB, the
// smallest file this project's hub sends in parts (four of its default
// 16 MiB), so that the check runs against it as it is configured by
// default. A hub that sends only larger files in parts answers uploadUrl,
// which the check reports as parts not offered.
const partsSize = 64 << 20

// partsAtOnce is how many parts upload.parts PUTs at a time.
const partsAtOnce = 2

// partsFile is the file upload.parts sends, generated as it is read rather
// than held: lines of partsLineLen bytes, each beginning with its number in
// hex, so that no two parts are alike and a part stored at the wrong place
// shows. Its length is partsSize.
type partsFile struct{}

const (
	partsLineLen  = 64
	partsLineText = " hubform conformance: a file sent in parts"
)

// The text fits a line after its number and before its '\n'.
var _ [partsLineLen - 16 - len(partsLineText) - 1]struct{}

// ReadAt implements io.ReaderAt.
func (partsFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("conformance: negative offset")
	}
	var line [partsLineLen]byte
	n := 0
	for n < len(p) && off < partsSize {
		partsLine(&line, off/partsLineLen)
		c := copy(p[n:], line[off%partsLineLen:])
		c = int(min(int64(c), partsSize-off))
		n += c
		off += int64(c)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// partsLine writes line number n of partsFile.
func partsLine(line *[partsLineLen]byte, n int64) {
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		line[i] = digits[n&15]
		n >>= 4
	}
	rest := line[16+copy(line[16:], partsLineText) : partsLineLen-1]
	for i := range rest {
		rest[i] = '.'
	}
	line[partsLineLen-1] = '\n'
}

// uploadParts sends a file in parts (PROTOCOL.md §10), an optional
// extension: a hub that answers uploadUrl to a request with parts does not
// fail it.
func (r *run) uploadParts(ctx context.Context) (Status, string) {
	if !r.uploaded {
		return Skip, "no upload succeeded (upload.put failed or did not run)"
	}
	a, err := r.postJSON(ctx, "/upload-url", hubclient.UploadURLRequest{Filename: fileName, Size: partsSize, MIME: fileMIME, Parts: true})
	if err != nil {
		return failf("POST %s/upload-url: %v", r.base, err)
	}
	switch {
	case a.status == http.StatusRequestEntityTooLarge:
		return Skip, fmt.Sprintf("the form's limit refuses a file of %d bytes (64 MiB) with 413, so parts could not be tried; allow 64 MiB in the test form to check them", partsSize)
	case !a.ok():
		return failf(`upload-url for %d bytes with "parts": true: want 2xx with "parts" or "uploadUrl" (413 when over the form's limit), got %s`, partsSize, a)
	}
	var res hubclient.UploadURLResponse
	if err := json.Unmarshal(a.body, &res); err != nil || !res.OK || res.Key == "" {
		return failf(`upload-url with "parts": true: want {"ok": true, "key", and "parts" or "uploadUrl"}, got %s`, a)
	}
	p := res.Parts
	switch {
	case p == nil && res.UploadURL == "":
		return failf(`upload-url with "parts": true: want "parts" or "uploadUrl", got %s`, a)
	case p == nil:
		return Info, fmt.Sprintf(`parts not offered: upload-url answered uploadUrl to a file of %d bytes (64 MiB) with "parts": true; files in parts are an optional extension`, partsSize)
	case p.UploadID == "":
		return failf("upload-url: parts.uploadId is empty: %s", a)
	case p.PartSize <= 0:
		return failf("upload-url: parts.partSize is %d, want more than 0", p.PartSize)
	case len(p.URLs) != p.Count(partsSize):
		return failf("upload-url: parts.urls has %d URLs, want %d: %d bytes in parts of %d", len(p.URLs), p.Count(partsSize), partsSize, p.PartSize)
	}
	for i, raw := range p.URLs {
		if u, err := url.Parse(raw); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return failf("upload-url: parts.urls[%d] %.100q is not an absolute http or https URL", i, raw)
		}
	}
	parts, err := r.putParts(ctx, p)
	if err != nil {
		return Fail, err.Error()
	}
	complete := func(req hubclient.CompleteUploadRequest) (*answer, error) {
		return r.postJSON(ctx, "/upload-complete", req)
	}
	done := hubclient.CompleteUploadRequest{Key: res.Key, UploadID: p.UploadID, Parts: parts}

	unknown := done
	unknown.UploadID = "conformance-never-issued-" + randomSuffix()
	if a, err = complete(unknown); err != nil {
		return failf("POST %s/upload-complete with an upload id never handed out: %v", r.base, err)
	}
	if a.status != http.StatusNotFound {
		return failf("upload-complete with an upload id never handed out: want 404, got %s", a)
	}

	wrong := done
	wrong.Parts = append([]hubclient.UploadedPart(nil), parts...)
	wrong.Parts[0].ETag = wrongETag(parts)
	if a, err = complete(wrong); err != nil {
		return failf("POST %s/upload-complete with part 1's ETag wrong: %v", r.base, err)
	}
	if a.status != http.StatusBadRequest {
		return failf("upload-complete with part 1's ETag wrong (%.100s for %.100s): want 400, got %s", wrong.Parts[0].ETag, parts[0].ETag, a)
	}

	for _, step := range []string{"upload-complete", "upload-complete again"} {
		if a, err = complete(done); err != nil {
			return failf("POST %s/upload-complete: %v", r.base, err)
		}
		if ok, why := accepted(a); !ok {
			return failf(`%s with every part's ETag: want 2xx with {"ok": true}: %s`, step, why)
		}
	}

	note := fmt.Sprintf("%d parts of %d bytes, key %s", len(parts), p.PartSize, res.Key)
	if r.needsToken() {
		return Pass, note + "; " + noToken + ", so no submission named the file"
	}
	attached := hubclient.Attachment{Key: res.Key, Filename: fileName, Size: partsSize, MIME: fileMIME, Field: "file"}
	if a, err = r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload(), Attachments: []hubclient.Attachment{attached}}); err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, why := accepted(a); !ok {
		return failf("want the submission naming the file sent in parts accepted: %s", why)
	}
	return Pass, note
}

// wrongETag returns an ETag that is not part 1's: another part's when it
// differs, so that a hub that checks only that an ETag is one of the
// upload's fails too.
func wrongETag(parts []hubclient.UploadedPart) string {
	for _, p := range parts[1:] {
		if p.ETag != parts[0].ETag {
			return p.ETag
		}
	}
	return `"hubform-conformance-wrong-etag"`
}

// putParts PUTs the parts of partsFile to their URLs, partsAtOnce at a time,
// the last part first, as the protocol lets parts go in any order. It
// returns every part with the ETag its PUT answered, in order, or the
// first failure.
func (r *run) putParts(ctx context.Context, p *hubclient.UploadParts) ([]hubclient.UploadedPart, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	count := len(p.URLs)
	queue := make(chan int, count)
	for i := count - 1; i >= 0; i-- {
		queue <- i
	}
	close(queue)
	parts := make([]hubclient.UploadedPart, count)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range min(partsAtOnce, count) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queue {
				if ctx.Err() != nil {
					return
				}
				etag, err := r.putPart(ctx, p, i)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					cancel()
					return
				}
				parts[i] = hubclient.UploadedPart{Number: i + 1, ETag: etag}
			}
		}()
	}
	wg.Wait()
	return parts, first
}

// putPart PUTs part i (from 0) and returns the ETag it answered.
func (r *run) putPart(ctx context.Context, p *hubclient.UploadParts, i int) (string, error) {
	start := int64(i) * p.PartSize
	length := min(p.PartSize, partsSize-start)
	step := fmt.Sprintf("PUT of part %d of %d (%d bytes from %d)", i+1, len(p.URLs), length, start)
	a, err := r.sendBody(ctx, http.MethodPut, p.URLs[i], "", io.NewSectionReader(partsFile{}, start, length), length, nil)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: %v", step, err)
	case !a.ok():
		return "", fmt.Errorf("%s: want 2xx with an ETag header, got %s", step, a)
	case a.header.Get("ETag") == "":
		return "", fmt.Errorf("%s: answered %d without an ETag header, which upload-complete needs", step, a.status)
	}
	return a.header.Get("ETag"), nil
}
