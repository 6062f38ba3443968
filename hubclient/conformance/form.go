package conformance

// Form is the conformance form: the fields the checks fill in, as a form
// file of this project's hub (hubform conformance --print-form prints it).
// A hub of another make needs a form with the same field names and types:
// "name" (text, required), "message" (textarea), "file" (file) and the
// honeypot "_hp", in one step. The other fields are optional, one group
// per family of types a hub may support or not (see the types.* checks):
// "stars" (rating), "ease" (scale, 1 to 5), "nps" (nps) and "amount"
// (slider, 0 to 100 in steps of 10); "callAt" (time) and "meetAt"
// (datetime); "order" (ranking of a, b and c); "look" (radio whose options
// light and dark carry an image and its alt); "grid" (matrix of rows speed
// and care, columns bad and good), "ship" (address in FR or DE) and "team"
// (group of at most two items of a text "guest"); "sig" (signature);
// "intro" (heading), "note" (paragraph) and "rule" (divider). It is a
// quiz whose calculation "score" is the points of look's answer (light 1,
// dark 2), for the calculations check. Its "hub" member, this project's
// hub's settings, raises the form's file limit to the 64 MiB of
// upload.parts and has the hub keep drafts of the form, of one step, for
// the drafts check.
const Form = `{
  "title": "Conformance",
  "description": "The form hubform conformance checks a hub with.",
  "fields": [
    {"name": "intro", "type": "heading", "text": "Conformance"},
    {"name": "note", "type": "paragraph", "text": "Filled in by *hubform conformance*."},
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "file", "type": "file", "label": "File"},
    {"name": "stars", "type": "rating", "label": "Stars", "max": 5},
    {"name": "ease", "type": "scale", "label": "Ease", "min": 1, "max": 5},
    {"name": "nps", "type": "nps", "label": "Recommend"},
    {"name": "amount", "type": "slider", "label": "Amount", "min": 0, "max": 100, "step": 10},
    {"name": "callAt", "type": "time", "label": "Call at"},
    {"name": "meetAt", "type": "datetime", "label": "Meet at"},
    {"name": "order", "type": "ranking", "label": "Order", "options": [{"value": "a"}, {"value": "b"}, {"value": "c"}]},
    {"name": "look", "type": "radio", "label": "Look", "options": [
      {"value": "light", "label": "Light", "image": "https://example.com/light.png", "alt": "A light page", "points": 1},
      {"value": "dark", "label": "Dark", "image": "https://example.com/dark.png", "alt": "A dark page", "points": 2}]},
    {"name": "grid", "type": "matrix", "label": "Rate", "rows": [{"value": "speed"}, {"value": "care"}], "columns": [{"value": "bad"}, {"value": "good"}]},
    {"name": "ship", "type": "address", "label": "Ship to", "countries": ["FR", "DE"]},
    {"name": "team", "type": "group", "label": "Team", "maxItems": 2, "fields": [{"name": "guest", "type": "text", "label": "Guest"}]},
    {"name": "sig", "type": "signature", "label": "Signature"},
    {"name": "rule", "type": "divider"},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [
    {"id": "all", "title": "All", "fields": ["intro", "note", "name", "message", "file", "stars", "ease", "nps", "amount",
      "callAt", "meetAt", "order", "look", "grid", "ship", "team", "sig", "rule", "_hp"]}
  ],
  "calculations": [{"name": "score", "expr": {"points": "look"}}],
  "quiz": {},
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
