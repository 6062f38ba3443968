package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

const demoHelp = `
Usage: hubform demo [--addr ADDR] [--hub-url URL] [--data DIR]

Serves a site that renders hub forms with HubForm: /f/{site}/{slug}?locale=xx
shows any form of the hub, rendered on the server and posted with htmx
through the Go submit pipeline. A schema is fetched again after a second, so
a form published in the hub's console shows at once. Without --hub-url it starts its own hub on
a loopback port, serving the example forms shipped with hubform, with its
database and files under --data; that hub also serves a page of its own for
each form, at /f/{site}/{slug} on the hub's address, and its console, where
the demo's owner (` + demoOwner + `) signs in with the password printed at
start, new each run.
`

const demoTail = `
Example:
  hubform demo --addr 127.0.0.1:8080
  open http://127.0.0.1:8080/f/demo/survey?locale=de
`

// demoSettings are the demo command's settings.
type demoSettings struct {
	addr, hubURL, data string
	captcha            captchaKeys
	turnstileScript    string
	turnstileVerifyURL string
	recaptchaVerifyURL string
}

// captchaKeys are a provider's key pair; the demo wires a provider when it
// has both.
type captchaKeys struct {
	turnstileSiteKey, turnstileSecret string
	recaptchaSiteKey, recaptchaSecret string
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var s demoSettings
	fs := newFlagSet("demo", demoHelp, demoTail, stderr)
	fs.StringVar(&s.addr, "addr", "127.0.0.1:8080", "`ADDR` the demo site listens on")
	fs.StringVar(&s.hubURL, "hub-url", "", "a hub's `URL` to show forms of; empty: start one")
	fs.StringVar(&s.data, "data", defaultDemoData(), "`DIR` for the started hub's forms, database and files")
	fs.StringVar(&s.captcha.turnstileSiteKey, "turnstile-site-key", "", "Turnstile site `KEY`: with the secret, the contact form asks for Turnstile")
	fs.StringVar(&s.captcha.turnstileSecret, "turnstile-secret", "", "Turnstile `SECRET` for the started hub")
	fs.StringVar(&s.captcha.recaptchaSiteKey, "recaptcha-site-key", "", "reCAPTCHA v3 site `KEY`: with the secret, the survey asks for reCAPTCHA")
	fs.StringVar(&s.captcha.recaptchaSecret, "recaptcha-secret", "", "reCAPTCHA `SECRET` for the started hub")
	fs.StringVar(&s.turnstileScript, "turnstile-script-url", "", "Turnstile script `URL`; empty: Cloudflare's")
	fs.StringVar(&s.turnstileVerifyURL, "turnstile-verify-url", captcha.TurnstileVerifyURL, "Turnstile siteverify `URL` for the started hub")
	fs.StringVar(&s.recaptchaVerifyURL, "recaptcha-verify-url", captcha.RecaptchaVerifyURL, "reCAPTCHA siteverify `URL` for the started hub")
	if _, status, ok := fs.parse(args, stdout); !ok {
		return status
	}
	if err := serveDemo(ctx, s, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "hubform demo: %v\n", err)
		return 1
	}
	return 0
}

func defaultDemoData() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "hubform", "demo")
	}
	return filepath.Join(os.TempDir(), "hubform-demo")
}

func serveDemo(ctx context.Context, s demoSettings, stdout, stderr io.Writer) error {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	app := demoConfig{hubURL: s.hubURL, logger: logger, turnstileScript: s.turnstileScript}
	if s.hubURL == "" {
		formsDir := filepath.Join(s.data, "forms")
		if err := writeExampleForms(formsDir, s.captcha, demoURL(s.addr)); err != nil {
			return err
		}
		h, err := hubserver.Open(ctx, hubserver.Config{
			Addr: "127.0.0.1:0", Data: s.data, Forms: formsDir, MaxBody: protocol.DefaultMaxBodyBytes,
			UploadTTL: 24 * time.Hour, SweepInterval: 10 * time.Minute, ShutdownGrace: 10 * time.Second,
			TurnstileSecret: s.captcha.turnstileSecret, RecaptchaSecret: s.captcha.recaptchaSecret,
			TurnstileVerifyURL: s.turnstileVerifyURL, RecaptchaVerifyURL: s.recaptchaVerifyURL,
		}, logger)
		if err != nil {
			return err
		}
		// The hub stops with the demo, and its storage closes only once it
		// has: its queue still writes while it stops.
		hubCtx, stopHub := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- h.Serve(hubCtx) }()
		defer func() {
			stopHub()
			if err := <-served; err != nil {
				logger.Warn("the demo's hub stopped", "error", err)
			}
			h.Close()
		}()
		app.hubURL, app.submissions, app.files = h.URL, h.DB, h.Blobs
		// The owner's side, in the same command: a demo owner whose
		// password is new each run.
		password, err := ensureDemoOwner(ctx, h.DB, stderr)
		if err != nil {
			return fmt.Errorf("the demo's owner: %w", err)
		}
		hubBase := strings.TrimSuffix(h.URL, "/v1")
		fmt.Fprintf(stdout, "hubform demo: hub at %s, data in %s (its own page of each form at %s/f/{site}/{slug})\n",
			h.URL, s.data, hubBase)
		fmt.Fprintf(stdout, "hubform demo: console at %s/console: sign in as %s with the password %s (new each run, for this demo only)\n",
			hubBase, demoOwner, password)
	}
	var closeForms func(context.Context)
	app.closed = func(close func(context.Context)) { closeForms = close }
	server := newDemoServer(s.addr, newDemoApp(app), demoTimeouts, logger)
	errc := make(chan error, 1)
	go func() { errc <- server.ListenAndServe() }()
	fmt.Fprintf(stdout, "hubform demo: serving http://%s/ (forms at /f/{site}/{slug}?locale=xx)\n", s.addr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := server.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// The forms' counts held go to the hub, still serving.
	closeForms(shutdown)
	return nil
}

// writeExampleForms lays the example forms out as a hub's forms directory,
// replacing what an older version left there, and asks for a captcha where
// keys were given: Turnstile on the contact form, reCAPTCHA on the survey.
// The survey's pictures are the demo app's at demoURL.
func writeExampleForms(dir string, keys captchaKeys, demoURL string) error {
	wire := map[string][2]string{}
	if keys.turnstileSiteKey != "" && keys.turnstileSecret != "" {
		wire["demo/contact.json"] = [2]string{hubclient.CaptchaTurnstile, keys.turnstileSiteKey}
	}
	if keys.recaptchaSiteKey != "" && keys.recaptchaSecret != "" {
		wire["demo/survey.json"] = [2]string{hubclient.CaptchaRecaptchaV3, keys.recaptchaSiteKey}
	}
	return fs.WalkDir(exampleForms, "example-forms", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.TrimPrefix(path, "example-forms/")
		data, err := exampleForm(path, demoURL)
		if err != nil {
			return err
		}
		if c, ok := wire[name]; ok {
			if data, err = withCaptcha(data, c[0], c[1]); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// withCaptcha sets a form file's meta.captchaProvider and captchaSiteKey.
func withCaptcha(data []byte, provider, siteKey string) ([]byte, error) {
	var form map[string]any
	if err := json.Unmarshal(data, &form); err != nil {
		return nil, err
	}
	meta, _ := form["meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["captchaProvider"], meta["captchaSiteKey"] = provider, siteKey
	form["meta"] = meta
	return json.MarshalIndent(form, "", "  ")
}

// demoURL is the address of the demo app listening on addr, as a browser
// on this machine reaches it: an address of no host or of every host is
// reached as localhost.
func demoURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
