package conformance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/conformance"
)

// captchaForm is the conformance form asking for a turnstile captcha.
var captchaForm = strings.Replace(conformance.Form, `"steps"`, `"meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"},
  "steps"`, 1)

// tokens accepts the captcha token "good" only.
type tokens struct{}

func (tokens) Verify(_ context.Context, r captcha.Request) error {
	if r.Token != "good" {
		return &captcha.RefusedError{Codes: []string{"invalid-input-response"}}
	}
	return nil
}

// startHub runs our hub with the conformance form at acme/conformance and
// returns options that check it, storage included.
func startHub(t *testing.T, form string) (*hubtest.Hub, conformance.Options) {
	h := hubtest.Start(t, map[string]string{"acme/conformance": form}, func(c *protocol.Config) {
		c.Captcha = tokens{}
		c.CaptchaSecrets = map[string]string{"turnstile": "secret"}
	})
	return h, conformance.Options{HubURL: h.URL, Site: "acme", Form: "conformance",
		Stored: func(context.Context) (int, error) { return len(h.Submissions()), nil }}
}

func run(t *testing.T, opts conformance.Options) *conformance.Report {
	t.Helper()
	report, err := conformance.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func ids(report *conformance.Report, s conformance.Status) []string {
	var out []string
	for _, r := range report.Results {
		if r.Status == s {
			out = append(out, r.ID)
		}
	}
	return out
}

// TestOurHubPasses runs the kit against this project's hub: nothing
// fails, and only the checks that need what the run lacks are skipped.
func TestOurHubPasses(t *testing.T) {
	for _, tc := range []struct {
		name, form, token string
		skipped           []string
	}{
		{"plain form", conformance.Form, "", []string{"schema.escaped", "captcha.required"}},
		{"captcha with a token", captchaForm, "good", []string{"schema.escaped"}},
		{"captcha without a token", captchaForm, "", []string{"schema.escaped", "submit.valid", "types.ratings", "types.datetime", "types.ranking",
			"types.pictures", "types.parts", "types.signature", "types.content", "calculations", "upload.submit", "upload.unknown-key"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, opts := startHub(t, tc.form)
			opts.CaptchaToken = tc.token
			report := run(t, opts)
			for _, r := range report.Failed() {
				t.Errorf("%s failed: %s", r.ID, r.Detail)
			}
			if got := ids(report, conformance.Skip); !slices.Equal(got, tc.skipped) {
				t.Errorf("skipped %v, want %v", got, tc.skipped)
			}
			if n := report.Count(conformance.Pass) + report.Count(conformance.Skip) + report.Count(conformance.Info); n != len(report.Results) {
				t.Errorf("%d of %d results pass, skip or inform", n, len(report.Results))
			}
			if r := report.Result("upload.unknown-key"); r.Status == conformance.Info {
				t.Errorf("our hub accepted a key it never handed out: %s", r.Detail)
			}
			if r := report.Result("upload.parts"); r.Status != conformance.Pass || !strings.Contains(r.Detail, "4 parts of 16777216 bytes") {
				t.Errorf("upload.parts: %+v, want a pass in 4 parts of 16 MiB", r)
			}
			submitted := tc.token != "" || tc.form == conformance.Form
			finished := "finished by a submission"
			if !submitted {
				finished = "no submission finished the draft"
			}
			if r := report.Result("drafts"); r.Status != conformance.Pass || !strings.Contains(r.Detail, finished) {
				t.Errorf("drafts: %+v, want a pass saying %q", r, finished)
			}
			want := 0
			if submitted {
				want = 11 // submit.valid, six types.*, calculations, upload.submit, upload.parts and drafts
			}
			subs := h.Submissions()
			if got := len(subs); got != want {
				t.Errorf("the hub stored %d submissions, want %d", got, want)
			}
			if want > 0 {
				sameFile(t, h, subs[len(subs)-2].Attachments)
				if last := subs[len(subs)-1]; !strings.Contains(string(last.Payload), "finishing a draft") {
					t.Errorf("the last submission is %s, want the one finishing the draft", last.Payload)
				}
			}
		})
	}
}

// sameFile checks that attachments name one file, the one upload.parts
// sent, and that the hub stored it byte for byte: the parts went where
// they belong.
func sameFile(t *testing.T, h *hubtest.Hub, attachments []hubclient.Attachment) {
	t.Helper()
	if len(attachments) != 1 || attachments[0].Size != conformance.PartsSize {
		t.Fatalf("the last submission's attachments are %+v, want the file of %d bytes", attachments, conformance.PartsSize)
	}
	stored, err := h.Blobs.NewReader(context.Background(), attachments[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	defer stored.Close()
	got, want := sha256.New(), sha256.New()
	n, err := io.Copy(got, stored)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(want, conformance.PartsFile())
	if n != conformance.PartsSize || !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("the stored file has %d bytes, SHA-256 %x; want %d bytes, %x", n, got.Sum(nil), conformance.PartsSize, want.Sum(nil))
	}
}

// TestPartsFile: the file upload.parts sends is lines of 64 bytes, each
// numbered, so that no two parts of it are alike.
func TestPartsFile(t *testing.T) {
	data, err := io.ReadAll(conformance.PartsFile())
	if err != nil || len(data) != conformance.PartsSize {
		t.Fatalf("%d bytes, %v", len(data), err)
	}
	for _, n := range []int{0, 1, 0x3ffff, len(data)/64 - 1} {
		line := string(data[n*64 : (n+1)*64])
		if want := fmt.Sprintf("%016x hubform conformance: a file sent in parts", n); !strings.HasPrefix(line, want) || !strings.HasSuffix(line, ".\n") {
			t.Errorf("line %d is %q, want it to begin %q and end in .\\n", n, line, want)
		}
	}
	for _, off := range []int{1, 63, 64, 65, 1<<24 - 7} { // a read from anywhere reads the same bytes
		buf := make([]byte, 100)
		r := conformance.PartsFile()
		io.CopyN(io.Discard, r, int64(off))
		io.ReadFull(r, buf)
		if !bytes.Equal(buf, data[off:off+100]) {
			t.Errorf("from %d: %q, want %q", off, buf, data[off:off+100])
		}
	}
}

// TestReportsUnusableForm: a form without the conformance fields fails
// schema.form, and a form that is not there fails schema.route.
func TestReportsUnusableForm(t *testing.T) {
	_, opts := startHub(t, `{"fields": [{"name": "email", "type": "email"}], "steps": [{"id": "a", "fields": ["email"]}]}`)
	if r := run(t, opts).Result("schema.form"); r.Status != conformance.Fail || !strings.Contains(r.Detail, "name (text)") {
		t.Errorf("schema.form: %+v", r)
	}
	opts.Form = "absent"
	if r := run(t, opts).Result("schema.route"); r.Status != conformance.Fail || !strings.Contains(r.Detail, "404") {
		t.Errorf("schema.route: %+v", r)
	}
}

// TestEscapedNames serves a form whose site and slug need escaping; the
// kit finds it only when each segment is escaped as one.
func TestEscapedNames(t *testing.T) {
	const site, form = "acme co/ünï", "con tact/x"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != "/v1/acme%20co%2F%C3%BCn%C3%AF/con%20tact%2Fx.json" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, conformance.Form)
	}))
	defer srv.Close()
	opts := conformance.Options{HubURL: srv.URL + "/v1", Site: "acme", Form: "conformance", OddSite: site, OddForm: form}
	if r := run(t, opts).Result("schema.escaped"); r.Status != conformance.Pass {
		t.Errorf("schema.escaped: %+v", r)
	}
	opts.OddForm = "con tact"
	if r := run(t, opts).Result("schema.escaped"); r.Status != conformance.Fail {
		t.Errorf("schema.escaped of a missing form: %+v", r)
	}
}

