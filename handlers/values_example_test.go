package handlers_test

import (
	"fmt"
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// The app fills a hidden field with the order the page is about, signed:
// the post carries it back, and a visitor who changes it is refused.
func ExampleWithValues() {
	hub := fakehub.NewServer()
	defer hub.Close()
	hub.SetForm("acme", "feedback", &hubclient.Schema{
		Title: "How was your order?",
		Fields: []hubclient.Field{
			{Name: "order", Type: hubclient.FieldHidden},
			{Name: "comment", Type: hubclient.FieldTextarea, Label: "Comment"},
		},
		Steps: []hubclient.Step{{ID: "one", Fields: []string{"comment"}}},
	})
	forms := handlers.New(handlers.Config{HubURL: hub.URL, Forms: map[handlers.Form]handlers.FormOptions{
		// Never from the page's query, always signed.
		{Site: "acme", Slug: "feedback"}: {SignedValues: []string{"order"}},
	}})
	e := echo.New()
	forms.Mount(e)
	e.GET("/orders/:id/feedback", func(c echo.Context) error {
		props := forms.PropsFor(c, "acme", "feedback", handlers.WithValues{
			Values: map[string]string{"order": c.Param("id")},
			Signed: true,
		})
		return components.HubForm(props).Render(c.Request().Context(), c.Response())
	})
	srv := httptest.NewServer(e)
	defer srv.Close()

	res, err := http.Get(srv.URL + "/orders/42/feedback")
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	// The form's hidden inputs, as a browser posts them.
	form := url.Values{"comment": {"Fast, thanks."}}
	for _, m := range regexp.MustCompile(`name="([^"]+)" type="hidden" value="([^"]*)"|type="hidden" name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(string(body), -1) {
		if m[1] != "" {
			form.Set(m[1], html.UnescapeString(m[2]))
		} else {
			form.Set(m[3], html.UnescapeString(m[4]))
		}
	}
	fmt.Println("order:", form.Get("order"))

	post := func(form url.Values) int {
		res, err := http.PostForm(srv.URL+"/hubform/acme/feedback/submit", form)
		if err != nil {
			log.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	changed := url.Values{}
	for k, v := range form {
		changed[k] = v
	}
	changed.Set("order", "43")
	fmt.Println("order changed:", post(changed))
	fmt.Println("as signed:", post(form))
	fmt.Println("the hub has:", hub.Submissions()[0].Request.Payload["order"])
	// Output:
	// order: 42
	// order changed: 422
	// as signed: 200
	// the hub has: 42
}
