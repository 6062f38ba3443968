package conformance_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/conformance"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// TestFakeHubPasses runs the checks against fakehub's in-memory hub, so
// that the fake the library's tests trust cannot drift from the protocol.
func TestFakeHubPasses(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	var form hubclient.Schema
	if err := json.Unmarshal([]byte(conformance.Form), &form); err != nil {
		t.Fatal(err)
	}
	h.SetForm("acme", "conformance", &form)
	report, err := conformance.Run(context.Background(), conformance.Options{HubURL: h.URL, Site: "acme", Form: "conformance"})
	if err != nil {
		t.Fatal(err)
	}
	// The fake serves no names that need escaping and verifies no captcha.
	skipped := map[string]bool{"schema.escaped": true, "captcha.required": true}
	for _, r := range report.Results {
		if r.Status == conformance.Fail || r.Status == conformance.Skip && !skipped[r.ID] {
			t.Errorf("%s: %s %s", r.ID, r.Status, r.Detail)
		}
	}
}
