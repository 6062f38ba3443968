package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/hubform/hubform/hubclient"
)

// Printed is a submission as its PDF shows it.
type Printed struct {
	// Title is the form's title.
	Title     string
	ID        string
	CreatedAt time.Time
	// Location is the time zone CreatedAt is shown in; nil means UTC.
	Location *time.Location
	// Values are the submission's values under their labels, in order.
	Values []Labeled
	// Files are the submission's files, named with their sizes: the files
	// themselves are not in the PDF.
	Files []hubclient.Attachment
	// SpamReasons, when set, say why the hub flagged the submission.
	SpamReasons []string
}

// Labeled is one value under its field's label.
type Labeled struct{ Label, Value string }

// Page geometry of the PDF, in points: A4 with 2 cm margins.
const (
	pdfMargin   = 56.7
	pdfWidth    = 595.28 - 2*pdfMargin
	pdfBottom   = 841.89 - pdfMargin
	pdfFontBody = "go"
	pdfFontBold = "go-bold"
)

// PDF writes p as a PDF document of A4 pages: the form's title, the
// submission's id and time, its values under their labels and the names
// and sizes of its files. The text is in the Go fonts, embedded, which
// cover Latin, Greek and Cyrillic scripts; a character they lack is
// replaced, and the rest of its text shown.
func PDF(w io.Writer, p Printed) error {
	doc := &pdfWriter{pdf: &gopdf.GoPdf{}}
	doc.pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	doc.pdf.SetInfo(gopdf.PdfInfo{Title: p.Title + " · " + p.ID, Creator: "hubform", CreationDate: p.CreatedAt})
	doc.pdf.SetMargins(pdfMargin, pdfMargin, pdfMargin, pdfMargin)
	if err := doc.pdf.AddTTFFontData(pdfFontBody, goregular.TTF); err != nil {
		return fmt.Errorf("pdf: font: %w", err)
	}
	if err := doc.pdf.AddTTFFontData(pdfFontBold, gobold.TTF); err != nil {
		return fmt.Errorf("pdf: font: %w", err)
	}
	doc.pdf.AddPage()
	doc.pdf.SetY(pdfMargin)

	loc := p.Location
	if loc == nil {
		loc = time.UTC
	}
	doc.text(pdfFontBold, 18, 0, p.Title)
	doc.space(4)
	doc.text(pdfFontBody, 10, 110, "Submission "+p.ID)
	doc.text(pdfFontBody, 10, 110, "Received "+p.CreatedAt.In(loc).Format("2 January 2006, 15:04:05 MST"))
	if len(p.SpamReasons) > 0 {
		doc.text(pdfFontBody, 10, 110, "Marked as spam: "+strings.Join(p.SpamReasons, "; "))
	}
	doc.space(14)
	for _, v := range p.Values {
		doc.text(pdfFontBold, 10, 90, v.Label)
		value := v.Value
		if value == "" {
			value = "—"
		}
		doc.text(pdfFontBody, 12, 0, value)
		doc.space(8)
	}
	if len(p.Files) > 0 {
		doc.space(6)
		doc.text(pdfFontBold, 12, 0, "Files")
		for _, f := range p.Files {
			doc.text(pdfFontBody, 12, 0, f.Filename+" ("+ByteSize(f.Size)+")")
		}
	}
	if doc.err != nil {
		return fmt.Errorf("pdf: %w", doc.err)
	}
	_, err := doc.pdf.WriteTo(w)
	return err
}

// pdfWriter writes lines of text down the pages, keeping the first error.
type pdfWriter struct {
	pdf *gopdf.GoPdf
	err error
}

// text writes s in the font at size and gray level (0 is black), wrapped
// to the page's width, each of its lines on lines of their own.
func (d *pdfWriter) text(font string, size float64, gray uint8, s string) {
	if d.err != nil {
		return
	}
	if d.err = d.pdf.SetFont(font, "", size); d.err != nil {
		return
	}
	d.pdf.SetTextColor(gray, gray, gray)
	lineHeight := size * 1.35
	for _, para := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		lines := []string{""}
		if strings.TrimSpace(para) != "" {
			if lines, d.err = d.pdf.SplitTextWithWordWrap(para, pdfWidth); d.err != nil {
				return
			}
		}
		for _, line := range lines {
			if d.pdf.GetY()+lineHeight > pdfBottom {
				d.pdf.AddPage()
				d.pdf.SetY(pdfMargin)
			}
			d.pdf.SetX(pdfMargin)
			if line != "" {
				if d.err = d.pdf.Cell(&gopdf.Rect{W: pdfWidth, H: lineHeight}, line); d.err != nil {
					return
				}
			}
			d.pdf.SetY(d.pdf.GetY() + lineHeight)
		}
	}
}

// space leaves h points blank.
func (d *pdfWriter) space(h float64) { d.pdf.SetY(d.pdf.GetY() + h) }

// ByteSize is n bytes for people: 512 B, 1.2 kB, 3.4 MB.
func ByteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}