// breaker wraps a hub's handler so that it breaks one rule.
type breaker func(next http.Handler, w http.ResponseWriter, r *http.Request)

// TestBrokenHubsFail runs the kit against hubs that each break one rule:
// the check of that rule fails, and no other. A hub that breaks only a
// recommendation fails nothing; the check in informs reports it.
func TestBrokenHubsFail(t *testing.T) {
	informs := map[string]string{"attachment never checked": "upload.unknown-key", "parts not offered": "upload.parts", "no drafts": "drafts"}
	for _, tc := range []struct {
		name  string
		form  string
		token string
		wrap  breaker
		fails []string
	}{
		{"schema without steps", conformance.Form, "", editJSON(suffix(".json"), func(m map[string]any) { delete(m, "steps") }),
			[]string{"schema.route"}},
		{"unknown form served", conformance.Form, "", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path, "-missing-") {
				io.WriteString(w, conformance.Form)
				return
			}
			next.ServeHTTP(w, r)
		}, []string{"schema.unknown"}},
		{"form-encoded post accepted", conformance.Form, "", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
				io.WriteString(w, `{"ok": true}`)
				return
			}
			next.ServeHTTP(w, r)
		}, []string{"submit.form-encoded"}},
		{"malformed JSON accepted", conformance.Form, "", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			body := readBody(r)
			if r.Header.Get("Content-Type") == "application/json" && !json.Valid(body) {
				io.WriteString(w, `{"ok": true}`)
				return
			}
			next.ServeHTTP(w, r)
		}, []string{"submit.malformed"}},
		{"payload nesting ignored", conformance.Form, "", editBody(suffix("/submit"), func(m map[string]any) {
			if _, ok := m["payload"]; !ok {
				payload := map[string]any{}
				for k, v := range m {
					payload[k] = v
				}
				clear(m)
				m["payload"] = payload
			}
		}), []string{"submit.no-payload"}},
		{"answer without ok", conformance.Form, "", editJSON(suffix("/submit"), func(m map[string]any) { delete(m, "ok") }),
			[]string{"submit.valid", "types.ratings", "types.datetime", "types.ranking", "types.pictures", "types.parts", "types.signature", "calculations", "upload.submit", "upload.parts", "drafts"}},
		{"forged score kept", conformance.Form, "", editJSON(suffix("/submit"), func(m map[string]any) {
			if _, ok := m["score"]; ok {
				m["score"] = 100
			}
		}), []string{"calculations"}},
		{"ratings out of bounds accepted", conformance.Form, "", editPayload(func(p map[string]any) {
			for name, v := range map[string]any{"stars": 4, "ease": 2, "nps": 9, "amount": 30} {
				if p[name] != nil {
					p[name] = v
				}
			}
		}), []string{"types.ratings"}},
		{"any text taken for a time", conformance.Form, "", editPayload(func(p map[string]any) {
			if p["callAt"] != nil {
				p["callAt"] = "09:30"
			}
		}), []string{"types.datetime"}},
		{"any ranking taken", conformance.Form, "", editPayload(func(p map[string]any) {
			if p["order"] != nil {
				p["order"] = []string{"c", "a", "b"}
			}
		}), []string{"types.ranking"}},
		{"content values dropped", conformance.Form, "", editPayload(func(p map[string]any) {
			delete(p, "intro")
			delete(p, "note")
			delete(p, "rule")
		}), []string{"types.content"}},
		{"any part taken", conformance.Form, "", editPayload(func(p map[string]any) {
			if p["ship"] != nil {
				p["ship"] = map[string]any{"line1": "1 rue de Rivoli", "city": "Paris", "country": "FR"}
			}
		}), []string{"types.parts"}},
		{"honeypot stored", conformance.Form, "", editBody(suffix("/submit"), func(m map[string]any) { delete(m, "_hp") }),
			[]string{"submit.honeypot"}},
		{"honeypot answered 400", conformance.Form, "", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if bytes.Contains(readBody(r), []byte(`"_hp"`)) {
				http.Error(w, `{"ok": false}`, http.StatusBadRequest)
				return
			}
			next.ServeHTTP(w, r)
		}, []string{"submit.honeypot"}},
		{"captcha not enforced", captchaForm, "good", editBody(suffix("/submit"), func(m map[string]any) {
			if m["captchaToken"] == nil {
				m["captchaToken"] = "good"
			}
		}), []string{"captcha.required"}},
		{"upload-url without key", conformance.Form, "", editJSON(suffix("/upload-url"), func(m map[string]any) { delete(m, "key") }),
			[]string{"upload.url"}},
		{"upload PUT refused", conformance.Form, "", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut {
				http.Error(w, "denied", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		}, []string{"upload.put"}},
		{"upload PUT of a wrong length accepted", conformance.Form, "", truncatePuts(),
			[]string{"upload.size"}},
		{"attachment never checked", conformance.Form, "", editBody(suffix("/submit"), func(m map[string]any) { delete(m, "attachments") }),
			nil}, // a key never handed out is only a recommendation: see informs
		{"parts not offered", conformance.Form, "", editBody(suffix("/upload-url"), func(m map[string]any) { delete(m, "parts") }),
			nil}, // files in parts are an optional extension: see informs
		{"no drafts", strings.Replace(conformance.Form, `, "resume": true`, `, "resume": false`, 1), "", pass,
			nil}, // drafts are an optional extension: see informs
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, opts := startHub(t, tc.form)
			opts.CaptchaToken = tc.token
			inner := h.Server.Config.Handler
			h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.wrap(inner, w, r) })
			report := run(t, opts)
			var failed []string
			for _, r := range report.Failed() {
				failed = append(failed, r.ID)
				if r.Detail == "" {
					t.Errorf("%s failed without saying what it saw", r.ID)
				}
			}
			if id := informs[tc.name]; id != "" {
				if r := report.Result(id); r.Status != conformance.Info || r.Detail == "" {
					t.Errorf("%s: %+v, want info with a detail", id, r)
				}
			}
			if !slices.Equal(failed, tc.fails) {
				t.Errorf("failed %v, want %v", failed, tc.fails)
				for _, r := range report.Results {
					t.Logf("%s %s: %s", r.Status, r.ID, r.Detail)
				}
			}
		})
	}
}

