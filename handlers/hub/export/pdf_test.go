package export

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// PDFText returns the text of the PDF doc as pdftotext (Debian's
// poppler-utils) reads it, its lines joined by single spaces, or fails the
// test.
func PDFText(t testing.TB, doc []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext is missing: apt-get install poppler-utils (make test installs it)")
	}
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, stderr.String())
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

func TestPDF(t *testing.T) {
	long := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 40)
	p := Printed{
		Title:     "Inscription à l'atelier",
		ID:        "01JDXYZ",
		CreatedAt: time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC),
		Location:  time.FixedZone("CET", 3600),
		Values: []Labeled{
			{"Nom complet", "Zoë Ångström-Ïñiguez"},
			{"Город", "Санкт-Петербург"},
			{"Μήνυμα", "Καλημέρα κόσμε\nsecond line"},
			{"Empty", ""},
			{"Long", long},
		},
		Files:       []hubclient.Attachment{{Filename: "résumé.pdf", Size: 123456}, {Filename: "photo.jpg", Size: 900}},
		SpamReasons: []string{"too many links"},
	}
	// Enough values to need a second page.
	for range 30 {
		p.Values = append(p.Values, Labeled{"Filler", "x"})
	}
	p.Values = append(p.Values, Labeled{"Last field", "the very end"})
	var buf bytes.Buffer
	if err := PDF(&buf, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", buf.Bytes()[:min(20, buf.Len())])
	}
	text := PDFText(t, buf.Bytes())
	for _, want := range []string{
		"Inscription à l'atelier",
		"Submission 01JDXYZ",
		"Received 21 November 2026, 11:30:00 CET",
		"Marked as spam: too many links",
		"Nom complet Zoë Ångström-Ïñiguez",
		"Город Санкт-Петербург",
		"Μήνυμα Καλημέρα κόσμε second line",
		"Empty —",
		"Files résumé.pdf (123.5 kB) photo.jpg (900 B)",
		"Last field the very end",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q:\n%s", want, text)
		}
	}
	// The long value is wrapped, not cut: every word is there.
	if got, want := strings.Count(text, "adipiscing"), 40; got != want {
		t.Errorf("the long value shows %d times the word of its 40 sentences", got)
	}
	info := exec.Command("pdfinfo", "-")
	info.Stdin = bytes.NewReader(buf.Bytes())
	out, err := info.Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`).FindSubmatch(out); m == nil || string(m[1]) == "1" {
		t.Errorf("pdfinfo says:\n%s\nwant more than one page", out)
	}
}

// TestPDFMissingGlyphs shows text in a script the fonts lack without
// failing, the rest of the value intact.
func TestPDFMissingGlyphs(t *testing.T) {
	var buf bytes.Buffer
	err := PDF(&buf, Printed{Title: "Form", ID: "1", CreatedAt: time.Unix(0, 0), Values: []Labeled{{"Name", "山田 Tarō"}}})
	if err != nil {
		t.Fatal(err)
	}
	if text := PDFText(t, buf.Bytes()); !strings.Contains(text, "Tarō") {
		t.Errorf("the PDF's text lacks the value's Latin part: %s", text)
	}
}
