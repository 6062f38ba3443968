package static

import (
	"context"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// The fixture follows the markup that the templ components render.
var fixture = template.Must(template.New("page").Parse(`{{define "page"}}<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hubform fixture</title>
<link rel="stylesheet" href="/static/{{.CSS}}">
{{if .HTMX}}<script defer src="/static/{{.HTMXURL}}"></script>{{end}}
{{if eq .Captcha "turnstile"}}<script>
window.turnstileCalls = [];
window.turnstile = {
  render(el, opts) {
    const id = 'w' + (turnstileCalls.filter((c) => c.startsWith('render')).length + 1);
    turnstileCalls.push('render:' + id + ':' + opts.sitekey + ':' + opts.appearance);
    setTimeout(() => opts.callback('token-' + id), 0);
    return id;
  },
  reset(id) { turnstileCalls.push('reset:' + id); },
  remove(id) { turnstileCalls.push('remove:' + id); },
};
</script>{{end}}
{{if eq .Captcha "recaptcha"}}<script>
window.recaptchaCalls = [];
window.grecaptcha = {
  ready(cb) { setTimeout(cb, 0); },
  execute(key, opts) {
    recaptchaCalls.push(key + ':' + opts.action);
    return Promise.resolve('rc-' + recaptchaCalls.length);
  },
};
</script>{{end}}
{{if .JS}}<script defer src="/static/{{.JSURL}}"></script>{{end}}
</head>
<body>
{{template "hubform" .}}
</body>
</html>{{end}}

{{define "submitted"}}<div class="hubform" data-hubform id="hubform-acme-contact"><div class="hubform-panel hubform-panel--submitted" data-vendor-hubform-submitted role="status">Thanks, we'll get back to you soon.</div></div>{{end}}

{{define "hubform"}}<div class="hubform" data-hubform id="hubform-acme-contact">
<form id="hubform-acme-contact-form" class="hubform-form" data-hubform-form method="post" action="/hubform/acme/contact/submit" enctype="multipart/form-data"
      hx-post="/hubform/acme/contact/submit" hx-encoding="multipart/form-data" hx-target="closest [data-hubform]" hx-swap="outerHTML"
      {{- if eq .Captcha "recaptcha"}} data-hubform-recaptcha-sitekey="site-key-v3" data-hubform-recaptcha-action="contact"{{end}}>
  <h2 class="hubform-title">Contact us</h2>
  <div class="hubform-errors" data-hubform-errors tabindex="-1" role="alert">
    {{- if .Errors}}<p>Please check these fields:</p><ul><li><a href="#hubform-acme-contact-email">Email: required</a></li></ul>{{end -}}
  </div>
  <p class="hubform-step-status" data-hubform-step-status data-hubform-step-template="Step {n} of {total}" aria-live="polite"></p>
  <fieldset class="hubform-step" data-hubform-step="about"{{if eq .Current "about"}} data-hubform-current{{end}}>
    <legend class="hubform-step-title">About you</legend>
    <div class="hubform-field hubform-field--text">
      <label for="hubform-acme-contact-name">Your name <span class="hubform-required" aria-hidden="true">*</span></label>
      <input id="hubform-acme-contact-name" name="name" type="text" required aria-describedby="hubform-acme-contact-name-help">
      <p class="hubform-help" id="hubform-acme-contact-name-help">How we address you.</p>
    </div>
    <fieldset class="hubform-field hubform-field--radio"><legend>Plan</legend><label class="hubform-choice"><input type="radio" name="plan" value="free"> Free</label><label class="hubform-choice"><input type="radio" name="plan" value="pro"> Pro</label></fieldset>
    <div class="hubform-hp" aria-hidden="true"><label for="hubform-acme-contact-_hp">Leave this empty</label><input id="hubform-acme-contact-_hp" name="_hp" type="text" tabindex="-1" autocomplete="off"></div>
    <div class="hubform-nav"><button type="button" class="hubform-button hubform-button--secondary" data-hubform-back>Back</button><button type="button" class="hubform-button" data-hubform-next>Next</button></div>
  </fieldset>
  <fieldset class="hubform-step" data-hubform-step="details"{{if eq .Current "details"}} data-hubform-current{{end}}>
    <legend class="hubform-step-title">Details</legend>
    <div class="hubform-field hubform-field--email{{if .Errors}} hubform-field--invalid{{end}}">
      <label for="hubform-acme-contact-email">Email <span class="hubform-required" aria-hidden="true">*</span></label>
      <input id="hubform-acme-contact-email" name="email" type="email" required aria-describedby="hubform-acme-contact-email-error"{{if .Errors}} aria-invalid="true"{{end}}>
      {{if .Errors}}<p class="hubform-field-error" id="hubform-acme-contact-email-error">required</p>{{end}}
    </div>
    <div class="hubform-field hubform-field--file"><label for="hubform-acme-contact-files">Attachments</label><input id="hubform-acme-contact-files" type="file" name="files" multiple></div>
    <div class="hubform-nav"><button type="button" class="hubform-button hubform-button--secondary" data-hubform-back>Back</button><button type="button" class="hubform-button" data-hubform-next>Next</button></div>
  </fieldset>
  <fieldset class="hubform-step" data-hubform-step="message"{{if eq .Current "message"}} data-hubform-current{{end}}>
    <legend class="hubform-step-title">Message</legend>
    <div class="hubform-field hubform-field--textarea"><label for="hubform-acme-contact-message">Message</label><textarea id="hubform-acme-contact-message" name="message"></textarea></div>
    <div class="hubform-nav"><button type="button" class="hubform-button hubform-button--secondary" data-hubform-back>Back</button><button type="button" class="hubform-button" data-hubform-next>Next</button></div>
  </fieldset>
  <progress class="hubform-progress" data-hubform-progress max="100" value="0" hidden></progress>
  {{if .Captcha}}<input type="hidden" name="_captchaToken" data-hubform-captcha-token>{{end}}
  <button type="submit" class="hubform-button hubform-button--primary" data-hubform-submit>Send</button>
</form>
{{if eq .Captcha "turnstile"}}<div data-vendor-turnstile translate="no" class="notranslate hubform-turnstile" data-sitekey="1x00000000000000000000AA" data-form="hubform-acme-contact-form"></div>{{end}}
</div>{{end}}`))

// page holds the fixture's options, read from the query of the page URL.
type page struct {
	JS, HTMX            bool
	Captcha             string // "", "turnstile" or "recaptcha"
	Current             string // id of the step marked data-hubform-current
	Errors              bool   // a filled error summary
	CSS, JSURL, HTMXURL string
}

func pageFromQuery(q url.Values) page {
	return page{
		JS:      q.Get("js") != "0",
		HTMX:    q.Get("htmx") == "1",
		Captcha: q.Get("captcha"),
		Current: q.Get("current"),
		Errors:  q.Get("errors") == "1",
		CSS:     URL("hubform.css"),
		JSURL:   URL("hubform.js"),
		HTMXURL: URL("htmx.min.js"),
	}
}

// A post is what the fixture's submit route received.
type post struct {
	values    url.Values
	fileBytes int64
	htmx      bool
}

// fixtureServer serves the page, the static handler and a submit route whose
// answer depends on the posted name: "fail" gets 422, "rerender" the form
// again with errors, "hold" waits for release before it is accepted.
type fixtureServer struct {
	*httptest.Server
	posts   chan post
	release chan struct{}
}

func newFixtureServer(t *testing.T) *fixtureServer {
	s := &fixtureServer{posts: make(chan post, 16), release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.Handle("/static/", http.StripPrefix("/static", Handler()))
	mux.HandleFunc("GET /form", func(w http.ResponseWriter, r *http.Request) {
		render(w, "page", pageFromQuery(r.URL.Query()))
	})
	mux.HandleFunc("POST /hubform/acme/contact/submit", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(8 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		p := post{values: r.MultipartForm.Value, htmx: r.Header.Get("HX-Request") == "true"}
		for _, fh := range r.MultipartForm.File["files"] {
			p.fileBytes += fh.Size
		}
		s.posts <- p
		opts := page{}
		if u, err := url.Parse(r.Header.Get("HX-Current-URL")); err == nil {
			opts = pageFromQuery(u.Query())
		}
		switch r.PostFormValue("name") {
		case "fail":
			http.Error(w, "hub unavailable", http.StatusUnprocessableEntity)
			return
		case "rerender":
			opts.Errors, opts.Current = true, "details"
			render(w, "hubform", opts)
			return
		case "hold":
			select {
			case <-s.release:
			case <-r.Context().Done():
				return
			}
		}
		if p.htmx {
			render(w, "submitted", opts)
			return
		}
		w.Write([]byte(`<!doctype html><html><body>`))
		render(w, "submitted", opts)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func render(w http.ResponseWriter, name string, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := fixture.ExecuteTemplate(w, name, p); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (s *fixtureServer) nextPost(t *testing.T) post {
	t.Helper()
	select {
	case p := <-s.posts:
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("no submission reached the server")
		return post{}
	}
}

func (s *fixtureServer) noPost(t *testing.T) {
	t.Helper()
	select {
	case p := <-s.posts:
		t.Fatalf("unexpected submission: %v", p.values)
	default:
	}
}

// formState is what a person sees of the form.
type formState struct {
	Wizard  bool     `json:"wizard"`
	Visible []string `json:"visible"` // ids of the visible steps
	Nav     []string `json:"nav"`     // visible nav buttons, as step:next or step:back
	Submit  bool     `json:"submit"`  // the submit button is visible
	Status  string   `json:"status"`
	Focus   string   `json:"focus"` // id of the focused element, or legend@step, or errors
}

const stateJS = `(() => {
  const f = document.querySelector('form[data-hubform-form]');
  const vis = (el) => !!el && el.checkVisibility();
  const stepOf = (el) => el.closest('fieldset[data-hubform-step]')?.dataset.hubformStep;
  const a = document.activeElement;
  let focus = a ? (a.id || a.tagName.toLowerCase()) : '';
  if (a && a.tagName === 'LEGEND') focus = 'legend@' + stepOf(a);
  if (a && a.hasAttribute('data-hubform-errors')) focus = 'errors';
  return {
    wizard: f.classList.contains('hubform-js'),
    visible: [...f.querySelectorAll('fieldset[data-hubform-step]')].filter(vis).map((s) => s.dataset.hubformStep),
    nav: [...f.querySelectorAll('[data-hubform-next], [data-hubform-back]')].filter(vis)
      .map((b) => stepOf(b) + ':' + (b.hasAttribute('data-hubform-next') ? 'next' : 'back')),
    submit: vis(f.querySelector('[data-hubform-submit]')),
    status: f.querySelector('[data-hubform-step-status]').textContent,
    focus,
  };
})()`

// browserTest wraps a tab with helpers that fail the test on error.
type browserTest struct {
	t   *testing.T
	ctx context.Context
	srv *fixtureServer
}

func (b *browserTest) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browserTest) open(query string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.srv.URL + "/form?" + query))
}

func eval[T any](b *browserTest, js string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	return browsertest.Eval[T](b.t, b.ctx, 5*time.Second, js, opts...)
}

// waitFor waits until the JavaScript predicate is true.
func (b *browserTest) waitFor(js string) {
	b.t.Helper()
	browsertest.WaitFor(b.t, b.ctx, 5*time.Second, js)
}

func (b *browserTest) state() formState {
	b.t.Helper()
	return eval[formState](b, stateJS)
}

func (b *browserTest) wantState(want formState) {
	b.t.Helper()
	got := b.state()
	if got.Wizard != want.Wizard || !slices.Equal(got.Visible, want.Visible) || !slices.Equal(got.Nav, want.Nav) ||
		got.Submit != want.Submit || got.Status != want.Status || (want.Focus != "" && got.Focus != want.Focus) {
		b.t.Fatalf("form state\n got %+v\nwant %+v", got, want)
	}
}

func (b *browserTest) click(step, button string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="` + step + `"] [data-hubform-` + button + `]`)))
}

func (b *browserTest) fill(id, value string) {
	b.t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID(id), value))
}

func (b *browserTest) submit() {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
}

// fillAll walks the three steps with valid values and ends on the last.
func (b *browserTest) fillAll(name string) {
	b.t.Helper()
	b.fill("hubform-acme-contact-name", name)
	b.click("about", "next")
	b.fill("hubform-acme-contact-email", "jane@example.com")
	b.click("details", "next")
	b.fill("hubform-acme-contact-message", "Hello")
}

var (
	step1 = formState{Wizard: true, Visible: []string{"about"}, Nav: []string{"about:next"}, Status: "Step 1 of 3"}
	step2 = formState{Wizard: true, Visible: []string{"details"}, Nav: []string{"details:back", "details:next"}, Status: "Step 2 of 3"}
	step3 = formState{Wizard: true, Visible: []string{"message"}, Nav: []string{"message:back"}, Submit: true, Status: "Step 3 of 3"}
)

func TestBrowser(t *testing.T) {
	b := &browserTest{t: t, ctx: browsertest.New(t), srv: newFixtureServer(t)}
	sub := func(name string, f func(b *browserTest)) {
		t.Run(name, func(t *testing.T) {
			f(&browserTest{t: t, ctx: b.ctx, srv: b.srv})
		})
	}

	sub("without script every step shows", func(b *browserTest) {
		b.open("js=0")
		b.wantState(formState{Visible: []string{"about", "details", "message"}, Submit: true})
	})

	for _, withHTMX := range []bool{false, true} {
		name := "steps without htmx"
		query := "htmx=0"
		if withHTMX {
			name, query = "steps with htmx", "htmx=1"
		}
		sub(name, func(b *browserTest) {
			if withHTMX {
			}
			b.open(query)
			if got := eval[bool](b, `typeof window.htmx !== 'undefined'`); got != withHTMX {
				b.t.Fatalf("htmx loaded: %v, want %v", got, withHTMX)
			}
			b.wantState(step1)

			// Next with the required name empty stays and points at it.
			b.click("about", "next")
			b.wantState(formState{Wizard: true, Visible: []string{"about"}, Nav: []string{"about:next"},
				Status: "Step 1 of 3", Focus: "hubform-acme-contact-name"})

			b.fill("hubform-acme-contact-name", "Jane")
			b.click("about", "next")
			s := step2
			s.Focus = "legend@details"
			b.wantState(s)

			b.click("details", "back")
			s = step1
			s.Focus = "legend@about"
			b.wantState(s)
			if v := eval[string](b, `document.getElementById('hubform-acme-contact-name').value`); v != "Jane" {
				b.t.Errorf("name after Back = %q, want Jane", v)
			}

			b.click("about", "next")
			b.click("details", "next") // email is required
			b.wantState(formState{Wizard: true, Visible: []string{"details"}, Nav: []string{"details:back", "details:next"},
				Status: "Step 2 of 3", Focus: "hubform-acme-contact-email"})
			b.fill("hubform-acme-contact-email", "jane@example.com")
			b.click("details", "next")
			s = step3
			s.Focus = "legend@message"
			b.wantState(s)
			b.srv.noPost(b.t)
		})
	}

	sub("server-marked step opens", func(b *browserTest) {
		b.open("current=details")
		b.wantState(step2)
	})

	sub("error summary gets focus and opens its field's step", func(b *browserTest) {
		b.open("current=details&errors=1")
		s := step2
		s.Focus = "errors"
		b.wantState(s)
		b.fill("hubform-acme-contact-email", "jane@example.com")
		b.click("details", "next")
		b.wantState(step3)
		b.do(chromedp.Click(chromedp.CSS(`[data-hubform-errors] a`)))
		s = step2
		s.Focus = "hubform-acme-contact-email"
		b.wantState(s)
	})

	sub("enter in a text field acts as next", func(b *browserTest) {
		b.open("")
		b.fill("hubform-acme-contact-name", "Jane"+kb.Enter)
		b.wantState(step2)
		b.fill("hubform-acme-contact-email", "jane@example.com"+kb.Enter)
		b.wantState(step3)
		b.srv.noPost(b.t)
	})

	sub("native submit without htmx", func(b *browserTest) {
		b.open("htmx=0")
		b.fillAll("Jane")
		b.submit()
		b.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		p := b.srv.nextPost(b.t)
		if p.htmx || p.values.Get("name") != "Jane" || p.values.Get("email") != "jane@example.com" {
			b.t.Errorf("post %+v, want a native post of name and email", p)
		}
	})

	sub("upload progress and busy state", func(b *browserTest) {
		file := filepath.Join(b.t.TempDir(), "report.bin")
		if err := os.WriteFile(file, make([]byte, 2<<20), 0o600); err != nil {
			b.t.Fatal(err)
		}
		b.open("htmx=1")
		b.fill("hubform-acme-contact-name", "hold")
		b.click("about", "next")
		b.fill("hubform-acme-contact-email", "jane@example.com")
		b.do(chromedp.SetUploadFiles(chromedp.ID("hubform-acme-contact-files"), []string{file}))
		b.click("details", "next")
		b.submit()
		p := b.srv.nextPost(b.t)
		if !p.htmx || p.fileBytes != 2<<20 {
			b.t.Errorf("post: htmx %v, %d file bytes; want an htmx post of %d", p.htmx, p.fileBytes, 2<<20)
		}
		// The server holds the answer: the request is in flight.
		b.waitFor(`(() => {
		  const f = document.querySelector('form[data-hubform-form]');
		  const bar = f.querySelector('[data-hubform-progress]');
		  return f.getAttribute('aria-busy') === 'true' && f.querySelector('[data-hubform-submit]').disabled &&
		    !bar.hidden && bar.value === 100;
		})()`)
		b.srv.release <- struct{}{}
		b.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
	})

	sub("turnstile token, re-render after a swap, reset after an error", func(b *browserTest) {
		b.open("htmx=1&captcha=turnstile")
		b.waitFor(`document.querySelector('[data-hubform-captcha-token]').value === 'token-w1'`)
		calls := eval[[]string](b, `turnstileCalls`)
		if !slices.Equal(calls, []string{"render:w1:1x00000000000000000000AA:interaction-only"}) {
			b.t.Fatalf("turnstile calls %q", calls)
		}
		b.fillAll("rerender")
		b.submit()
		if p := b.srv.nextPost(b.t); p.values.Get("_captchaToken") != "token-w1" {
			b.t.Errorf("posted token %q, want token-w1", p.values.Get("_captchaToken"))
		}
		// The answer is the form again, with its errors: a new mount, a new widget.
		b.waitFor(`document.querySelector('[data-hubform-captcha-token]').value === 'token-w2'`)
		s := step2
		s.Focus = "errors"
		b.wantState(s)
		calls = eval[[]string](b, `turnstileCalls`)
		if !slices.Contains(calls, "remove:w1") || !slices.Contains(calls, "render:w2:1x00000000000000000000AA:interaction-only") {
			b.t.Errorf("turnstile calls %q, want w1 removed and w2 rendered", calls)
		}

		b.do(chromedp.SetValue(chromedp.ID("hubform-acme-contact-name"), "fail"))
		b.fill("hubform-acme-contact-email", "jane@example.com")
		b.click("details", "next")
		b.submit()
		b.srv.nextPost(b.t)
		b.waitFor(`turnstileCalls.includes('reset:w2')`)
		b.waitFor(`(() => {
		  const f = document.querySelector('form[data-hubform-form]');
		  return !f.hasAttribute('aria-busy') && !f.querySelector('[data-hubform-submit]').disabled &&
		    f.querySelector('[data-hubform-captcha-token]').value === '';
		})()`)
	})

	sub("turnstile script loaded after the page", func(b *browserTest) {
		b.open("htmx=0&captcha=turnstile")
		// A mount not rendered yet is rendered when the Turnstile script
		// calls its onload function.
		b.waitFor(`document.querySelector('[data-vendor-turnstile]').hasAttribute('data-hubform-rendered')`)
		eval[bool](b, `(() => {
		  const mount = document.querySelector('[data-vendor-turnstile]');
		  const fresh = mount.cloneNode(false);
		  fresh.removeAttribute('data-hubform-rendered');
		  mount.replaceWith(fresh);
		  window.hubformTurnstileReady();
		  return true;
		})()`)
		b.waitFor(`document.querySelector('[data-hubform-captcha-token]').value === 'token-w2'`)
	})

	for _, withHTMX := range []bool{false, true} {
		name, query := "recaptcha v3 without htmx", "htmx=0&captcha=recaptcha"
		if withHTMX {
			name, query = "recaptcha v3 with htmx", "htmx=1&captcha=recaptcha"
		}
		sub(name, func(b *browserTest) {
			if withHTMX {
			}
			b.open(query)
			b.fillAll("Jane")
			b.submit()
			p := b.srv.nextPost(b.t)
			if p.htmx != withHTMX || p.values.Get("_captchaToken") != "rc-1" {
				b.t.Errorf("post: htmx %v, token %q; want htmx %v, token rc-1", p.htmx, p.values.Get("_captchaToken"), withHTMX)
			}
			b.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
			b.srv.noPost(b.t)
		})
	}

	sub("htmx history restore is a full request", func(b *browserTest) {
		b.open("htmx=1")
		if !eval[bool](b, `htmx.config.historyRestoreAsHxRequest === false`) {
			b.t.Error("htmx.config.historyRestoreAsHxRequest is not false")
		}
	})

	sub("loading twice binds once", func(b *browserTest) {
		b.open("htmx=1&captcha=recaptcha")
		eval[bool](b, `new Promise((resolve, reject) => {
		  const s = document.createElement('script');
		  s.src = document.querySelector('script[src*="hubform.js"]').src;
		  s.onload = () => resolve(true);
		  s.onerror = reject;
		  document.head.append(s);
		})`, chromedp.EvalAwaitPromise)
		b.fill("hubform-acme-contact-name", "Jane")
		b.do(chromedp.SetValue(chromedp.ID("hubform-acme-contact-email"), "jane@example.com"))
		b.click("about", "next")
		// One binding moves one step; two would have skipped to the last.
		b.wantState(step2)
		// Running again on content already enhanced, as htmx:load on an
		// ancestor does, keeps the person's place.
		eval[bool](b, `(document.body.dispatchEvent(new CustomEvent('htmx:load', {bubbles: true})), true)`)
		b.wantState(step2)
		// Two bindings would each ask for a token and send a request.
		b.click("details", "next")
		b.submit()
		b.srv.nextPost(b.t)
		b.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		if n := eval[int](b, `recaptchaCalls.length`); n != 1 {
			b.t.Errorf("%d reCAPTCHA executions for one submit, want 1", n)
		}
	})
}
