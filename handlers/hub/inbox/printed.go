package inbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/hubclient"
)

// ServePDF answers submission s of form as a PDF document to download,
// named after the form, the day and the person (see PDFName), its time
// shown in loc (see export.PDF): the admin
// API and the console print the same document. The document is made whole
// before the answer begins, so that a failure is answered as one.
func (in *Inbox) ServePDF(w http.ResponseWriter, r *http.Request, form *hub.Form, s hub.Submission, loc *time.Location) error {
	var buf bytes.Buffer
	schema := in.SchemaOf(r.Context(), form, s)
	if err := export.PDF(&buf, Printed(form, s, schema, loc)); err != nil {
		return hub.Internal("making a PDF", err)
	}
	w.Header().Set("Content-Disposition", attachment(PDFName(form, s, schema, loc)))
	w.Header().Set("Content-Type", "application/pdf")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(buf.Bytes())
	return err
}

// Printed is s as its PDF shows it: its values under the labels of
// schema, that of the form version it was sent to, and its time in loc.
func Printed(form *hub.Form, s hub.Submission, schema *hubclient.Schema, loc *time.Location) export.Printed {
	p := export.Printed{Title: Title(form), ID: s.ID, CreatedAt: s.CreatedAt, Location: loc,
		Files: s.Attachments, SpamReasons: s.SpamReasons}
	for _, v := range Values(s.Payload, Labels(schema)) {
		p.Values = append(p.Values, export.Labeled{Label: v.Label, Value: v.Value})
	}
	if schema != nil {
		for _, c := range schema.Calculated(s.Calculations, "") {
			p.Values = append(p.Values, export.Labeled{Label: c.Label, Value: c.Text})
		}
	}
	return p
}

// PDFName is the file name of s's PDF: the form's title, the day it was
// sent in loc and the person who sent it, when a question asks their
// name or address, such as "Order form – 2026-11-28 – Ada Lovelace.pdf";
// a character a file system or a header would refuse is replaced.
func PDFName(form *hub.Form, s hub.Submission, schema *hubclient.Schema, loc *time.Location) string {
	parts := []string{Title(form), s.CreatedAt.In(loc).Format(time.DateOnly)}
	if who := person(s, schema); who != "" {
		parts = append(parts, who)
	}
	name := safeFileName(strings.Join(parts, " – "))
	return name + ".pdf"
}

// person returns who sent s: the answer to the first text question whose
// name or label speaks of a name, else to the first e-mail question.
func person(s hub.Submission, schema *hubclient.Schema) string {
	if schema == nil {
		return ""
	}
	var m map[string]any
	json.Unmarshal(s.Payload, &m)
	answer := func(f hubclient.Field) string {
		v, _ := m[f.Name].(string)
		return strings.TrimSpace(v)
	}
	for _, f := range schema.Fields {
		named := strings.Contains(strings.ToLower(f.Name), "name") || strings.Contains(strings.ToLower(f.Label), "name")
		if f.Type == hubclient.FieldText && named && answer(f) != "" {
			return answer(f)
		}
	}
	for _, f := range schema.Fields {
		if f.Type == hubclient.FieldEmail && answer(f) != "" {
			return answer(f)
		}
	}
	return ""
}

// safeFileName replaces in s what a file name may not hold on common
// systems (/ \ : * ? " < > | and control characters) with a space,
// collapses spaces and keeps at most 150 characters.
func safeFileName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r) || !utf8.ValidRune(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 150 {
		s = strings.TrimSpace(string(r[:150]))
	}
	s = strings.Trim(s, ". ")
	if s == "" {
		return "submission"
	}
	return s
}

// attachment is a Content-Disposition header naming a download: an ASCII
// name for old clients, and the name itself in filename* (RFC 6266).
func attachment(name string) string {
	ascii := strings.Map(func(r rune) rune {
		switch {
		case r == '–' || r == '—':
			return '-'
		case r >= 0x80:
			return '_'
		}
		return r
	}, name)
	var enc strings.Builder
	for _, b := range []byte(name) {
		if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte("!#$&+-.^_`|~", b) >= 0 {
			enc.WriteByte(b)
		} else {
			fmt.Fprintf(&enc, "%%%02X", b)
		}
	}
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + enc.String()
}
