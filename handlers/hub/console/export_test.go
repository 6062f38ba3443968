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
