package console_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// decodeQR reads the text of the QR code in img, as a phone's camera does.
func decodeQR(t *testing.T, img image.Image) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return res.GetText()
}

// svgModule is one dark module of the console's QR SVG, "Mx yh1v1h-1z".
var svgModule = regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`)

// rasterSVG draws the console's QR SVG at 8 pixels a module: its white
// square, as its viewBox says, and the modules of its path.
func rasterSVG(t *testing.T, body []byte) image.Image {
	t.Helper()
	var svg struct {
		ViewBox string `xml:"viewBox,attr"`
		Rect    struct {
			Fill string `xml:"fill,attr"`
		} `xml:"rect"`
		Path struct {
			D    string `xml:"d,attr"`
			Fill string `xml:"fill,attr"`
		} `xml:"path"`
	}
	if err := xml.Unmarshal(body, &svg); err != nil {
		t.Fatalf("not an SVG: %v: %s", err, body)
	}
	box := strings.Fields(svg.ViewBox)
	if len(box) != 4 || box[2] != box[3] || svg.Rect.Fill != "#fff" || svg.Path.Fill != "#000" {
		t.Fatalf("not a black QR code on a white square: %s", body)
	}
	side, _ := strconv.Atoi(box[2])
	const scale = 8
	img := image.NewGray(image.Rect(0, 0, side*scale, side*scale))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for _, m := range svgModule.FindAllStringSubmatch(svg.Path.D, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		for dy := range scale {
			for dx := range scale {
				img.SetGray(x*scale+dx, y*scale+dy, color.Gray{})
			}
		}
	}
	return img
}

// TestShareQR checks the QR code of a form's link: on the Share tab with
// its downloads, an SVG and a PNG that both read as the link the tab
// shows, for a form whose page is on; for signed-in members of the form's
// workspace alone: signed out the console asks to sign in, another
// workspace's member gets 404, as for a form that does not exist.
func TestShareQR(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) { cfg.PublicURL = "https://forms.example.com" })
	const link = "https://forms.example.com/f/acme/contact"
	qr := console.Path + "/forms/acme/contact/share/qr"

	anon := tc.browser()
	if res := anon.get(qr); res.status == http.StatusOK || strings.Contains(res.header.Get("Content-Type"), "image") {
		t.Errorf("signed out, the QR code: %d %s", res.status, res.header.Get("Content-Type"))
	}

	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	page := b.get(console.Path + "/forms/acme/contact/share")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page.body))
	if err != nil {
		t.Fatal(err)
	}
	img := doc.Find("#share-qr img")
	if img.AttrOr("src", "") != qr || !strings.Contains(img.AttrOr("alt", ""), link) {
		t.Errorf("the share tab's QR code: src %q alt %q", img.AttrOr("src", ""), img.AttrOr("alt", ""))
	}
	if doc.Find(`#share-qr a[href="`+qr+`?format=png"][download]`).Length() != 1 || doc.Find(`#share-qr a[href="`+qr+`?download=1"][download]`).Length() != 1 {
		t.Errorf("the share tab offers no download of the QR code: %s", page.body)
	}

	res := b.get(qr)
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "image/svg+xml" || res.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("QR SVG: %d %v", res.status, res.header)
	}
	if got := decodeQR(t, rasterSVG(t, []byte(res.body))); got != link {
		t.Errorf("the SVG reads %q, want %q", got, link)
	}
	if res := b.get(qr + "?download=1"); !strings.Contains(res.header.Get("Content-Disposition"), `attachment; filename="acme-contact-qr.svg"`) {
		t.Errorf("the SVG's download: %v", res.header)
	}
	res = b.get(qr + "?format=png")
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "image/png" || !strings.Contains(res.header.Get("Content-Disposition"), `filename="acme-contact-qr.png"`) {
		t.Fatalf("QR PNG: %d %v", res.status, res.header)
	}
	pic, err := png.Decode(bytes.NewReader([]byte(res.body)))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got := decodeQR(t, pic); got != link {
		t.Errorf("the PNG reads %q, want %q", got, link)
	}
	if res := b.get(console.Path + "/forms/acme/nosuch/share/qr"); res.status != http.StatusNotFound {
		t.Errorf("the QR code of no form: %d", res.status)
	}

	// A form whose page is off has no link to draw.
	if _, err := tc.db.SaveFormVersion(t.Context(), "acme", "inapp", []byte(`{"title":"In app","fields":[{"name":"x","type":"text"}],"steps":[{"id":"a","fields":["x"]}],"hub":{"hostedPage":false}}`), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := b.get(console.Path + "/forms/acme/inapp/share/qr"); res.status != http.StatusNotFound {
		t.Errorf("the QR code of a form whose page is off: %d", res.status)
	}

	// A member of another workspace.
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "olga@example.com", PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "rival", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	olga := tc.browser()
	olga.signIn("olga@example.com", janePassword)
	if res := olga.get(qr); res.status != http.StatusNotFound || strings.Contains(res.header.Get("Content-Type"), "image") {
		t.Errorf("another workspace's member gets the QR code: %d %s", res.status, res.header.Get("Content-Type"))
	}
}

