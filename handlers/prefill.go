package handlers

import (
	"net/url"

	"github.com/hubform/hubform/hubclient"
)

// prefill returns the values of query that prefill a form of schema:
// hidden fields and fields marked "prefill", by name, each value checked
// against its field's rules as a typed one is, and dropped when it breaks
// one (hubclient.Logic.Prefill). Other names are never taken from the
// query: a link cannot put words into a visitor's message.
func prefill(schema *hubclient.Schema, query url.Values) url.Values {
	asked := false
	for key := range query {
		// A composite field is prefilled by part: "?addr.country=FR".
		if f := schema.KeyOf(key); f != nil && f.Prefillable() {
			asked = true
			break
		}
	}
	if !asked {
		return nil
	}
	logic, err := hubclient.Compile(schema)
	if err != nil {
		return nil
	}
	return logic.Prefill(query)
}
