package console

import (
	"maps"
	"testing"
)

// OpenRouteTable lets every signed-in user through every route of the
// route table until t ends, as a route table missing its needs would:
// what is still refused then is refused by the services of package manage.
func OpenRouteTable(t *testing.T) {
	saved := maps.Clone(routeRoles)
	for route := range routeRoles {
		routeRoles[route] = signedIn
	}
	t.Cleanup(func() { maps.Copy(routeRoles, saved) })
}

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
