package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// An Echo app renders a hub's contact form on its own page: the schema is
// fetched on the server, the form posts to the handlers' submit route,
// which delivers it to the hub.
func ExampleHandler_Mount() {
	hub := fakehub.NewServer() // in production: your hub's URL, or none for the default hub
	defer hub.Close()
	hub.SetForm("acme", "contact", &hubclient.Schema{
		Title:  "Contact us",
		Fields: []hubclient.Field{{Name: "email", Type: hubclient.FieldEmail, Label: "Email", Required: true}},
		Steps:  []hubclient.Step{{ID: "one", Fields: []string{"email"}}},
	})

	forms := handlers.New(handlers.Config{
		HubURL: hub.URL,
		OnSuccess: func(ctx context.Context, f handlers.Form, values map[string]any) {
			log.Printf("new submission to %s/%s", f.Site, f.Slug)
		},
	})
	e := echo.New()
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{TokenLookup: "form:_csrf"}))
	forms.Mount(e) // /hubform/...: the load and submit routes, and the assets
	e.GET("/contact", func(c echo.Context) error {
		page := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
			io.WriteString(w, "<!DOCTYPE html><html><head>")
			forms.Head().Render(ctx, w) // styles, htmx and the form's script
			io.WriteString(w, "</head><body>")
			components.HubForm(forms.PropsFor(c, "acme", "contact")).Render(ctx, w)
			_, err := io.WriteString(w, "</body></html>")
			return err
		})
		return page.Render(c.Request().Context(), c.Response())
	})

	srv := httptest.NewServer(e)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/contact")
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(body)
	fmt.Println(strings.Contains(page, `<h2 class="hubform-title">Contact us</h2>`))
	fmt.Println(strings.Contains(page, `action="/hubform/acme/contact/submit"`))
	fmt.Println(strings.Contains(page, `name="_csrf"`))
	fmt.Println(strings.Contains(page, `<script type="module" data-hubform-loader`)) // from forms.Head()
	// Output:
	// true
	// true
	// true
	// true
}
