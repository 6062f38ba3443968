package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/templates"
)

// TestTemplateGallery lists the templates on the New form page, previews
// one, and creates a form from another, with the tenancy and roles of any
// new form.
func TestTemplateGallery(t *testing.T) {
	tc := newConsole(t, withStore)
	ctx := context.Background()
	if res := tc.browser().get(console.Path + "/sites/templates/feedback"); res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Errorf("a template's preview without a session: %d", res.status)
	}

	b, token := signedIn(t, tc)
	page := b.get(console.Path + "/sites")
	if n := strings.Count(page.body, ">Use this template</a>"); n < 12 || n != len(templates.List()) || !strings.Contains(page.body, "Start from scratch") {
		t.Errorf("the New form page offers %d templates", n)
	}
	if !strings.Contains(page.body, "Net Promoter Score") || !strings.Contains(page.body, "NPS") {
		t.Error("the feedback card has no description or types")
	}
	preview := b.get(console.Path + "/sites/templates/feedback")
	if preview.status != http.StatusOK || !strings.Contains(preview.body, `name="recommend"`) || !strings.Contains(preview.body, "Product feedback") {
		t.Errorf("preview: %d %s", preview.status, preview.body)
	}
	if res := b.get(console.Path + "/sites/templates/nope"); res.status != http.StatusNotFound {
		t.Errorf("preview of an unknown template: %d", res.status)
	}
	chosen := b.get(console.Path + "/sites?template=order")
	if !strings.Contains(chosen.body, `name="template" value="order"`) || !strings.Contains(chosen.body, `value="Order form"`) {
		t.Errorf("the create form does not carry the chosen template: %s", chosen.body)
	}

	res := b.do(http.MethodPost, console.Path+"/sites", url.Values{"_csrf": {token}, "site": {"shop"}, "slug": {"order"}, "title": {"Beans and mugs"}, "template": {"order"}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/console/forms/shop/order" {
		t.Fatalf("create from a template: %d %s", res.status, res.body)
	}
	v, err := tc.db.FormVersion(ctx, "shop", "order", 1)
	if err != nil || v.SavedBy != janeEmail || !strings.Contains(string(v.Body), `"Beans and mugs"`) || !strings.Contains(string(v.Body), `"coffee"`) || !strings.Contains(string(v.Body), `"currency"`) {
		t.Errorf("version 1: %v %s", err, v.Body)
	}
	if page := b.get("/console/forms/shop/order"); !strings.Contains(page.body, "Coffee beans") {
		t.Error("the builder does not show the template's questions")
	}
	if res := b.do(http.MethodPost, console.Path+"/sites", url.Values{"_csrf": {token}, "site": {"shop"}, "slug": {"x"}, "template": {"nope"}}, nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("create from an unknown template: %d", res.status)
	}

	// A viewer may look, not create.
	addMember(t, tc, "vic@example.com", accounts.Viewer, "")
	vic := tc.browser()
	vic.signIn("vic@example.com", janePassword)
	if res := vic.get(console.Path + "/sites/templates/quiz"); res.status != http.StatusOK {
		t.Errorf("a viewer's preview: %d", res.status)
	}
	if res := vic.do(http.MethodPost, console.Path+"/sites", url.Values{"_csrf": {vic.csrf(console.Path + "/sites")}, "site": {"shop"}, "slug": {"quiz"}, "template": {"quiz"}}, nil); res.status != http.StatusForbidden {
		t.Errorf("a viewer creating from a template: %d", res.status)
	}
	// Another workspace cannot create into this one's site.
	addMember(t, tc, "olga@example.com", accounts.Admin, "olga")
	olga := tc.browser()
	olga.signIn("olga@example.com", janePassword)
	if res := olga.do(http.MethodPost, console.Path+"/sites", url.Values{"_csrf": {olga.csrf(console.Path + "/sites")}, "site": {"shop"}, "slug": {"quiz"}, "template": {"quiz"}}, nil); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "not available") {
		t.Errorf("another workspace creating into the site: %d", res.status)
	}
	if _, err := tc.db.FormRecord(ctx, "shop", "quiz"); err == nil {
		t.Error("a refused create saved a form")
	}
}

// TestTemplatePreviewAnswers: a template's preview works out its logic
// and, once sent, shows the ending and the score its answers reach, its
// recalls filled, storing nothing.
func TestTemplatePreviewAnswers(t *testing.T) {
	tc := newConsole(t, withStore)
	b, token := signedIn(t, tc)
	post := func(path string, form url.Values) response {
		form.Set("_csrf", token)
		return b.do(http.MethodPost, console.Path+"/sites/templates/quiz"+path, form, nil)
	}
	if res := b.get(console.Path + "/sites/templates/quiz"); !strings.Contains(res.body, `action="/console/sites/templates/quiz/submit"`) || !strings.Contains(res.body, `/console/sites/templates/quiz/logic`) {
		t.Errorf("the preview's form posts elsewhere: %s", res.body)
	}
	res := post("/submit", url.Values{"name": {"Ann"}, "q1": {"mercury"}, "q2": {"6"}, "q3": {"red", "green", "blue"}, "q4": {"austen"}})
	for _, want := range []string{"This is the preview: nothing was sent or stored.", "Top marks, Ann!", "data-hubform-score"} {
		if res.status != http.StatusOK || !strings.Contains(res.body, want) {
			t.Errorf("sent: %d, lacks %q: %s", res.status, want, res.body)
		}
	}
	if res := post("/logic", url.Values{"name": {"Ann"}, "_hubformLogic": {"v"}}); res.status != http.StatusOK {
		t.Errorf("logic: %d %s", res.status, res.body)
	}
	if res := b.do(http.MethodPost, console.Path+"/sites/templates/none/submit", url.Values{"_csrf": {token}}, nil); res.status != http.StatusNotFound {
		t.Errorf("an unknown template: %d", res.status)
	}
	// A viewer sees the gallery's previews, and may fill them in too.
	viewer := tc.member("vic@example.com", accounts.Viewer)
	vt := viewer.csrf(console.Path)
	for _, path := range []string{"/submit", "/logic"} {
		if res := viewer.do(http.MethodPost, console.Path+"/sites/templates/quiz"+path, url.Values{"_csrf": {vt}, "name": {"Vic"}, "_hubformLogic": {"v"}}, nil); res.status != http.StatusOK {
			t.Errorf("a viewer's %s: %d", path, res.status)
		}
	}
}
