package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// check is one rule: its id, what it checks, where the protocol reference says so, and
// the function that observes it.
type check struct {
	id, checks, section string
	run                 func(*run, context.Context) (Status, string)
}

// checks run in this order; later ones use what earlier ones learned.
var checks = []check{
	{"schema.route", "GET {base}.json with accept: application/json answers a JSON object with fields and steps", "§2.2, §4", (*run).schemaRoute},
	{"schema.form", "the form under test has the conformance form's fields (hubform conformance --print-form)", "§2.2", (*run).schemaForm},
	{"schema.escaped", "a site and a form whose names need escaping are served, each segment escaped", "§4", (*run).schemaEscaped},
	{"schema.unknown", "the schema route of an unknown form answers outside 2xx", "§3, §7", (*run).schemaUnknown},
	{"submit.form-encoded", "a form-encoded POST to {base}/submit answers 415", "§4 rule 1, §7", (*run).submitFormEncoded},
	{"submit.malformed", "a submit body that is not JSON is refused with 4xx", "§4", (*run).submitMalformed},
	{"submit.no-payload", "a submit body without a nested payload object is refused with 4xx", "§2.6, §4 rule 1", (*run).submitNoPayload},
	{"submit.valid", `a valid submission answers 2xx with {"ok": true}`, "§2.6, §2.7", (*run).submitValid},
	{"submit.honeypot", "a filled honeypot (_hp at the top level) answers 200 and the submission is not stored", "§2.8, §4 rule 2, §7", (*run).submitHoneypot},
	{"captcha.required", "when the schema names a captcha provider, a submission without a token is refused", "§2.2, §4 captcha wiring", (*run).captchaRequired},
	{"types.ratings", "with rating, scale, nps and slider fields (stars, ease, nps, amount), their values are accepted and values out of bounds refused (optional: a form without them gets skip, not supported)", "§2.2, SCHEMA.md field types", (*run).typesRatings},
	{"types.datetime", "with time and datetime fields (callAt, meetAt), HH:MM and YYYY-MM-DDTHH:MM are accepted and other texts refused (optional)", "§2.2, SCHEMA.md field types", (*run).typesDateTimes},
	{"types.ranking", "with a ranking field (order), every option once in order is accepted, an option missing, twice or unknown refused (optional)", "§2.2, SCHEMA.md field types", (*run).typesRanking},
	{"types.pictures", "with a radio whose options carry an image and its alt (look), the schema serves both, and a choice among them is accepted, another refused (optional)", "§2.2, SCHEMA.md field types", (*run).typesPictures},
	{"types.parts", "with matrix, address and group fields (grid, ship, team), objects of their parts and lists of items are accepted, a column, a country or an item too many refused, and so is one text for any of them (optional)", "§2.2, SCHEMA.md field types", (*run).typesParts},
	{"types.signature", "with a signature field (sig), a typed name is accepted and a number refused (optional)", "§2.2, SCHEMA.md field types", (*run).typesSignature},
	{"types.content", "with heading, paragraph and divider fields (intro, note, rule), a value sent for any of them is refused: content takes no value (optional)", "§2.2, SCHEMA.md field types", (*run).typesContent},
	{"calculations", `with a quiz whose calculation score is the points of look (light 1, dark 2), a submission of dark claiming "score": 100 is accepted and answered "score": 2: the hub works calculations out and ignores one sent (optional)`, "§10 calculations, SCHEMA.md calculations", (*run).calculations},
	{"upload.url", "POST {base}/upload-url with {filename, size, mime} answers {ok, uploadUrl, key}", "§2.3, §2.4", (*run).uploadURL},
	{"upload.put", "a PUT of exactly the announced bytes to uploadUrl succeeds", "§2.4, §4 rule 3", (*run).uploadPut},
	{"upload.submit", "a submission naming the uploaded key in attachments is accepted", "§2.5, §4 rule 3", (*run).uploadSubmit},
	{"upload.size", "a file whose length differs from the announced size is refused, at the PUT or at the submission", "§2.3, §2.5", (*run).uploadSize},
	{"upload.unknown-key", "a submission naming a key the hub never handed out is refused (recommended)", "§2.5, not stated by the protocol", (*run).uploadUnknownKey},
	{"upload.parts", `with "parts": true, a file of 64 MiB (the smallest this project's hub sends in parts) goes in parts if the hub answers parts: each PUT, last first, answers an ETag; upload-complete answers 404 to an unknown id, 400 to a wrong ETag, {"ok": true} to the parts and to a repeat; the file is accepted in a submission (optional: uploadUrl gets info)`, "§10 files in parts, §2.3, §2.4", (*run).uploadParts},
	{"drafts", `when the schema has meta.resume, a draft saved with values and a step is resumed with them, saved again with its token and other values, answering a new token and retiring the one sent, and deleted by a submission naming it; a token never handed out answers 404 (optional: a form without meta.resume gets info)`, "§10 drafts", (*run).drafts},
	{"info.size-limit", "how the upload-url route answers a file of 1 TiB (a limit, answered 413, is recommended)", "§8, not stated by the protocol", (*run).infoSizeLimit},
	{"info.cors", "whether the submit route answers a CORS preflight", "§8, not stated by the protocol", (*run).infoCORS},
	{"info.rate-limit", "whether the hub's answers carry rate-limit headers", "§8, not stated by the protocol", (*run).infoRateLimit},
}