func suffix(s string) func(*http.Request) bool {
	return func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, s) }
}

// readBody reads r's body and leaves it in place for the next handler.
func readBody(r *http.Request) []byte {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body
}

// editBody edits the JSON request bodies of the requests match selects.
func editBody(match func(*http.Request) bool, edit func(map[string]any)) breaker {
	return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
		if match(r) {
			var m map[string]any
			if json.Unmarshal(readBody(r), &m) == nil {
				edit(m)
				body, _ := json.Marshal(m)
				r.Body = io.NopCloser(bytes.NewReader(body))
				r.ContentLength = int64(len(body))
			}
		}
		next.ServeHTTP(w, r)
	}
}

// editPayload edits the payload of each submission.
func editPayload(edit func(map[string]any)) breaker {
	return editBody(suffix("/submit"), func(m map[string]any) {
		if p, ok := m["payload"].(map[string]any); ok {
			edit(p)
		}
	})
}

// TestFamiliesNotSupported: a hub whose form lacks a family's fields, or
// serves its pictures without what they show, gets the family's check
// skipped as not supported, never failed.
func TestFamiliesNotSupported(t *testing.T) {
	var form map[string]any
	if err := json.Unmarshal([]byte(conformance.Form), &form); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, f := range form["fields"].([]any) {
		switch f.(map[string]any)["name"] {
		case "name", "message", "file", "_hp":
			kept = append(kept, f)
		}
	}
	form["fields"] = kept
	delete(form, "calculations")
	delete(form, "quiz")
	form["steps"] = []any{map[string]any{"id": "all", "fields": []string{"name", "message", "file", "_hp"}}}
	plain, _ := json.Marshal(form)
	noAlt := strings.ReplaceAll(conformance.Form, `"alt": "A`, `"title": "A`)
	for _, tc := range []struct {
		name, form string
		skipped    []string
	}{
		{"no family's fields", string(plain), []string{"types.ratings", "types.datetime", "types.ranking", "types.pictures", "types.parts", "types.signature", "types.content", "calculations"}},
		{"pictures without alt", noAlt, []string{"types.pictures"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, opts := startHub(t, tc.form)
			report := run(t, opts)
			for _, r := range report.Failed() {
				t.Errorf("%s failed: %s", r.ID, r.Detail)
			}
			for _, r := range report.Results {
				skip := slices.Contains(tc.skipped, r.ID)
				if (strings.HasPrefix(r.ID, "types.") || r.ID == "calculations") && skip != (r.Status == conformance.Skip && strings.HasPrefix(r.Detail, "not supported")) {
					t.Errorf("%s: %s %q, want skipped as not supported: %t", r.ID, r.Status, r.Detail, skip)
				}
			}
		})
	}
}

