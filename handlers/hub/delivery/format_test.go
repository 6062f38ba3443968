package delivery

import (
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestFormatComposite: an e-mail writes a matrix's rows and an address's
// lines one a line, in words.
func TestFormatComposite(t *testing.T) {
	grid := hubclient.Field{Name: "grid", Type: hubclient.FieldMatrix, Rows: []hubclient.Option{{Value: "speed", Label: "Speed"}},
		Columns: []hubclient.Option{{Value: "good", Label: "Good"}}}
	if got := formatValue(grid, map[string]any{"speed": "good"}); got != "Speed: Good" {
		t.Errorf("matrix: %q", got)
	}
	addr := hubclient.Field{Name: "ship", Type: hubclient.FieldAddress}
	if got := formatValue(addr, map[string]any{"line1": "1 Main St", "city": "Boston", "region": "MA", "country": "US"}); got != "1 Main St\nBoston\nMA\nUS" {
		t.Errorf("address: %q", got)
	}
}
