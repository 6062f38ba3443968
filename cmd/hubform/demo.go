package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
)

const demoHelp = `
Usage: hubform demo [--addr ADDR] [--hub-url URL] [--data DIR]

Serves a site that renders hub forms with HubForm: /f/{site}/{slug}?locale=xx
shows any form of the hub, rendered on the server and posted with htmx
through the Go submit pipeline. Without --hub-url it starts its own hub on
a loopback port, serving the example forms shipped with hubform, with its
database and files under --data.
`

const demoTail = `
Example:
  hubform demo --addr 127.0.0.1:8080
  open http://127.0.0.1:8080/f/demo/survey?locale=de
`

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("demo", demoHelp, demoTail, stderr)
	addr := fs.String("addr", envOr("HUBFORM_DEMO_ADDR", "127.0.0.1:8080"), "`ADDR` the demo site listens on (HUBFORM_DEMO_ADDR)")
	hubURL := fs.String("hub-url", envOr("HUBFORM_HUB_URL", ""), "a hub's `URL` to show forms of; empty: start one (HUBFORM_HUB_URL)")
	data := fs.String("data", envOr("HUBFORM_DATA", defaultDemoData()), "`DIR` for the started hub's forms, database and files (HUBFORM_DATA)")
	if _, status, ok := fs.parse(args, stdout); !ok {
		return status
	}
	if err := serveDemo(ctx, *addr, *hubURL, *data, stdout, stderr); err != nil {
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

func serveDemo(ctx context.Context, addr, hubURL, data string, stdout, stderr io.Writer) error {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if hubURL == "" {
		formsDir := filepath.Join(data, "forms")
		if err := writeExampleForms(formsDir); err != nil {
			return err
		}
		h, err := openHub(ctx, hubConfig{
			addr: "127.0.0.1:0", data: data, forms: formsDir, maxBody: hub.DefaultMaxBodyBytes,
			uploadTTL: 24 * time.Hour, sweepInterval: 10 * time.Minute,
			turnstileVerifyURL: captcha.TurnstileVerifyURL, recaptchaVerify: captcha.RecaptchaVerifyURL,
		}, logger)
		if err != nil {
			return err
		}
		defer h.Close()
		go h.Serve(ctx)
		hubURL = h.URL
		fmt.Fprintf(stdout, "hubform demo: hub at %s, data in %s\n", hubURL, data)
	}
	app := newDemoApp(hubURL, logger)
	server := &http.Server{Addr: addr, Handler: app, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- server.ListenAndServe() }()
	fmt.Fprintf(stdout, "hubform demo: serving http://%s/ (forms at /f/{site}/{slug}?locale=xx)\n", addr)
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
	return nil
}

// writeExampleForms lays the example forms out as a hub's forms directory,
// replacing what an older version left there.
func writeExampleForms(dir string) error {
	return fs.WalkDir(exampleForms, "forms", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path, "forms/")))
		data, err := exampleForms.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// newDemoApp is the demo site: an Echo app with CSRF protection, as a host
// app would be, rendering forms of the hub at hubURL.
func newDemoApp(hubURL string, logger *slog.Logger) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(middleware.Recover())
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{TokenLookup: "form:_csrf", CookieSameSite: http.SameSiteLaxMode, CookiePath: "/"}))
	forms := handlers.New(handlers.Config{HubURL: hubURL, Logger: logger})
	forms.Mount(e)
	e.GET("/", func(c echo.Context) error {
		var list []demoForm
		for _, slug := range []string{"contact", "survey", "unconfigured"} {
			p := forms.PropsFor(c, "demo", slug)
			list = append(list, demoForm{Site: "demo", Slug: slug, Schema: p.InitialSchema})
		}
		return render(c, http.StatusOK, demoIndex(forms.Head(), list))
	})
	e.GET("/f/:site/:slug", func(c echo.Context) error {
		p := forms.PropsFor(c, c.Param("site"), c.Param("slug"))
		var locales []string
		title := p.FormSlug
		if p.InitialSchema != nil {
			locales = slices.Sorted(maps.Keys(p.InitialSchema.I18n.Translations))
			title = or(p.InitialSchema.Title, title)
		}
		return render(c, http.StatusOK, demoFormPage(title, forms.Head(), p, locales))
	})
	return e
}

func render(c echo.Context, status int, page templ.Component) error {
	c.Response().Header().Set("Content-Type", "text/html; charset=utf-8")
	c.Response().WriteHeader(status)
	return page.Render(c.Request().Context(), c.Response())
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