func (r *run) schemaRoute(ctx context.Context) (Status, string) {
	a, err := r.send(ctx, http.MethodGet, r.base+".json", "", nil, nil)
	if err != nil {
		return failf("GET %s.json: %v", r.base, err)
	}
	if !a.ok() {
		return failf("want 2xx with the schema, got %s", a)
	}
	if msg := schemaShape(a.body); msg != "" {
		return Fail, msg
	}
	var s hubclient.Schema
	if err := json.Unmarshal(a.body, &s); err != nil {
		return failf("the schema does not decode: %v", err)
	}
	r.schema = &s
	return Pass, ""
}

// schemaShape says what is wrong with a schema's JSON, or "".
func schemaShape(body []byte) string {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return fmt.Sprintf("want a JSON object, got %.200q", body)
	}
	for _, name := range []string{"fields", "steps"} {
		var list []json.RawMessage
		if err := json.Unmarshal(members[name], &list); err != nil || members[name] == nil {
			return fmt.Sprintf("want %q as a JSON array, got %.100s", name, orNone(members[name]))
		}
	}
	return ""
}

func orNone(raw json.RawMessage) string {
	if raw == nil {
		return "none"
	}
	return string(raw)
}

func (r *run) schemaForm(context.Context) (Status, string) {
	if r.schema == nil {
		return Skip, "no schema (schema.route failed)"
	}
	var missing []string
	for name, typ := range formFields {
		if f := r.schema.Field(name); f == nil || string(f.Type) != typ {
			missing = append(missing, name+" ("+typ+")")
		}
	}
	if len(missing) > 0 {
		return failf("the form lacks the fields %s; create it from hubform conformance --print-form", strings.Join(sorted(missing), ", "))
	}
	return Pass, ""
}

func (r *run) schemaEscaped(ctx context.Context) (Status, string) {
	if r.opts.OddSite == "" || r.opts.OddForm == "" {
		return Skip, "no site and form with names that need escaping were given"
	}
	base, err := r.hub.FormURL(r.opts.OddSite, r.opts.OddForm)
	if err != nil {
		return Skip, err.Error()
	}
	a, err := r.send(ctx, http.MethodGet, base+".json", "", nil, nil)
	if err != nil {
		return failf("GET %s.json: %v", base, err)
	}
	if !a.ok() {
		return failf("want 2xx with the schema at %s.json, got %s", base, a)
	}
	if msg := schemaShape(a.body); msg != "" {
		return Fail, msg
	}
	return Pass, "served at " + base + ".json"
}

func (r *run) schemaUnknown(ctx context.Context) (Status, string) {
	base, err := r.hub.FormURL(r.opts.Site, r.opts.Form+"-missing-"+randomSuffix())
	if err != nil {
		return Skip, err.Error()
	}
	a, err := r.send(ctx, http.MethodGet, base+".json", "", nil, nil)
	if err != nil {
		return failf("GET %s.json: %v", base, err)
	}
	if a.ok() {
		return failf("want a status outside 2xx for %s.json, got %s", base, a)
	}
	return Pass, fmt.Sprintf("answered %d", a.status)
}

func (r *run) submitFormEncoded(ctx context.Context) (Status, string) {
	body := url.Values{"name": {"Conformance check"}, "message": {"form-encoded"}}.Encode()
	a, err := r.send(ctx, http.MethodPost, r.base+"/submit", "application/x-www-form-urlencoded", []byte(body), nil)
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if a.status != http.StatusUnsupportedMediaType {
		return failf("want 415, got %s", a)
	}
	return Pass, ""
}

