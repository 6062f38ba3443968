package console

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"github.com/hubform/hubform/handlers/hub"
)

// qrPath is the QR code of the link to a form's page, as an SVG image, or
// a PNG with ?format=png, both downloadable.
func qrPath(site, slug string) string { return sharePath(site, slug) + "/qr" }

// qrQuiet is the white margin around a QR code, in modules: the four the
// standard asks for, without which phones read it badly on a dark page.
const qrQuiet = 4

// shareQR answers the QR code of the form's link on the hub, drawn by the
// server: the same link the Share tab shows, so a poster sends people
// where the page's link does.
func (con *Console) shareQR(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	if !form.Settings.Hosted() {
		// A code that leads to the hub's 404 is no code to print.
		return &hub.Error{Status: http.StatusNotFound, Message: "The form's page is turned off in its settings: it has no link to draw."}
	}
	p := shareProps{Site: form.Site, Slug: form.Slug, Hub: con.publicURL(c)}
	code, err := qr.Encode(p.hostedURL(), qr.M)
	if err != nil {
		return hub.Internal("drawing a QR code", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	name := form.Site + "-" + form.Slug + "-qr"
	if c.QueryParam("format") == "png" {
		code.Scale = 10
		h.Set("Content-Disposition", `attachment; filename="`+name+`.png"`)
		return c.Blob(http.StatusOK, "image/png", code.PNG())
	}
	if c.QueryParam("download") != "" {
		h.Set("Content-Disposition", `attachment; filename="`+name+`.svg"`)
	}
	return c.Blob(http.StatusOK, "image/svg+xml", qrSVG(code))
}

// qrSVG draws code as an SVG of one path, a unit square per dark module,
// on a white square with its quiet zone, which scales to any size.
func qrSVG(code *qr.Code) []byte {
	side := code.Size + 2*qrQuiet
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, side, side)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, side, side)
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+qrQuiet, y+qrQuiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes()
}