// TestShareLayout checks the Share tab's order: the ways for owners (the
// link, the embed script's three, the frame, the plain form) open, each with a copy button and its
// live region, and the developers' ways folded under "For developers";
// and that the frame's section says who may show it, with a link to the
// setting that restricts it.
func TestShareLayout(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) { cfg.PublicURL = "https://forms.example.com" })
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	res := b.get(console.Path + "/forms/acme/contact/share")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	doc.Find("main figure.console-snippet code").Each(func(_ int, s *goquery.Selection) {
		id := s.AttrOr("id", "?")
		open := s.Closest("details").Length() == 0
		order = append(order, id+":"+strconv.FormatBool(open))
		// Without JavaScript the button stays hidden and the text selectable.
		if fig := s.Closest("figure"); fig.Find(`button[data-copy="`+id+`"][hidden]`).Length() != 1 || fig.Find(`[role="status"]#`+id+`-status`).Length() != 1 ||
			fig.Find(`pre[tabindex="0"]`).Length() != 1 {
			t.Errorf("snippet %s has no copy button or live region", id)
		}
	})
	want := "share-link:true share-inline:true share-popup:true share-slide:true share-iframe:true share-html:true share-go:false share-templ:false share-gen:false"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("snippets %s, want %s", got, want)
	}
	if s := doc.Find("details#developers > summary").Text(); s != "For developers" {
		t.Errorf("the developers' summary: %q", s)
	}
	if doc.Find("details#developers[open]").Length() != 0 {
		t.Error("the developers' ways are not folded")
	}
	if !strings.Contains(doc.Find("#embed-any").Text(), "Any site may show the frame.") ||
		doc.Find(`#embed-any a[href="`+console.Path+`/forms/acme/contact/settings#origins"]`).Length() != 1 {
		t.Errorf("the frame's section: %s", doc.Find("#embed-any").Text())
	}
}

// TestShareEmbed fills in the embed script's snippets with the hub's
// address and the form, each holding a link to the form's page for
// browsers without JavaScript, and previews the form as a site shows it:
// in frame mode, and by links that open the popup and the panel. A form
// not yet published has the snippets and no preview.
func TestShareEmbed(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) { cfg.PublicURL = "https://forms.example.com" })
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	res := b.get(console.Path + "/forms/acme/contact/share")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	if err != nil {
		t.Fatal(err)
	}
	script := `<script async src="https://forms.example.com/embed.js"></script>`
	link := `<a href="https://forms.example.com/f/acme/contact"`
	for id, wants := range map[string][]string{
		"share-inline": {script, `<div data-hubform="acme/contact">` + link + `>`, "data-hubform-prefill"},
		"share-popup":  {script, link + ` data-hubform-open="acme/contact">`, "data-hubform-after", "data-hubform-scroll", "data-hubform-exit", "data-hubform-once"},
		"share-slide":  {script, link + ` data-hubform-open="acme/contact" data-hubform-layout="slide">`},
	} {
		code := doc.Find("code#" + id).Text()
		for _, want := range wants {
			if !strings.Contains(code, want) {
				t.Errorf("%s lacks %s:\n%s", id, want, code)
			}
		}
	}
	if !strings.Contains(doc.Find("#embed").Text(), "https://forms.example.com to its script-src and frame-src") {
		t.Errorf("the embed section names no sources for a policy: %s", doc.Find("#embed").Text())
	}
	frame := doc.Find(`#embed .console-embed-preview[data-hubform="acme/contact"] iframe`)
	if frame.AttrOr("src", "") != "/f/acme/contact?embed=1" || frame.AttrOr("title", "") == "" {
		t.Errorf("the preview frame: %v", frame.Nodes)
	}
	if doc.Find(`#embed a[href="https://forms.example.com/f/acme/contact"][data-hubform-open="acme/contact"]`).Length() != 2 ||
		doc.Find(`#embed a[data-hubform-layout="slide"]`).Length() != 1 || doc.Find(`#embed script[src="/embed.js"][async]`).Length() != 1 {
		t.Errorf("the preview's popup links: %s", res.body)
	}

	if _, err := tc.db.SaveFormVersion(context.Background(), "acme", "unpublished", []byte(`{"title":"Unpublished","fields":[{"name":"x","type":"text"}],"steps":[{"id":"a","fields":["x"]}]}`), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	res = b.get(console.Path + "/forms/acme/unpublished/share")
	if !strings.Contains(res.body, `id="share-inline"`) || strings.Contains(res.body, "console-embed-preview") {
		t.Errorf("an unpublished form's embed section: %s", res.body)
	}
}
