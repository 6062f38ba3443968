package handlers_test

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// valuesApp serves acme/feedback on /page with the values opts give, the
// form registered with reg.
func valuesApp(t *testing.T, reg handlers.FormOptions, opts ...handlers.PropsOption) (*fakehub.Hub, string) {
	t.Helper()
	hub := fakehub.NewServer()
	t.Cleanup(hub.Close)
	hub.SetForm("acme", "feedback", &hubclient.Schema{
		Title: "Feedback",
		Fields: []hubclient.Field{
			{Name: "order", Type: hubclient.FieldHidden},
			{Name: "utm_source", Type: hubclient.FieldHidden},
			{Name: "comment", Type: hubclient.FieldText, Label: "Comment", Required: true},
		},
		Steps: []hubclient.Step{{ID: "one", Fields: []string{"comment"}}},
	})
	forms := handlers.New(handlers.Config{HubURL: hub.URL, Forms: map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "feedback"}: reg}})
	e := echo.New()
	forms.Mount(e)
	e.GET("/page", func(c echo.Context) error {
		return components.HubForm(forms.PropsFor(c, "acme", "feedback", opts...)).Render(c.Request().Context(), c.Response())
	})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return hub, srv.URL
}

var hiddenInput = regexp.MustCompile(`<input [^>]*type="hidden"[^>]*>`)
var attr = regexp.MustCompile(`(name|value)="([^"]*)"`)

// pageForm gets the page at path and returns its hidden inputs' values,
// as a browser would post them.
func pageForm(t *testing.T, base, path string) url.Values {
	t.Helper()
	res, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	form := url.Values{"comment": {"ok"}}
	for _, in := range hiddenInput.FindAllString(string(body), -1) {
		var name, value string
		for _, m := range attr.FindAllStringSubmatch(in, -1) {
			if m[1] == "name" {
				name = m[2]
			} else {
				value = html.UnescapeString(m[2])
			}
		}
		if name != "" {
			form.Set(name, value)
		}
	}
	return form
}

func postForm(t *testing.T, base string, form url.Values) (int, string) {
	t.Helper()
	res, err := http.PostForm(base+"/hubform/acme/feedback/submit", form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res.StatusCode, html.UnescapeString(string(body))
}

// TestWithValuesSigned: a value the app signed and the visitor changed is
// refused, with the field's error and nothing sent; as signed, it is
// sent. A signature not the app's is refused too.
func TestWithValuesSigned(t *testing.T) {
	hub, base := valuesApp(t, handlers.FormOptions{}, handlers.WithValues{Values: map[string]string{"order": "42"}, Signed: true})
	form := pageForm(t, base, "/page")
	if form.Get("order") != "42" || !strings.HasPrefix(form.Get(components.SignedField), "order.") {
		t.Fatalf("the page's hidden values: %v", form)
	}
	for name, change := range map[string]func(url.Values){
		"the value changed":  func(v url.Values) { v.Set("order", "43") },
		"the value emptied":  func(v url.Values) { v.Set("order", "") },
		"a forged signature": func(v url.Values) { v.Set(components.SignedField, "order.AAAA") },
		"an unreadable one":  func(v url.Values) { v.Set(components.SignedField, "nonsense") },
		"the names changed too": func(v url.Values) {
			v.Set("order", "43")
			v.Set(components.SignedField, "utm_source."+strings.SplitN(v.Get(components.SignedField), ".", 2)[1])
		},
	} {
		v := url.Values{}
		for k, x := range form {
			v[k] = x
		}
		change(v)
		status, body := postForm(t, base, v)
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "The form was not accepted.") {
			t.Errorf("%s: %d, want 422 with the refusal", name, status)
		}
	}
	if n := len(hub.Submissions()); n != 0 {
		t.Fatalf("%d submissions sent with a changed value", n)
	}
	// The form shown again for another problem keeps the signature.
	empty := url.Values{}
	for k, x := range form {
		empty[k] = x
	}
	empty.Set("comment", "")
	if status, body := postForm(t, base, empty); status != http.StatusUnprocessableEntity || !strings.Contains(body, `value="`+form.Get(components.SignedField)+`"`) || strings.Contains(body, "The form was not accepted.") {
		t.Errorf("a comment missing: %d, the signature not kept", status)
	}
	if status, _ := postForm(t, base, form); status != http.StatusOK {
		t.Fatalf("as signed: %d", status)
	}
	if got := hub.Submissions()[0].Request.Payload["order"]; got != "42" {
		t.Errorf("the hub has order %v", got)
	}
}

// TestWithValuesRegistered: a field the registration signs takes no value
// from the query, and a post that drops the signature to set one is
// refused; the app's values win over the query's, which still fills the
// other hidden fields; a name that is no hidden field is ignored.
func TestWithValuesRegistered(t *testing.T) {
	hub, base := valuesApp(t, handlers.FormOptions{SignedValues: []string{"order"}},
		handlers.WithValues{Values: map[string]string{"utm_source": "app", "comment": "words put in"}})
	form := pageForm(t, base, "/page?order=99&utm_source=link&utm_medium=x")
	if form.Get("order") != "" || form.Get("utm_source") != "app" || form.Has(components.SignedField) {
		t.Fatalf("the page's hidden values: %v", form)
	}
	if form := pageForm(t, base, "/page?utm_source=link"); form.Get("utm_source") != "app" {
		t.Errorf("the query won over the app: %v", form)
	}
	form.Set("order", "99")
	if status, _ := postForm(t, base, form); status != http.StatusUnprocessableEntity {
		t.Errorf("an unsigned value for a signed field: %d, want 422", status)
	}
	form.Set("order", "")
	if status, _ := postForm(t, base, form); status != http.StatusOK {
		t.Fatalf("without it: %d", status)
	}
	if p := hub.Submissions()[0].Request.Payload; p["comment"] != "ok" || p["utm_source"] != "app" {
		t.Errorf("sent %v", p)
	}
}
