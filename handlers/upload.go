package handlers

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// Values of the upload route's post, as hubform-upload.js names them.
const (
	uploadField    = "field"
	uploadFilename = "filename"
	uploadSize     = "size"
	uploadMIME     = "mime"
	// uploadParts says the script can send the file in parts.
	uploadParts = "parts"
	// The upload-complete route's post: the ticket, the parts' upload id
	// and their ETags in order.
	uploadTicket   = "ticket"
	uploadPartsID  = "uploadId"
	uploadPartETag = "etag"
)

// ticketPrefix begins a posted value that stands for a file the browser
// uploaded: what the app learned of it when it asked the hub for its
// address, signed.
const ticketPrefix = "hubform-upload:"

// uploadAnswer is the upload route's answer: the address to PUT the file
// to, its key, and the ticket the form posts in its place; or, refused, a
// message for the visitor.
type uploadAnswer struct {
	UploadURL string `json:"uploadUrl,omitempty"`
	Key       string `json:"key,omitempty"`
	Ticket    string `json:"ticket,omitempty"`
	// Parts, when the hub has the file sent in parts, are the hub's;
	// Complete is the app's route that joins them once they are sent, and
	// Renew the one that signs their URLs again.
	Parts    *hubclient.UploadParts `json:"parts,omitempty"`
	Complete string                 `json:"complete,omitempty"`
	Renew    string                 `json:"renew,omitempty"`
	Error    string                 `json:"error,omitempty"`
}

// uploadURL asks the hub for an address to which the visitor's browser
// sends a file it chose, so that the file never passes through the app. The
// post names the field, the file's name, size and type, and the rendering
// (its submission key), to which the ticket answered is bound: the ticket
// is good for this form, this field and this rendering only. The hub checks
// the file against the form's limits and the visitor's rate.
func (h *Handler) uploadURL(c echo.Context) error {
	r := c.Request()
	f := formOf(c)
	reg := h.form(f)
	locale := c.QueryParam("locale")
	refuse := func(status int, texts components.Texts, key string) error {
		return c.JSON(status, uploadAnswer{Error: texts.T(key)})
	}
	schema, err := h.cache.get(r.Context(), reg.client, f.Site, f.Slug)
	if err != nil {
		h.cfg.Logger.Warn("upload refused: the form's schema cannot be fetched", "site", f.Site, "form", f.Slug, "error", err)
		return refuse(http.StatusBadGateway, components.TextsFor(nil, locale), "hubUnavailable")
	}
	texts := components.TextsFor(schema, locale)
	if schema.Meta.Closed {
		return refuse(http.StatusForbidden, texts, "closed")
	}
	limitBody(c, 64<<10)
	if err := r.ParseForm(); err != nil {
		return refuse(statusOf(err), texts, "postUnreadable")
	}
	field := schema.Field(r.PostForm.Get(uploadField))
	size, sizeErr := strconv.ParseInt(r.PostForm.Get(uploadSize), 10, 64)
	rendering := r.PostForm.Get(hubclient.IdempotencyKeyField)
	if field == nil || field.Type != hubclient.FieldFile || sizeErr != nil || size < 0 || rendering == "" || hubclient.CheckIdempotencyKey(rendering) != nil {
		h.cfg.Logger.Info("upload refused: not a file of this form", "site", f.Site, "form", f.Slug, "field", r.PostForm.Get(uploadField))
		return refuse(http.StatusBadRequest, texts, "postUnreadable")
	}
	req := hubclient.UploadURLRequest{Filename: r.PostForm.Get(uploadFilename), Size: size, MIME: r.PostForm.Get(uploadMIME), Parts: r.PostForm.Get(uploadParts) == "1"}
	if req.MIME == "" {
		req.MIME = "application/octet-stream"
	}
	res, err := h.clientFor(c, reg).UploadURL(r.Context(), f.Site, f.Slug, req)
	if err != nil {
		h.cfg.Logger.Info("upload refused by the hub", "site", f.Site, "form", f.Slug, "field", field.Name, "error", err)
		return refuse(refusalStatus(err), texts, failureText(err))
	}
	a := hubclient.Attachment{Key: res.Key, Filename: req.Filename, Size: req.Size, MIME: req.MIME, Field: field.Name}
	answer := uploadAnswer{UploadURL: res.UploadURL, Key: res.Key, Ticket: h.stamps.ticket(f, rendering, a), Parts: res.Parts}
	if res.Parts != nil {
		answer.Complete, answer.Renew = sibling(r.URL, "upload-complete"), sibling(r.URL, "upload-parts")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, answer)
}