// editJSON edits the JSON answers to the requests match selects.
func editJSON(match func(*http.Request) bool, edit func(map[string]any)) breaker {
	return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
		if !match(r) {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var m map[string]any
		body := rec.Body.Bytes()
		if json.Unmarshal(body, &m) == nil {
			edit(m)
			body, _ = json.Marshal(m)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}
}

// truncatePuts is a hub whose upload URLs take a body of any length and
// keep as many bytes as the last upload-url request announced, as storage
// that does not bind the length into the signature would, with a hub that
// never looks at what was stored.
func truncatePuts() breaker {
	var mu sync.Mutex
	var size int64
	return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/upload-url"):
			var req struct{ Size int64 }
			json.Unmarshal(readBody(r), &req)
			mu.Lock()
			size = req.Size
			mu.Unlock()
		case r.Method == http.MethodPut:
			mu.Lock()
			n := size
			mu.Unlock()
			body := readBody(r)
			if int64(len(body)) > n {
				body = body[:n]
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.Header.Set("Content-Length", strconv.Itoa(len(body)))
		}
		next.ServeHTTP(w, r)
	}
}

// TestBrokenPartsFail runs the kit against hubs that each break a rule of
// files in parts (PROTOCOL.md §10): upload.parts fails, and says at which
// step; no other check fails.
func TestBrokenPartsFail(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap breaker
		says string
	}{
		{"parts without uploadId", editJSON(suffix("/upload-url"), func(m map[string]any) {
			if parts, ok := m["parts"].(map[string]any); ok {
				parts["uploadId"] = ""
			}
		}), "parts.uploadId is empty"},
		{"parts short of a URL", editJSON(suffix("/upload-url"), func(m map[string]any) {
			if parts, ok := m["parts"].(map[string]any); ok {
				urls := parts["urls"].([]any)
				parts["urls"] = urls[:len(urls)-1]
			}
		}), "parts.urls has 3 URLs, want 4"},
		{"part PUT refused", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("part") == "2" {
				http.Error(w, "denied", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		}, "PUT of part 2 of 4 (16777216 bytes from 16777216): want 2xx with an ETag header, got 403 denied"},
		{"part PUT without ETag", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut {
				w = noETag{w}
			}
			next.ServeHTTP(w, r)
		}, "without an ETag header"},
		{"unknown upload id completed", completeAnswers(http.StatusNotFound, http.StatusOK), "upload id never handed out: want 404, got 200"},
		{"wrong ETag accepted", completeAnswers(http.StatusBadRequest, http.StatusOK), "part 1's ETag wrong"},
		{"wrong ETag answered 409", completeAnswers(http.StatusBadRequest, http.StatusConflict), "want 400, got 409"},
		{"completion not repeatable", completeOnce(), "upload-complete again with every part's ETag"},
		{"file in parts refused", func(next http.Handler, w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/submit") && bytes.Contains(readBody(r), []byte(`"size":67108864`)) {
				http.Error(w, `{"ok": false, "error": "too large"}`, http.StatusRequestEntityTooLarge)
				return
			}
			next.ServeHTTP(w, r)
		}, "the submission naming the file sent in parts accepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, opts := startHub(t, conformance.Form)
			inner := h.Server.Config.Handler
			h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.wrap(inner, w, r) })
			report := run(t, opts)
			var failed []string
			for _, r := range report.Failed() {
				failed = append(failed, r.ID)
			}
			r := report.Result("upload.parts")
			if !slices.Equal(failed, []string{"upload.parts"}) || !strings.Contains(r.Detail, tc.says) {
				t.Errorf("failed %v, want [upload.parts] saying %q; upload.parts: %s", failed, tc.says, r.Detail)
			}
		})
	}
}

