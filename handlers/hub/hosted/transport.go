package hosted

import (
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// selfAddr is the client address of an in-process request that names no
// visitor: a schema fetch, which the hub makes for itself.
const selfAddr = "127.0.0.1:0"

// inProcess is an http.RoundTripper that serves the requests addressed to
// the hub's public URL by calling the hub's handler directly, and sends
// every other request, such as a PUT to a bucket's presigned URL, through
// next. Bodies stream both ways through pipes: a file on its way to the
// hub's storage is never held in memory.
type inProcess struct {
	// base is the hub's public URL without its /v1: its scheme and host
	// select the requests served here, its path is what a proxy in front
	// of the hub strips.
	base    *url.URL
	handler http.Handler
	next    http.RoundTripper
}

// local reports whether u is served by the hub itself.
func (t *inProcess) local(u *url.URL) bool {
	if !strings.EqualFold(u.Scheme, t.base.Scheme) || !strings.EqualFold(u.Host, t.base.Host) {
		return false
	}
	prefix := strings.TrimRight(t.base.Path, "/")
	return prefix == "" || u.Path == prefix || strings.HasPrefix(u.Path, prefix+"/")
}

// RoundTrip serves req in process when it is addressed to the hub.
func (t *inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.local(req.URL) {
		return t.next.RoundTrip(req)
	}
	in := t.serverRequest(req)
	body, pipe := io.Pipe()
	w := &pipeResponse{req: req, header: http.Header{}, reader: body, body: pipe, ready: make(chan *http.Response, 1)}
	go func() {
		defer func() {
			if in.Body != nil {
				in.Body.Close()
			}
		}()
		defer func() {
			// The hub's router recovers its handlers' panics; one that
			// escapes it must not take the whole process down.
			if p := recover(); p != nil {
				w.fail(fmt.Errorf("the hub's handler panicked: %v", p))
			}
		}()
		t.handler.ServeHTTP(w, in)
		w.finish()
	}()
	select {
	case res := <-w.ready:
		// Both may be ready at once, and select picks either: a client
		// that left as the answer began reads none of it.
		if err := req.Context().Err(); err != nil {
			body.CloseWithError(err)
			return nil, err
		}
		// The page's post learns the id of the submission it stored.
		if box, ok := req.Context().Value(submissionKey{}).(*submissionBox); ok && req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/submit") {
			res.Body = &submitAnswer{ReadCloser: res.Body, box: box}
		}
		return res, nil
	case <-req.Context().Done():
		// Nobody will read the answer: the handler's writes fail rather
		// than block, and it returns.
		body.CloseWithError(req.Context().Err())
		return nil, req.Context().Err()
	}
}

// serverRequest makes of a client's request the request a server would
// have read from the wire: a path and query only, the host in Host, no
// Host header, and the visitor the client named (X-Forwarded-For, see
// hubclient.Client.Visitor) as the client address. The hub then counts,
// checks and records that visitor whatever proxies it trusts, exactly as
// it would a visitor who posted to it directly; the header itself is
// dropped, since the address now travels where no one else can set it.
func (t *inProcess) serverRequest(req *http.Request) *http.Request {
	in := req.Clone(req.Context())
	path := req.URL.Path
	if prefix := strings.TrimRight(t.base.Path, "/"); prefix != "" {
		path = strings.TrimPrefix(path, prefix)
	}
	in.URL = &url.URL{Path: path, RawQuery: req.URL.RawQuery}
	if req.URL.RawPath != "" {
		in.URL.RawPath = strings.TrimPrefix(req.URL.RawPath, strings.TrimRight(t.base.Path, "/"))
	}
	in.RequestURI = in.URL.RequestURI()
	in.Host = req.URL.Host
	in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	in.Header.Del("Host")
	in.RemoteAddr = selfAddr
	if a, err := netip.ParseAddr(strings.TrimSpace(req.Header.Get("X-Forwarded-For"))); err == nil {
		in.RemoteAddr = netip.AddrPortFrom(a.Unmap(), 0).String()
	}
	in.Header.Del("X-Forwarded-For")
	// The body is the client's own, read as it is written, and closed
	// when the handler is done with it. Its length is told as the wire
	// tells it, for handlers that want it stated (the upload endpoint
	// refuses a body of unknown length).
	in.Body = req.Body
	switch {
	case req.Body == nil || req.Body == http.NoBody:
		in.Body, in.ContentLength = http.NoBody, 0
		if req.Method == http.MethodPost || req.Method == http.MethodPut || req.Method == http.MethodPatch {
			in.Header.Set("Content-Length", "0")
		}
	case req.ContentLength > 0:
		in.Header.Set("Content-Length", strconv.FormatInt(req.ContentLength, 10))
	default:
		in.ContentLength, in.TransferEncoding = -1, []string{"chunked"}
	}
	return in
}

// pipeResponse is the http.ResponseWriter of an in-process request: the
// status and header become the client's *http.Response the moment they
// are written, and the body flows to it through a pipe.
type pipeResponse struct {
	req    *http.Request
	header http.Header
	// reader is the client's body: closing it early makes the handler's
	// next write fail, so that it stops.
	reader *io.PipeReader
	body   *io.PipeWriter
	ready  chan *http.Response

	once sync.Once
}

func (w *pipeResponse) Header() http.Header { return w.header }

// WriteHeader hands the answer to the client; later calls do nothing, as
// with a server's ResponseWriter.
func (w *pipeResponse) WriteHeader(status int) {
	w.once.Do(func() {
		header := w.header.Clone()
		length := int64(-1)
		if n, err := strconv.ParseInt(header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			length = n
		}
		if w.req.Method == http.MethodHead || status == http.StatusNoContent || status == http.StatusNotModified {
			length = 0
		}
		w.ready <- &http.Response{
			Status:     strconv.Itoa(status) + " " + http.StatusText(status),
			StatusCode: status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: header, Body: w.reader, ContentLength: length, Request: w.req,
		}
	})
}

func (w *pipeResponse) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Flush does nothing: the pipe hands every write over as it is made.
func (w *pipeResponse) Flush() {}

// finish ends the answer of a handler that returned: one that wrote
// nothing answers 200 with no body, as a server's would.
func (w *pipeResponse) finish() {
	w.WriteHeader(http.StatusOK)
	w.body.Close()
}

// fail ends the answer with err: a client still waiting for the header
// gets a 500, one reading the body gets err.
func (w *pipeResponse) fail(err error) {
	w.header = http.Header{}
	w.WriteHeader(http.StatusInternalServerError)
	w.body.CloseWithError(err)
}
