package images_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/images"
)

// picture returns a PNG of w×h pixels.
func picture(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{R: 124, G: 58, B: 237, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCheck(t *testing.T) {
	ct, key, err := images.Check(picture(t, 40, 20))
	if err != nil || ct != "image/png" || !strings.HasPrefix(key, "images/") || !strings.HasSuffix(key, ".png") || len(key) != len("images/")+32+4 {
		t.Errorf("a PNG: %q, %q, %v", ct, key, err)
	}
	if _, again, _ := images.Check(picture(t, 40, 20)); again == key {
		t.Error("two pictures were given one key")
	}
	huge := append(picture(t, 1, 1), make([]byte, images.MaxBytes)...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"an SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "Choose a PNG, JPEG, GIF or WebP picture."},
		{"a page", []byte(`<!doctype html><p>hi`), "Choose a PNG, JPEG, GIF or WebP picture."},
		{"a PNG cut short", picture(t, 40, 20)[:20], "The file is not a picture that can be read: png cut short or damaged."},
		{"too large", huge, "The picture is larger than 2 MB: make it smaller first."},
		{"too wide", picture(t, images.MaxSide+1, 1), "The picture is 6001×1 pixels: at most 6000 a side."},
	} {
		_, _, err := images.Check(c.data)
		var he *hub.Error
		if !errors.As(err, &he) || he.Status != http.StatusUnprocessableEntity || he.Message != c.want {
			t.Errorf("%s: %v, want 422 %q", c.name, err, c.want)
		}
	}
}

// pictures is a Store and Files holding pictures in memory.
type pictures map[string][]byte

func (p pictures) Image(_ context.Context, key string) (hub.Image, error) {
	data, ok := p[key]
	if !ok {
		return hub.Image{}, hub.ErrNotFound
	}
	return hub.Image{Key: key, ContentType: http.DetectContentType(data), Size: int64(len(data))}, nil
}

func (p pictures) NewReader(_ context.Context, key string) (io.ReadCloser, error) {
	if key == "images/00000000000000000000000000000000.png" {
		return nil, errors.New("the disk is gone")
	}
	return io.NopCloser(bytes.NewReader(p[key])), nil
}

func TestHandler(t *testing.T) {
	logo := picture(t, 40, 20)
	store := pictures{"images/0123456789abcdef0123456789abcdef.png": logo, "images/00000000000000000000000000000000.png": logo}
	h := &images.Handler{Store: store, Files: store, Logger: slog.New(slog.DiscardHandler)}
	do := func(method, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w
	}
	w := do(http.MethodGet, "/images/0123456789abcdef0123456789abcdef.png")
	if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), logo) {
		t.Fatalf("GET: %d, %d bytes", w.Code, w.Body.Len())
	}
	for name, want := range map[string]string{
		"Content-Type": "image/png", "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=31536000, immutable",
		"Content-Security-Policy": "default-src 'none'; sandbox", "Content-Length": "", "Cross-Origin-Resource-Policy": "cross-origin",
	} {
		if want == "" {
			want = w.Header().Get("Content-Length")
			if want == "" {
				t.Error("no Content-Length")
			}
		}
		if got := w.Header().Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if w := do(http.MethodHead, "/images/0123456789abcdef0123456789abcdef.png"); w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("HEAD: %d, %d bytes", w.Code, w.Body.Len())
	}
	for _, path := range []string{
		"/images/ffffffffffffffffffffffffffffffff.png", "/images/0123456789abcdef0123456789abcdef.svg",
		"/images/../secrets", "/images/0123456789ABCDEF0123456789abcdef.png", "/elsewhere/0123456789abcdef0123456789abcdef.png",
	} {
		if w := do(http.MethodGet, path); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, w.Code)
		}
	}
	if w := do(http.MethodPost, "/images/0123456789abcdef0123456789abcdef.png"); w.Code != http.StatusNotFound {
		t.Errorf("POST: %d, want 404", w.Code)
	}
	if w := do(http.MethodGet, "/images/00000000000000000000000000000000.png"); w.Code != http.StatusServiceUnavailable || strings.Contains(w.Body.String(), "disk") {
		t.Errorf("storage down: %d %q, want 503 without the error", w.Code, w.Body.String())
	}
	if got := images.URL("https://hub.example/", "images/0123456789abcdef0123456789abcdef.png"); got != "https://hub.example/images/0123456789abcdef0123456789abcdef.png" {
		t.Errorf("URL: %s", got)
	}
}
