// Package images serves the pictures owners upload for their themes, a
// form's logo and cover and a brand's, from the hub's file storage: to
// anyone, at an address no one can guess, as the pictures they are and
// never as a page. manage.Images checks and stores them.
package images

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // the decoders of the types taken
	_ "image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp"

	"github.com/hubform/hubform/handlers/hub"
)

// Path is where the hub serves the pictures: Path + a key's name.
const Path = "/images/"

// keyPrefix is where the file storage keeps them.
const keyPrefix = "images/"

// MaxBytes bounds a picture's size, and MaxSide its width and height in
// pixels: a logo or a cover, not a photograph to print.
const (
	MaxBytes = 2 << 20
	MaxSide  = 6000
)

// types are the pictures taken, by the type their bytes show, with the
// ending of their key. SVG is not one: it may hold scripts.
var types = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}

// names are the names of keys Path serves.
var names = regexp.MustCompile(`^[0-9a-f]{32}\.(png|jpg|gif|webp)$`)

// Check returns the type of the picture data and a new key for it, or an
// error a person can read, of status 422: not a picture of a type taken,
// larger than MaxBytes, or wider or taller than MaxSide.
func Check(data []byte) (contentType, key string, err error) {
	if len(data) > MaxBytes {
		return "", "", hub.Errorf(http.StatusUnprocessableEntity, "The picture is larger than %d MB: make it smaller first.", MaxBytes>>20)
	}
	contentType = http.DetectContentType(data)
	ext, ok := types[contentType]
	if !ok {
		return "", "", hub.Errorf(http.StatusUnprocessableEntity, "Choose a PNG, JPEG, GIF or WebP picture.")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	switch {
	case err != nil:
		return "", "", hub.Errorf(http.StatusUnprocessableEntity, "The file is not a picture that can be read: %s cut short or damaged.", strings.TrimPrefix(ext, "."))
	case cfg.Width > MaxSide || cfg.Height > MaxSide:
		return "", "", hub.Errorf(http.StatusUnprocessableEntity, "The picture is %d×%d pixels: at most %d a side.", cfg.Width, cfg.Height, MaxSide)
	}
	var id [16]byte
	rand.Read(id[:])
	return contentType, keyPrefix + hex.EncodeToString(id[:]) + ext, nil
}

// URL returns the address of the picture of key on the hub at base, its
// public address.
func URL(base, key string) string {
	return strings.TrimRight(base, "/") + Path + strings.TrimPrefix(key, keyPrefix)
}

// Store tells the pictures recorded, as sqldb.DB does.
type Store interface {
	// Image returns the picture of key, or an error wrapping
	// hub.ErrNotFound.
	Image(ctx context.Context, key string) (hub.Image, error)
}

// Files reads the file storage, as localblob.Store and s3blob.Bucket do.
type Files interface {
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
}

// Handler serves the pictures recorded in Store from Files, at Path.
type Handler struct {
	Store  Store
	Files  Files
	Logger *slog.Logger
}

// ServeHTTP answers GET and HEAD of Path + a picture's name with the
// picture, kept by browsers and caches for a year: a key never names
// another picture. Anything else is 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, Path)
	if !ok || !names.MatchString(name) || r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.NotFound(w, r)
		return
	}
	ctx, key := r.Context(), keyPrefix+name
	img, err := h.Store.Image(ctx, key)
	var body io.ReadCloser
	if err == nil {
		body, err = h.Files.NewReader(ctx, key)
	}
	if errors.Is(err, hub.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		h.Logger.ErrorContext(ctx, "picture not served", slog.String("key", key), slog.Any("err", err))
		http.Error(w, "The picture cannot be shown now.", http.StatusServiceUnavailable)
		return
	}
	defer body.Close()
	header := w.Header()
	header.Set("Content-Type", img.ContentType)
	header.Set("Content-Length", strconv.FormatInt(img.Size, 10))
	header.Set("Cache-Control", "public, max-age=31536000, immutable")
	header.Set("X-Content-Type-Options", "nosniff")
	header.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	header.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if r.Method == http.MethodHead {
		return
	}
	if _, err := io.Copy(w, body); err != nil {
		h.Logger.WarnContext(ctx, "picture cut short", slog.String("key", key), slog.Any("err", fmt.Errorf("sending: %w", err)))
	}
}
