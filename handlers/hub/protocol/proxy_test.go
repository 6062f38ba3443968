package protocol_test

import (
	"net"
	"testing"

	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// TestTrustedProxiesOnlyListed checks whose X-Forwarded-For the hub
// believes: the listed networks' only, not loopback, private or
// link-local networks as Echo would by default, and of a chain the
// right-most address no listed proxy vouches for, since what comes before
// it is what the visitor sent. The harness's requests come from 127.0.0.1.
func TestTrustedProxiesOnlyListed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []string
		xff     string
		want    string
	}{
		{"loopback not trusted unless listed", []string{"10.0.0.0/8"}, "203.0.113.7", "127.0.0.1"},
		{"listed proxy", []string{"127.0.0.1/32"}, "203.0.113.7", "203.0.113.7"},
		{"visitor's own hops before the proxy's", []string{"127.0.0.1/32"}, "198.51.100.66, 203.0.113.7", "203.0.113.7"},
		{"private network not trusted unless listed", []string{"127.0.0.1/32"}, "203.0.113.7, 10.1.2.3", "10.1.2.3"},
		{"link-local not trusted unless listed", []string{"127.0.0.1/32"}, "203.0.113.7, 169.254.1.1", "169.254.1.1"},
		{"a chain of listed proxies", []string{"127.0.0.1/32", "10.0.0.0/8"}, "198.51.100.66, 203.0.113.7, 10.1.2.3", "203.0.113.7"},
		{"not an address", []string{"127.0.0.1/32"}, "somewhere", "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nets []*net.IPNet
			for _, cidr := range tc.trusted {
				_, n, err := net.ParseCIDR(cidr)
				if err != nil {
					t.Fatal(err)
				}
				nets = append(nets, n)
			}
			h := newHarness(t, func(c *protocol.Config) { c.TrustedProxies = nets })
			h.submit("contact", hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}},
				"X-Forwarded-For: "+tc.xff).wantOK(t)
			var got []string
			for _, s := range h.Submissions() {
				got = append(got, s.ClientAddr)
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("X-Forwarded-For %q through %v: stored clients %q, want %s", tc.xff, tc.trusted, got, tc.want)
			}
		})
	}
}