// pass is a hub that breaks nothing.
func pass(next http.Handler, w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) }

// TestBrokenDraftsFail runs the kit against hubs that each break a rule of
// drafts (PROTOCOL.md §10): drafts fails, and says at which step; no other
// check fails.
func TestBrokenDraftsFail(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func() breaker
		says string
	}{
		{"drafts route missing", func() breaker {
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "/drafts") {
					http.NotFound(w, r)
					return
				}
				next.ServeHTTP(w, r)
			}
		}, `save a draft: the schema has "meta": {"resume": true}, yet the drafts route answered 404`},
		{"no expiry", func() breaker {
			return editJSON(suffix("/drafts"), func(m map[string]any) { delete(m, "expiresAt") })
		}, `save a draft: the answer has no "expiresAt"`},
		{"resume without expiry", func() breaker {
			return editJSON(suffix("/drafts/resume"), func(m map[string]any) { delete(m, "expiresAt") })
		}, `resume the draft saved: the answer has no "expiresAt"`},
		{"step not kept", func() breaker {
			return editJSON(suffix("/drafts/resume"), func(m map[string]any) { delete(m, "step") })
		}, `resume the draft saved: want the step saved, "all", got ""`},
		{"values not kept", func() breaker {
			return editJSON(suffix("/drafts/resume"), func(m map[string]any) {
				if p, ok := m["payload"].(map[string]any); ok {
					delete(p, "message")
				}
			})
		}, "resume the draft saved: want the payload saved"},
		{"the token sent answered back", func() breaker {
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				var req hubclient.DraftRequest
				if suffix("/drafts")(r) && json.Unmarshal(readBody(r), &req) == nil && req.Token != "" {
					editJSON(suffix("/drafts"), func(m map[string]any) { m["token"] = req.Token })(next, w, r)
					return
				}
				next.ServeHTTP(w, r)
			}
		}, "save over the draft with its token: want a new token, got the one sent"},
		{"tokens kept by a save", func() breaker {
			issued := tokensIssued()
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if suffix("/drafts/resume")(r) {
					// A token handed out before still reads the draft.
					editBody(suffix("/drafts/resume"), func(m map[string]any) {
						if token, _ := m["token"].(string); issued.has(token) {
							m["token"] = issued.last()
						}
					})(next, w, r)
					return
				}
				issued.record(next, w, r)
			}
		}, "resume with the token saved over: want 404, the token retired by the save, got 200"},
		{"a token that names no draft answered", func() breaker {
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if suffix("/drafts")(r) && bytes.Contains(readBody(r), []byte(`"token"`)) {
					editJSON(suffix("/drafts"), func(m map[string]any) { m["token"] = "another" })(next, w, r)
					return
				}
				next.ServeHTTP(w, r)
			}
		}, "resume the draft saved again: want 2xx"},
		{"saves merged", func() breaker {
			return editBody(suffix("/drafts"), func(m map[string]any) {
				if p, ok := m["payload"].(map[string]any); ok && m["token"] != nil {
					p["message"] = "Saved by hubform conformance."
				}
			})
		}, "resume the draft saved again: want the payload saved"},
		{"unknown token resumed", func() breaker {
			issued := tokensIssued()
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if suffix("/drafts/resume")(r) {
					// A token never handed out reads the draft.
					editBody(suffix("/drafts/resume"), func(m map[string]any) {
						if token, _ := m["token"].(string); !issued.has(token) {
							m["token"] = issued.last()
						}
					})(next, w, r)
					return
				}
				issued.record(next, w, r)
			}
		}, "resume with a token never handed out: want 404, got 200"},
		{"unknown token saved", func() breaker {
			issued := tokensIssued()
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if suffix("/drafts")(r) {
					// A token the hub does not know starts a new draft.
					var req hubclient.DraftRequest
					json.Unmarshal(readBody(r), &req)
					if req.Token != "" && !issued.has(req.Token) {
						recorded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { issued.record(next, w, r) })
						editBody(suffix("/drafts"), func(m map[string]any) { delete(m, "token") })(recorded, w, r)
						return
					}
				}
				issued.record(next, w, r)
			}
		}, "save with a token never handed out: want 404, got 200"},
		{"draft kept after its submission", func() breaker {
			return editBody(suffix("/submit"), func(m map[string]any) { delete(m, "draft") })
		}, `resume after a submission with "draft": the token: want 404`},
		{"submission finishing a draft refused", func() breaker {
			return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
				if suffix("/submit")(r) && bytes.Contains(readBody(r), []byte(`"draft"`)) {
					http.Error(w, `{"ok": false, "error": "no"}`, http.StatusUnprocessableEntity)
					return
				}
				next.ServeHTTP(w, r)
			}
		}, `submit with "draft": the token: want the submission accepted`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, opts := startHub(t, conformance.Form)
			inner, wrap := h.Server.Config.Handler, tc.wrap()
			h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wrap(inner, w, r) })
			report := run(t, opts)
			var failed []string
			for _, r := range report.Failed() {
				failed = append(failed, r.ID)
			}
			r := report.Result("drafts")
			if !slices.Equal(failed, []string{"drafts"}) || !strings.Contains(r.Detail, tc.says) {
				t.Errorf("failed %v, want [drafts] saying %q; drafts: %s", failed, tc.says, r.Detail)
			}
		})
	}
}

