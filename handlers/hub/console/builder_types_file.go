package console

import (
	"net/url"

	"github.com/hubform/hubform/hubclient"
)

// A file upload's settings: whether it takes several files.

// editFile sets whether the field takes several files, as its box says:
// a box unticked posts nothing.
func editFile(f *hubclient.Field, _ int, form url.Values) []error {
	f.Multiple = form.Get("multiple") != ""
	return nil
}
