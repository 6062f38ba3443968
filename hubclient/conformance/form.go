package conformance

// Form is the conformance form: the fields the checks fill in, as a form
// file of this project's hub (hubform conformance --print-form prints it).
// A hub of another make needs a form with the same field names and types:
// "name" (text, required), "message" (textarea), "file" (file) and the
// honeypot "_hp", in one step. Its "hub" member, this project's hub's
// settings, raises the form's file limit to the 64 MiB of upload.parts and
// has the hub keep drafts of the form, of one step, for the drafts check.
const Form = `{
  "title": "Conformance",
  "description": "The form hubform conformance checks a hub with.",
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "file", "type": "file", "label": "File"},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [
    {"id": "all", "title": "All", "fields": ["name", "message", "file", "_hp"]}
  ],
  "hub": {"maxFileSize": 67108864, "resume": true}
}
`

// formFields are the fields the checks need, with their types.
var formFields = map[string]string{"name": "text", "message": "textarea", "file": "file", "_hp": "text"}

// The bodies the checks send.
const (
	fileName = "conformance.txt"
	fileMIME = "text/plain"
	fileBody = "hubform conformance check\n"
)

func validPayload() map[string]any {
	return map[string]any{"name": "Conformance check", "message": "Sent by hubform conformance."}
}
