package hosted

import (
	"embed"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/static"
)

// EmbedPath is where the hub serves embed.js, the script that puts its
// forms on any site: inline in a frame that follows the form's height, or
// in a popup (see EMBED.md).
const EmbedPath = "/embed.js"

// frameScriptPath is where the hub serves the script of a page shown in
// a frame by embed.js.
const frameScriptPath = Path + "/hubform-embed-frame.js"

// submissionHeader names, in the answer to a post of a form's page, the
// submission the hub stored, which the page's frame script tells the
// site around the frame.
const submissionHeader = "Hubform-Submission"

//go:embed assets/embed.js assets/embed-frame.js
var embedFiles embed.FS

// embedAssets serves the two scripts compressed, with ETags, and
// without the lines that are comments alone, as the static package serves
// its own scripts named hubform-*.
var embedAssets = static.NewSet(embedFiles, map[string]string{
	"hubform-embed.js":       "assets/embed.js",
	"hubform-embed-frame.js": "assets/embed-frame.js",
})

// embedCache is the Cache-Control of embed.js, whose address sites write
// in their pages and which carries no version: a day fresh, and a week
// more served while the browser checks for a newer one, so that a change
// reaches every site within a day and costs none of them a wait.
const embedCache = "public, max-age=86400, stale-while-revalidate=604800"

// serveEmbed serves embed.js, to any site.
func serveEmbed(c echo.Context) error {
	r := c.Request().Clone(c.Request().Context())
	r.URL.Path, r.URL.RawQuery = "/hubform-embed.js", ""
	w := &cacheWriter{ResponseWriter: c.Response().Writer, cache: embedCache}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cross-Origin-Resource-Policy", "cross-origin")
	embedAssets.ServeHTTP(w, r)
	return nil
}

// serveFrameScript serves the frame script at the versioned address the
// page names, for a year.
func serveFrameScript(c echo.Context) error {
	r := c.Request().Clone(c.Request().Context())
	r.URL.Path = "/hubform-embed-frame.js"
	embedAssets.ServeHTTP(c.Response().Writer, r)
	return nil
}

// frameScriptURL is the frame script's address with its version.
func frameScriptURL() string { return Path + "/" + embedAssets.URL("hubform-embed-frame.js") }

// cacheWriter replaces the Cache-Control the asset set chose.
type cacheWriter struct {
	http.ResponseWriter
	cache string
}

func (w *cacheWriter) WriteHeader(status int) {
	w.Header().Set("Cache-Control", w.cache)
	w.ResponseWriter.WriteHeader(status)
}

func (w *cacheWriter) Write(p []byte) (int, error) {
	if w.Header().Get("Cache-Control") != w.cache {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// frameKey is where the page's handler leaves, in its context, the frame
// a page is shown in.
type frameKey struct{}

// A frame is what a page shown in a frame (?embed=1) knows of it.
type frame struct {
	// origin is the origin of the site around the frame, "" if unknown.
	origin string
}

// hostOrigin returns the origin of the page that frames a form's page, as
// its query's origin says it, or "" for anything but the origin of an
// http or https page: the frame script posts to it, and to nothing else.
func hostOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(u.Host, "/\\ ") {
		return ""
	}
	return u.Scheme + "://" + strings.ToLower(u.Host)
}

// submissionKey is where guard leaves, in a post's context, the box the
// transport fills with the id of the submission the hub stored.
type submissionKey struct{}

// submissionBox holds the id of the submission a post stored.
type submissionBox struct {
	mu sync.Mutex
	id string
}

func (b *submissionBox) get() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.id
}

// maxSubmitAnswer is as much of the hub's answer to a submission as is
// read for its id: the answer is a short JSON object.
const maxSubmitAnswer = 64 << 10

// submitAnswer reads the id of the submission in the hub's answer to a
// post as the client reads it, and puts it in box once it is read whole.
type submitAnswer struct {
	io.ReadCloser
	box  *submissionBox
	buf  []byte
	once sync.Once
}

func (a *submitAnswer) Read(p []byte) (int, error) {
	n, err := a.ReadCloser.Read(p)
	if len(a.buf)+n <= maxSubmitAnswer {
		a.buf = append(a.buf, p[:n]...)
	}
	if err == io.EOF {
		a.keep()
	}
	return n, err
}

func (a *submitAnswer) Close() error {
	a.keep()
	return a.ReadCloser.Close()
}

func (a *submitAnswer) keep() {
	a.once.Do(func() {
		var res struct {
			OK           bool   `json:"ok"`
			SubmissionID string `json:"submissionId"`
		}
		if json.Unmarshal(a.buf, &res) == nil && res.OK {
			a.box.mu.Lock()
			a.box.id = res.SubmissionID
			a.box.mu.Unlock()
		}
	})
}
