package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
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
	var mu sync.Mutex
	var askedParts bool
	var largestPut int64
	h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == http.MethodPut:
			largestPut = max(largestPut, r.ContentLength)
		case strings.HasSuffix(r.URL.Path, "/upload-url"):
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			askedParts = askedParts || bytes.Contains(body, []byte(`"parts":true`))
		}
		return false
	}
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
	// The fake knows no parts: it answers uploadUrl, and the kit uploads
	// nothing large to it.
	if r := report.Result("upload.parts"); r.Status != conformance.Info || !strings.Contains(r.Detail, "parts not offered") {
		t.Errorf("upload.parts: %+v, want info saying parts not offered", r)
	}
	if !askedParts || largestPut > 1<<10 {
		t.Errorf("asked for parts: %t; largest PUT %d bytes, want a few", askedParts, largestPut)
	}
}
