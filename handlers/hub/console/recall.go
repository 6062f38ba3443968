package console

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// asWrittenForm renders the preview's form with its texts as written,
// "Thanks, {{name}}": the owner edits them where they stand, and sees
// which answers they recall.
func asWrittenForm(c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return c.Render(components.WithTextsAsWritten(ctx), w)
	})
}

// recallAttrs are what recall.js needs of a field's card to offer the
// answers a text of the field may show: data-page, the number of the
// field's page, and data-recallable, the page from which its answer is
// known (0 for a hidden field, known from the start), on a field whose
// answer a text may show (not content, files or honeypots).
func recallAttrs(s *hubclient.Schema, f *hubclient.Field) templ.Attributes {
	page := stepNumber(s, stepOf(s, f.Name))
	attrs := templ.Attributes{"data-page": strconv.Itoa(page)}
	if f.TypeOf().HasValue() && !f.TypeOf().IsFiles() && !hubclient.IsHoneypot(f.Name) {
		if f.Type == hubclient.FieldHidden {
			page = 0
		}
		attrs["data-recallable"] = strconv.Itoa(page)
	}
	return attrs
}
