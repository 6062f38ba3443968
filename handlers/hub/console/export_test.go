package console

import "testing"

// OpenRoutes lets any signed-in user through authorize on routes until t
// ends: what a route table that forgot them would do.
func OpenRoutes(t testing.TB, routes ...string) {
	for _, r := range routes {
		was, ok := routeRoles[r]
		if !ok {
			t.Fatalf("no route %s", r)
		}
		routeRoles[r] = signedIn
		t.Cleanup(func() { routeRoles[r] = was })
	}
}
