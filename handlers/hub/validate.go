package hub

import "github.com/hubform/hubform/hubclient"

// ShapeProblems returns a message per name of the payload that is no field
// of the schema or holds a file, and per attachment's field that is no file
// field: what a submission and a draft alike may not carry. It is
// hubclient.ShapeProblems.
func ShapeProblems(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) map[string]string {
	return hubclient.ShapeProblems(schema, payload, attachments)
}

// ValidatePayload checks the payload and the attachments' fields against
// the schema, its rules and its conditions, and returns a message per
// offending field, or nil; the values of hidden fields are dropped, the
// others left as the hub keeps them. It is hubclient.CheckPayload, which
// fakes of a hub run too, so that they judge values as the hub does.
func ValidatePayload(schema *hubclient.Schema, payload map[string]any, attachments *[]hubclient.Attachment) map[string]string {
	return hubclient.CheckPayload(schema, payload, attachments)
}
