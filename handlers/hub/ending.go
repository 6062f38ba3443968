package hub

import (
	"context"

	"github.com/hubform/hubform/hubclient"
)

// EndingOf returns the id of the ending of schema that a submission's
// values reach, "" for none: payload as ValidatePayload left it (the
// values of hidden fields dropped) and the attachments, each file field
// seen as the list of its files, as conditions see it. The hub decides
// it; a client is told, and whatever it sends is not read.
func EndingOf(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) string {
	if len(schema.Endings) == 0 {
		return ""
	}
	// A schema whose conditions do not parse was refused when stored; one
	// that slipped through reaches no ending whose condition is broken.
	logic, _ := hubclient.Compile(schema)
	if e := logic.Ending(hubclient.WithFiles(payload, attachments)); e != nil {
		return e.ID
	}
	return ""
}

// EndingReader is a Store that reads back the ending a stored submission
// reached (sqldb.DB), so that the hub answers a repeated submission with
// it as it did the first.
type EndingReader interface {
	// SubmissionEnding returns the ending the submission of site and slug
	// with the id reached, "" for none, or an error wrapping ErrNotFound.
	SubmissionEnding(ctx context.Context, site, slug, id string) (string, error)
}