// errPostLacks is the error of a post to a route of files in parts that
// lacks what the route needs.
var errPostLacks = errors.New("the post lacks a value the route needs")

// partsCall asks the hub, for a route of files in parts, what the post
// asks of the upload that attachment a, from a ticket, stands for.
type partsCall func(ctx context.Context, client *hubclient.Client, f Form, a hubclient.Attachment, post url.Values) (uploadAnswer, error)

// inParts serves a route of files in parts: the post names the field, the
// rendering and the file's ticket, which must be this app's for them, and
// the parts' upload id; call asks the hub in the visitor's name.
func (h *Handler) inParts(c echo.Context, call partsCall) error {
	r := c.Request()
	f := formOf(c)
	reg := h.form(f)
	schema, _ := h.cache.get(r.Context(), reg.client, f.Site, f.Slug) // for its texts alone
	texts := components.TextsFor(schema, c.QueryParam("locale"))
	refuse := func(status int, key string) error {
		return c.JSON(status, uploadAnswer{Error: texts.T(key)})
	}
	limitBody(c, 1<<20)
	if err := r.ParseForm(); err != nil {
		return refuse(statusOf(err), "postUnreadable")
	}
	a, ok := h.stamps.attachment(f, r.PostForm.Get(hubclient.IdempotencyKeyField), r.PostForm.Get(uploadField), r.PostForm.Get(uploadTicket))
	if !ok {
		h.cfg.Logger.Warn("upload in parts refused: the ticket is not this app's for the form, field and rendering", "site", f.Site, "form", f.Slug, "route", c.Path())
		return refuse(http.StatusBadRequest, "postUnreadable")
	}
	answer, err := call(r.Context(), h.clientFor(c, reg), f, a, r.PostForm)
	switch {
	case errors.Is(err, errPostLacks):
		return refuse(http.StatusBadRequest, "postUnreadable")
	case err != nil:
		h.cfg.Logger.Info("upload in parts refused by the hub", "site", f.Site, "form", f.Slug, "field", a.Field, "route", c.Path(), "error", err)
		return refuse(refusalStatus(err), failureText(err))
	}
	answer.Key = a.Key
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, answer)
}

// sibling returns the request URI of the upload route u's sibling route,
// with u's query.
func sibling(u *url.URL, route string) string {
	s := *u
	s.Path = strings.TrimSuffix(u.Path, "/upload-url") + "/" + route
	if u.RawPath != "" {
		// A site or slug with an escaped slash ("a%2Fb") keeps it.
		s.RawPath = strings.TrimSuffix(u.RawPath, "/upload-url") + "/" + route
	}
	return s.RequestURI()
}

// uploadComplete has the hub join the parts of a file the visitor's
// browser sent in parts, given their ETags in order.
func (h *Handler) uploadComplete(c echo.Context) error {
	return h.inParts(c, func(ctx context.Context, client *hubclient.Client, f Form, a hubclient.Attachment, post url.Values) (uploadAnswer, error) {
		etags := post[uploadPartETag]
		if len(etags) == 0 {
			return uploadAnswer{}, errPostLacks
		}
		req := hubclient.CompleteUploadRequest{Key: a.Key, UploadID: post.Get(uploadPartsID)}
		for i, etag := range etags {
			req.Parts = append(req.Parts, hubclient.UploadedPart{Number: i + 1, ETag: etag})
		}
		return uploadAnswer{}, client.CompleteUpload(ctx, f.Site, f.Slug, req)
	})
}

