package hosted_test

import (
	"net/http"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestDraftLinkAtThePublicURL checks that the page a draft's link opens is
// the form's page at the hub's public URL, whatever Host a proxy in front
// of the hub sends.
func TestDraftLinkAtThePublicURL(t *testing.T) {
	h := startHub(t, map[string]string{"acme/trip": `{"fields": [{"name": "name", "type": "text"}, {"name": "city", "type": "text"}],
		"steps": [{"id": "who", "fields": ["name"]}, {"id": "where", "fields": ["city"]}]}`})
	req, err := http.NewRequest(http.MethodGet, h.Server.URL+"/f/acme/trip?locale=de&draft=old", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "10.0.0.9:8081" // as a proxy that rewrites Host sends it
	a := h.send(req)
	if a.doc == nil {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	page, _ := a.doc.Find("input[name=" + hubclient.DraftPageField + "]").Attr("value")
	if want := h.Server.URL + "/f/acme/trip?locale=de"; page != want {
		t.Errorf("the link opens %q, want %q", page, want)
	}
}