func (r *run) submitMalformed(ctx context.Context) (Status, string) {
	a, err := r.send(ctx, http.MethodPost, r.base+"/submit", "application/json", []byte(`{"payload": {"name": "Conformance`), nil)
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if a.status/100 != 4 {
		return failf("want 4xx for a cut-off JSON body, got %s", a)
	}
	return Pass, fmt.Sprintf("answered %d", a.status)
}

func (r *run) submitNoPayload(ctx context.Context) (Status, string) {
	bodies := []map[string]any{
		validPayload(), // the values at the top level, as a flat form post would
		{"payload": "name=Conformance+check"},
	}
	for _, body := range bodies {
		if r.opts.CaptchaToken != "" {
			body["captchaToken"] = r.opts.CaptchaToken
		}
		a, err := r.postJSON(ctx, "/submit", body)
		if err != nil {
			return failf("POST %s/submit: %v", r.base, err)
		}
		if a.status/100 != 4 {
			shown, _ := json.Marshal(body)
			return failf("want 4xx for %s, got %s", shown, a)
		}
	}
	return Pass, ""
}

func (r *run) submitValid(ctx context.Context) (Status, string) {
	if r.needsToken() {
		return Skip, noToken
	}
	a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload()})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, why := accepted(a); !ok {
		return failf(`want 2xx with {"ok": true}: %s`, why)
	}
	var res hubclient.SubmitResponse
	json.Unmarshal(a.body, &res)
	if res.SubmissionID != "" {
		return Pass, "submissionId " + res.SubmissionID
	}
	return Pass, "no submissionId (optional)"
}

func (r *run) submitHoneypot(ctx context.Context) (Status, string) {
	before, counted, err := r.stored(ctx)
	if err != nil {
		return failf("counting stored submissions: %v", err)
	}
	a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload(), Honeypots: map[string]string{"_hp": "I am a bot"}})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if a.status != http.StatusOK {
		return failf("want 200 for a filled honeypot, got %s", a)
	}
	if !counted {
		return Pass, "answered 200; whether it was discarded cannot be seen from outside"
	}
	after, _, err := r.stored(ctx)
	if err != nil {
		return failf("counting stored submissions: %v", err)
	}
	if after != before {
		return failf("want the submission discarded, but the hub holds %d submissions, %d before", after, before)
	}
	return Pass, ""
}

func (r *run) captchaRequired(ctx context.Context) (Status, string) {
	if r.schema == nil {
		return Skip, "no schema (schema.route failed)"
	}
	provider := r.schema.Meta.CaptchaProvider
	if provider == "" {
		return Skip, "the schema names no captcha provider"
	}
	a, err := r.postJSON(ctx, "/submit", hubclient.SubmitRequest{Payload: validPayload()})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, _ := accepted(a); ok || a.ok() {
		return failf("the schema names %s, yet a submission without a token was accepted: %s", provider, a)
	}
	return Pass, fmt.Sprintf("answered %d", a.status)
}

// askUpload asks for an upload URL for a file of size bytes.
func (r *run) askUpload(ctx context.Context, size int64) (*hubclient.UploadURLResponse, *answer, error) {
	a, err := r.postJSON(ctx, "/upload-url", hubclient.UploadURLRequest{Filename: fileName, Size: size, MIME: fileMIME})
	if err != nil {
		return nil, nil, err
	}
	var res hubclient.UploadURLResponse
	if !a.ok() || json.Unmarshal(a.body, &res) != nil || !res.OK || res.UploadURL == "" || res.Key == "" {
		return nil, a, nil
	}
	return &res, a, nil
}

func (r *run) uploadURL(ctx context.Context) (Status, string) {
	res, a, err := r.askUpload(ctx, int64(len(fileBody)))
	if err != nil {
		return failf("POST %s/upload-url: %v", r.base, err)
	}
	if res == nil {
		return failf(`want 2xx with {"ok": true, "uploadUrl", "key"}, got %s`, a)
	}
	if u, err := url.Parse(res.UploadURL); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return failf("uploadUrl %.100q is not an absolute http or https URL", res.UploadURL)
	}
	r.upload = res
	return Pass, "key " + res.Key
}

// put sends body to uploadURL as the file's PUT.
func (r *run) put(ctx context.Context, uploadURL, body string) (*answer, error) {
	return r.send(ctx, http.MethodPut, uploadURL, fileMIME, []byte(body), nil)
}

func (r *run) uploadPut(ctx context.Context) (Status, string) {
	if r.upload == nil {
		return Skip, "no upload URL (upload.url failed)"
	}
	a, err := r.put(ctx, r.upload.UploadURL, fileBody)
	if err != nil {
		return failf("PUT to the upload URL: %v", err)
	}
	if !a.ok() {
		return failf("want 2xx for the PUT of %d bytes of %s, got %s", len(fileBody), fileMIME, a)
	}
	r.uploaded = true
	return Pass, ""
}

