package inbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// TestPDFName names a PDF after the form, the day in the reader's time
// zone and the person, with nothing a file system refuses.
func TestPDFName(t *testing.T) {
	schema := &hubclient.Schema{Title: "Order form", Fields: []hubclient.Field{
		{Name: "email", Type: hubclient.FieldEmail},
		{Name: "company", Type: hubclient.FieldText, Label: "Company"},
		{Name: "who", Type: hubclient.FieldText, Label: "Your name"},
	}}
	form := &hub.Form{Site: "acme", Slug: "order", Schema: schema}
	at := time.Date(2026, 11, 28, 23, 30, 0, 0, time.UTC)
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	for _, tt := range []struct{ payload, want string }{
		{`{"who":"Ada Lovelace","email":"ada@example.com","company":"Engines"}`, "Order form – 2026-11-29 – Ada Lovelace.pdf"},
		{`{"who":"","email":"ada@example.com"}`, "Order form – 2026-11-29 – ada@example.com.pdf"},
		{`{}`, "Order form – 2026-11-29.pdf"},
		{`{"who":"../../etc/pa:ss\u0000wd \"x\" <y>|"}`, "Order form – 2026-11-29 – .. .. etc pa ss wd x y.pdf"},
	} {
		s := hub.Submission{ID: "S1", CreatedAt: at, Payload: json.RawMessage(tt.payload)}
		if got := PDFName(form, s, schema, tokyo); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.payload, got, tt.want)
		}
	}
	if got, want := attachment("Order form – Zoë.pdf"), `attachment; filename="Order form - Zo_.pdf"; filename*=UTF-8''Order%20form%20%E2%80%93%20Zo%C3%AB.pdf`; got != want {
		t.Errorf("attachment: %q, want %q", got, want)
	}
}
