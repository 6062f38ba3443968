package hosted_test

import (
	"strings"
	"testing"
)

// picturesForm shows a picture and options with pictures, from two other
// sites, one of them twice.
const picturesForm = `{
  "title": "Pick a mug",
  "fields": [
    {"name": "shop", "type": "image", "src": "https://img.example/shop.png", "alt": "Our shop"},
    {"name": "mug", "type": "radio", "label": "Mug", "options": [
      {"value": "red", "label": "Red", "image": "https://cdn.example/red.png", "alt": "A red mug"},
      {"value": "blue", "label": "Blue", "image": "https://cdn.example/blue.png", "alt": "A blue mug"}]}
  ],
  "steps": [{"id": "main", "fields": ["shop", "mug"]}],
  "theme": {"logo": {"src": "https://brand.example/logo.svg", "alt": "Mugs & Co"}, "cover": {"src": "https://cdn.example/cover.jpg"}}
}`

// TestPagePictures: the hosted page's policy lets the browser load the
// form's own pictures, its logo and cover too, from where the owner put
// them, and no others.
func TestPagePictures(t *testing.T) {
	t.Parallel()
	h := startHub(t, map[string]string{"acme/mugs": picturesForm, "acme/plain": `{"title": "Plain", "fields": [{"name": "a", "type": "text"}]}`})
	page := h.get("/f/acme/mugs")
	if policy := page.header.Get("Content-Security-Policy"); !strings.Contains(policy, "img-src 'self' data: https://brand.example https://cdn.example https://img.example;") {
		t.Errorf("policy %q does not let the form's pictures load", policy)
	}
	if policy := h.get("/f/acme/plain").header.Get("Content-Security-Policy"); !strings.Contains(policy, "img-src 'self' data:;") {
		t.Errorf("a form without pictures lets the page load others: %q", policy)
	}
}