// issued records the tokens a hub's drafts route answers.
type issued struct {
	mu     sync.Mutex
	tokens []string
}

func tokensIssued() *issued { return &issued{} }

// record serves r with next, noting the token of a drafts answer.
func (i *issued) record(next http.Handler, w http.ResponseWriter, r *http.Request) {
	editJSON(suffix("/drafts"), func(m map[string]any) {
		if token, ok := m["token"].(string); ok && token != "" {
			i.mu.Lock()
			i.tokens = append(i.tokens, token)
			i.mu.Unlock()
		}
	})(next, w, r)
}

func (i *issued) has(token string) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return slices.Contains(i.tokens, token)
}

func (i *issued) last() string {
	i.mu.Lock()
	defer i.mu.Unlock()
	if len(i.tokens) == 0 {
		return ""
	}
	return i.tokens[len(i.tokens)-1]
}

// noETag drops the ETag header of an answer.
type noETag struct{ http.ResponseWriter }

func (w noETag) WriteHeader(code int) {
	w.Header().Del("ETag")
	w.ResponseWriter.WriteHeader(code)
}

func (w noETag) Write(b []byte) (int, error) {
	w.Header().Del("ETag")
	return w.ResponseWriter.Write(b)
}

// completeAnswers is a hub whose upload-complete route answers status
// instead of was, with "ok" as 2xx would have it.
func completeAnswers(was, status int) breaker {
	return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/upload-complete") {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if rec.Code != was {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"ok": %t}`, status/100 == 2)
	}
}