// attachment is the attachment of an upload of the conformance file.
func attachment(key string) hubclient.Attachment {
	return hubclient.Attachment{Key: key, Filename: fileName, Size: int64(len(fileBody)), MIME: fileMIME, Field: "file"}
}

func (r *run) uploadSubmit(ctx context.Context) (Status, string) {
	switch {
	case !r.uploaded:
		return Skip, "no uploaded file (upload.put failed or did not run)"
	case r.needsToken():
		return Skip, noToken
	}
	a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload(), Attachments: []hubclient.Attachment{attachment(r.upload.Key)}})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, why := accepted(a); !ok {
		return failf("want the submission with the uploaded file accepted: %s", why)
	}
	return Pass, ""
}

func (r *run) uploadSize(ctx context.Context) (Status, string) {
	if !r.uploaded {
		return Skip, "no upload succeeded (upload.put failed or did not run)"
	}
	res, a, err := r.askUpload(ctx, int64(len(fileBody)))
	if err != nil || res == nil {
		return failf("asking for a second upload URL: %v %v", err, a)
	}
	longer := fileBody + "and one more line\n"
	a, err = r.put(ctx, res.UploadURL, longer)
	if err != nil {
		return Pass, "the PUT failed: " + err.Error()
	}
	if !a.ok() {
		return Pass, fmt.Sprintf("the PUT of %d bytes for %d announced answered %d", len(longer), len(fileBody), a.status)
	}
	if r.needsToken() {
		return Info, "the PUT of a longer body was accepted; " + noToken + ", so whether a submission would be is not known"
	}
	a, err = r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload(), Attachments: []hubclient.Attachment{attachment(res.Key)}})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, _ := accepted(a); ok {
		return failf("want the file refused: the PUT of %d bytes for %d announced was accepted, and so was the submission naming it with size %d: %s",
			len(longer), len(fileBody), len(fileBody), a)
	}
	return Pass, fmt.Sprintf("the PUT was accepted, the submission refused with %d", a.status)
}

func (r *run) uploadUnknownKey(ctx context.Context) (Status, string) {
	if r.needsToken() {
		return Skip, noToken
	}
	key := "uploads/conformance-never-issued-" + randomSuffix() + "/" + fileName
	a, err := r.submit(ctx, hubclient.SubmitRequest{Payload: validPayload(), Attachments: []hubclient.Attachment{attachment(key)}})
	if err != nil {
		return failf("POST %s/submit: %v", r.base, err)
	}
	if ok, _ := accepted(a); ok {
		return Info, "accepted a submission naming a key it never handed out; refusing it keeps submissions from pointing at other people's files"
	}
	return Pass, fmt.Sprintf("answered %d", a.status)
}

func (r *run) infoSizeLimit(ctx context.Context) (Status, string) {
	a, err := r.postJSON(ctx, "/upload-url", hubclient.UploadURLRequest{Filename: fileName, Size: 1 << 40, MIME: fileMIME})
	switch {
	case err != nil:
		return Info, "no answer: " + err.Error()
	case a.status == http.StatusRequestEntityTooLarge:
		return Info, "refused with 413"
	case a.ok():
		return Info, fmt.Sprintf("accepted with %d; a size limit answered 413 is recommended", a.status)
	}
	return Info, fmt.Sprintf("refused with %d (413 is recommended)", a.status)
}

func (r *run) infoCORS(ctx context.Context) (Status, string) {
	origin := "https://conformance.example"
	a, err := r.send(ctx, http.MethodOptions, r.base+"/submit", "", nil, map[string]string{
		"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
	})
	if err != nil {
		return Info, "no answer: " + err.Error()
	}
	allow := a.header.Get("Access-Control-Allow-Origin")
	if allow == "" {
		return Info, fmt.Sprintf("answered %d without Access-Control-Allow-Origin: browsers on other origins cannot post directly", a.status)
	}
	return Info, fmt.Sprintf("answered %d, Access-Control-Allow-Origin: %s", a.status, allow)
}

func (r *run) infoRateLimit(context.Context) (Status, string) {
	if len(r.limitHeaders) == 0 {
		return Info, "no rate-limit headers seen (not probed: the kit sends a few requests only)"
	}
	return Info, "seen: " + strings.Join(dedupe(r.limitHeaders), "; ")
}
