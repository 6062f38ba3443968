package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/testhub"
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
func startHub(t *testing.T, form string) (*testhub.Hub, conformance.Options) {
	h := testhub.Start(t, map[string]string{"acme/conformance": form}, func(c *hub.Config) {
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
		{"captcha without a token", captchaForm, "", []string{"schema.escaped", "submit.valid", "upload.submit", "upload.unknown-key"}},
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
			want := 0
			if tc.token != "" || tc.form == conformance.Form {
				want = 2 // submit.valid and upload.submit
			}
			if got := len(h.Submissions()); got != want {
				t.Errorf("the hub stored %d submissions, want %d", got, want)
			}
		})
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
	informs := map[string]string{"attachment never checked": "upload.unknown-key"}
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
			[]string{"submit.valid", "upload.submit"}},
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
