package admin

import (
	"maps"
	"testing"
)

// OpenRouteTable lets every workspace token through every route of the
// route table, whatever its scope, until t ends, as a route table missing
// its needs would: what is still refused then is refused by the services
// of package manage.
func OpenRouteTable(t *testing.T) {
	saved := maps.Clone(routeAccess)
	for route, need := range routeAccess {
		need.scope = anyScope
		routeAccess[route] = need
	}
	t.Cleanup(func() { maps.Copy(routeAccess, saved) })
}