// uploadParts has the hub sign the URLs of a file's parts again, for a
// visitor whose upload outlasted them.
func (h *Handler) uploadParts(c echo.Context) error {
	return h.inParts(c, func(ctx context.Context, client *hubclient.Client, f Form, a hubclient.Attachment, post url.Values) (uploadAnswer, error) {
		parts, err := client.UploadParts(ctx, f.Site, f.Slug, hubclient.UploadPartsRequest{Key: a.Key, UploadID: post.Get(uploadPartsID)})
		return uploadAnswer{Parts: parts}, err
	})
}

// ticket returns the value a form posts for attachment a, uploaded from
// its rendering: the attachment, and its signature for f and rendering.
func (s stamper) ticket(f Form, rendering string, a hubclient.Attachment) string {
	body, _ := json.Marshal(a) // an Attachment always encodes
	encoded := base64.RawURLEncoding.EncodeToString(body)
	return ticketPrefix + encoded + "." + base64.RawURLEncoding.EncodeToString(s.mac("hubform upload", f.Site, f.Slug, rendering, encoded))
}

// attachment returns the attachment a posted value stands for, if it is
// a ticket this app signed for field of form f in rendering.
func (s stamper) attachment(f Form, rendering, field, value string) (hubclient.Attachment, bool) {
	encoded, sig, ok := strings.Cut(strings.TrimPrefix(value, ticketPrefix), ".")
	if !ok || !strings.HasPrefix(value, ticketPrefix) || rendering == "" {
		return hubclient.Attachment{}, false
	}
	// Strict: a ticket has one spelling.
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac("hubform upload", f.Site, f.Slug, rendering, encoded)) {
		return hubclient.Attachment{}, false
	}
	body, err := base64.RawURLEncoding.Strict().DecodeString(encoded)
	var a hubclient.Attachment
	if err != nil || json.Unmarshal(body, &a) != nil || a.Field != field {
		return hubclient.Attachment{}, false
	}
	return a, true
}

// uploaded returns, by field, the files that the browser uploaded for the
// post of form f from rendering: the attachments of the tickets posted in
// the file fields' names. It also returns the fields with a value that is
// not a ticket this app signed for the field and the rendering (another
// instance's StampKey, a rendering of another page, a forgery), which is
// left out and logged.
func (h *Handler) uploaded(f Form, rendering string, schema *hubclient.Schema, posted map[string][]string) (map[string][]hubclient.Attachment, []string) {
	var out map[string][]hubclient.Attachment
	var unsigned []string
	for _, field := range schema.Fields {
		if field.Type != hubclient.FieldFile {
			continue
		}
		refused := false
		for _, v := range posted[field.Name] {
			if v == "" {
				continue // the file input, emptied by the script
			}
			a, ok := h.stamps.attachment(f, rendering, field.Name, v)
			if !ok {
				refused = true
				continue
			}
			if out == nil {
				out = map[string][]hubclient.Attachment{}
			}
			out[field.Name] = append(out[field.Name], a)
		}
		if refused {
			h.cfg.Logger.Warn("post: a file's ticket is not this app's for the form, field and rendering", "site", f.Site, "form", f.Slug, "field", field.Name)
			unsigned = append(unsigned, field.Name)
		}
	}
	return out, unsigned
}

// withAttachments returns values with each file field's files replaced by
// their attachments as the hub received them, whether the browser uploaded
// them or the post carried them.
func withAttachments(values map[string]any, attachments []hubclient.Attachment) map[string]any {
	if len(attachments) == 0 {
		return values
	}
	byField := map[string][]hubclient.Attachment{}
	for _, a := range attachments {
		byField[a.Field] = append(byField[a.Field], a)
	}
	out := maps.Clone(values)
	for field, list := range byField {
		out[field] = list
	}
	return out
}
