package inbox

import (
	"bytes"
	"net/http"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/hubclient"
)

// ServePDF answers submission s of form as a PDF document to download,
// named after its id (see export.PDF), its time shown in loc: the admin
// API and the console print the same document. The document is made whole
// before the answer begins, so that a failure is answered as one.
func (in *Inbox) ServePDF(w http.ResponseWriter, r *http.Request, form *hub.Form, s hub.Submission, loc *time.Location) error {
	var buf bytes.Buffer
	if err := export.PDF(&buf, Printed(form, s, in.SchemaOf(r.Context(), form, s), loc)); err != nil {
		return hub.Internal("making a PDF", err)
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+s.ID+`.pdf"`)
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
	return p
}