// completeOnce is a hub whose upload-complete route refuses to complete a
// file twice, with 409.
func completeOnce() breaker {
	var mu sync.Mutex
	done := map[string]bool{}
	return func(next http.Handler, w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/upload-complete") {
			next.ServeHTTP(w, r)
			return
		}
		var req hubclient.CompleteUploadRequest
		json.Unmarshal(readBody(r), &req)
		mu.Lock()
		again := done[req.Key]
		mu.Unlock()
		if again {
			http.Error(w, `{"ok": false, "error": "already completed"}`, http.StatusConflict)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if rec.Code == http.StatusOK {
			mu.Lock()
			done[req.Key] = true
			mu.Unlock()
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}
}

// TestPartsOrder: the parts go two at a time, the last one first.
func TestPartsOrder(t *testing.T) {
	h, opts := startHub(t, conformance.Form)
	inner := h.Server.Config.Handler
	var (
		mu             sync.Mutex
		order          []string
		inFlight, most int
	)
	h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		part := r.URL.Query().Get("part")
		if r.Method != http.MethodPut || part == "" {
			inner.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		order = append(order, part)
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		inner.ServeHTTP(w, r)
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	if r := run(t, opts).Result("upload.parts"); r.Status != conformance.Pass {
		t.Fatalf("upload.parts: %+v", r)
	}
	if len(order) != 4 || order[0] != "4" && order[0] != "3" || most > 2 {
		t.Errorf("parts PUT in the order %v, at most %d at once; want 4 parts, the last two first, 2 at once", order, most)
	}
}

// TestPartsNotTried: a form whose file limit refuses 64 MiB skips
// upload.parts, saying why; nothing fails.
func TestPartsNotTried(t *testing.T) {
	form := strings.Replace(conformance.Form, `"maxFileSize": 67108864, `, "", 1)
	if form == conformance.Form {
		t.Fatal("the conformance form has no file limit to take out")
	}
	_, opts := startHub(t, form)
	report := run(t, opts)
	if r := report.Result("upload.parts"); r.Status != conformance.Skip || !strings.Contains(r.Detail, "413") {
		t.Errorf("upload.parts: %+v, want a skip saying 413", r)
	}
	for _, r := range report.Failed() {
		t.Errorf("%s failed: %s", r.ID, r.Detail)
	}
}

// TestOurHubOnBucket runs the kit against our hub keeping files in an S3
// bucket, whose parts are the bucket's multipart upload: nothing fails and
// the file goes in parts.
func TestOurHubOnBucket(t *testing.T) {
	bucket, err := s3blob.Open(context.Background(), s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bucket.Close() })
	h := hubtest.Start(t, map[string]string{"acme/conformance": conformance.Form}, func(c *protocol.Config) {
		c.Blobs, c.Uploads = bucket, nil
	})
	report := run(t, conformance.Options{HubURL: h.URL, Site: "acme", Form: "conformance"})
	for _, r := range report.Failed() {
		t.Errorf("%s failed: %s", r.ID, r.Detail)
	}
	if r := report.Result("upload.parts"); r.Status != conformance.Pass {
		t.Errorf("upload.parts: %+v, want a pass", r)
	}
}
