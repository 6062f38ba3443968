package hub

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// getSchema serves the form's schema, never its server-only settings.
// Clients revalidate with the ETag, so an edited form shows at once.
func (s *Server) getSchema(c echo.Context) error {
	form := formOf(c)
	etag := `"` + form.Tag + `"`
	if form.Tag == "" {
		etag = `"` + strconv.FormatInt(form.ModTime.UnixNano(), 36) + "-" + strconv.Itoa(len(form.JSON)) + `"`
	}
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache")
	if match := c.Request().Header.Get("If-None-Match"); match == "*" || match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, form.JSON)
}

// maxUploadURLBody caps the upload-url request, a few short members.
const maxUploadURLBody = 16 << 10

// postUploadURL signs an upload URL for one file, once the form's limits
// allow the file. The upload is recorded so that the PUT and the submission
// can be checked against it.
func (s *Server) postUploadURL(c echo.Context) error {
	form := formOf(c)
	var req hubclient.UploadURLRequest
	if err := s.readJSON(c, maxUploadURLBody, &req); err != nil {
		return err
	}
	limits := form.Settings
	switch {
	case !hasFileField(form.Schema):
		return &Error{Status: http.StatusBadRequest, Message: "this form takes no files"}
	case req.Filename == "" || len(req.Filename) > 255 || !utf8.ValidString(req.Filename):
		return &Error{Status: http.StatusBadRequest, Message: "filename: want 1 to 255 bytes of UTF-8"}
	case req.Size < 0:
		return &Error{Status: http.StatusBadRequest, Message: "size: must not be negative"}
	case req.Size > limits.maxFileSize():
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("file of %d bytes is larger than this form's limit of %d bytes", req.Size, limits.maxFileSize())}
	}
	if msg := limits.checkType(req.MIME); msg != "" {
		return &Error{Status: http.StatusUnsupportedMediaType, Message: msg}
	}
	ctx := c.Request().Context()
	now := s.cfg.Now()
	u := Upload{
		Key: NewUploadKey(form.Site, form.Slug, req.Filename), Site: form.Site, Form: form.Slug,
		Filename: req.Filename, MIME: req.MIME, Size: req.Size, CreatedAt: now, ExpiresAt: now.Add(s.cfg.UploadURLExpiry),
	}
	// Signed before it is recorded, so that a failure leaves no record: a
	// URL whose upload is not recorded is never handed out, and no PUT to
	// it could be claimed.
	url, err := s.cfg.Blobs.SignedPutURL(ctx, u, s.cfg.UploadURLExpiry)
	if err != nil {
		return Internal("signing the upload URL", err)
	}
	if err := s.cfg.Store.CreateUpload(ctx, u); err != nil {
		return Internal("recording the upload", err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, hubclient.UploadURLResponse{OK: true, UploadURL: url, Key: u.Key})
}

// readJSON decodes a JSON request body of at most limit bytes into v, or
// answers 415, 413 or 400 and returns the answer's error.
func (s *Server) readJSON(c echo.Context, limit int64, v any) error {
	r := c.Request()
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return &Error{Status: http.StatusUnsupportedMediaType, Message: "send the body as application/json"}
	}
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body larger than %d bytes", limit)}
	case err != nil:
		return s.bodyFailed(c, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "malformed JSON: " + jsonError(data, err)}
	}
	return nil
}

// bodyFailed answers a request whose body could not be read: 408 when the
// client took longer than it was given, else 400. The answer says no more:
// the error names the hub's own socket; the log keeps it.
func (s *Server) bodyFailed(c echo.Context, err error) error {
	s.cfg.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request body not read",
		slog.String("path", c.Request().URL.Path), slog.String("client", c.RealIP()), slog.Any("error", err))
	if IsTimeout(err) {
		c.Response().Header().Set("Connection", "close")
		return &Error{Status: http.StatusRequestTimeout, Message: "the request body did not arrive in time"}
	}
	return &Error{Status: http.StatusBadRequest, Message: "the request body could not be read"}
}

// IsTimeout reports whether err is a read that ran past its deadline.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// jsonError describes a JSON decoding error, with the position it was
// found at, in words of its own rather than the decoder's.
func jsonError(data []byte, err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		if syntax.Offset >= int64(len(data)) {
			return "the body ends before its JSON does"
		}
		return fmt.Sprintf("unexpected input at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: want %s, got %s", cmp.Or(typ.Field, "body"), jsonKind(typ.Type), typ.Value)
	}
	return "not one JSON value"
}

// jsonKind names the JSON value that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

func hasFileField(s *hubclient.Schema) bool {
	for _, f := range s.Fields {
		if f.Type == hubclient.FieldFile {
			return true
		}
	}
	return false
}

func (st Settings) maxFileSize() int64 {
	if st.MaxFileSize > 0 {
		return st.MaxFileSize
	}
	return DefaultMaxFileSize
}

func (st Settings) maxFiles() int {
	if st.MaxFiles > 0 {
		return st.MaxFiles
	}
	return DefaultMaxFiles
}

// checkType returns why a file of type contentType is refused, or "".
// The type travels as the PUT's Content-Type header and into the database,
// so a control character, which neither takes, refuses it even where
// mime.ParseMediaType would accept it in a quoted parameter.
func (st Settings) checkType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.Contains(mt, "/") || strings.Contains(mt, "*") || strings.ContainsFunc(contentType, isControl) {
		return fmt.Sprintf("mime: %q is not a media type", contentType)
	}
	if len(st.AllowedTypes) == 0 {
		return ""
	}
	for _, allowed := range st.AllowedTypes {
		family, wildcard := strings.CutSuffix(allowed, "/*")
		if strings.EqualFold(allowed, mt) || wildcard && strings.EqualFold(family, strings.SplitN(mt, "/", 2)[0]) {
			return ""
		}
	}
	return fmt.Sprintf("files of type %s are not accepted; this form takes %s", mt, strings.Join(st.AllowedTypes, ", "))
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// uploadGrace is how long after its URL expired an unclaimed upload is kept
// at the least: long enough for its submission to follow.
const uploadGrace = time.Hour
