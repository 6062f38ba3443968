package console_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// withStore gives the console the database's forms, as hubform hub does.
func withStore(cfg *console.Config) { cfg.Store = cfg.Users.(*sqldb.DB) }

const twoSteps = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Your name"},{"name":"email","type":"email","label":"Your e-mail","required":true}],
"steps":[{"id":"who","fields":["name"]},{"id":"how","fields":["email"]}],
"i18n":{"translations":{"de":{"fields":{"name":{"label":"Ihr Name"}}}}}}`

// signedIn returns a signed-in browser and a CSRF token of the console.
func signedIn(t *testing.T, tc *testConsole) (*browser, string) {
	t.Helper()
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return b, b.csrf(console.Path + "/sites")
}

func TestStoredFormsClosed(t *testing.T) {
	tc := newConsole(t, withStore)
	b := tc.browser()
	if res := b.get(console.Path + "/sites"); res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Errorf("sites page without a session: %d to %q", res.status, res.header.Get("Location"))
	}
	for _, path := range []string{"/sites", "/forms/acme/contact", "/forms/acme/contact/preview", "/forms/acme/contact/preview/submit", "/forms/acme/contact/versions/1/publish"} {
		if res := b.do(http.MethodPost, console.Path+path, url.Values{"body": {twoSteps}, "site": {"acme"}, "slug": {"x"}}, nil); res.status != http.StatusUnauthorized {
			t.Errorf("POST %s without a session: %d, want 401", path, res.status)
		}
	}
	recs, err := tc.db.FormRecords(context.Background())
	if err != nil || len(recs) != 0 {
		t.Errorf("forms after refused posts: %v %v", recs, err)
	}

	// Signed in, a post without the CSRF token is refused and saves nothing.
	b, _ = signedIn(t, tc)
	if res := b.do(http.MethodPost, console.Path+"/sites", url.Values{"site": {"acme"}, "slug": {"contact"}}, nil); res.status != http.StatusForbidden {
		t.Errorf("create without a CSRF token: %d, want 403", res.status)
	}
	if recs, _ := tc.db.FormRecords(context.Background()); len(recs) != 0 {
		t.Errorf("forms after a post without a CSRF token: %v", recs)
	}
}

func TestCreateEditPublish(t *testing.T) {
	tc := newConsole(t, withStore)
	b, token := signedIn(t, tc)
	ctx := context.Background()
	post := func(path string, form url.Values) response {
		t.Helper()
		form.Set("_csrf", token)
		return b.do(http.MethodPost, console.Path+path, form, nil)
	}

	// A bad name is shown back with its error, and what was typed.
	res := post("/sites", url.Values{"site": {"ac me"}, "slug": {"contact"}, "title": {"Write to us"}})
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, `aria-invalid="true"`) ||
		!strings.Contains(res.body, `value="ac me"`) || !strings.Contains(res.body, `value="Write to us"`) {
		t.Errorf("create with a bad site: %d %s", res.status, res.body)
	}
	res = post("/sites", url.Values{"site": {"acme"}, "slug": {"contact"}, "title": {"Write to us"}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/console/forms/acme/contact" {
		t.Fatalf("create: %d to %q: %s", res.status, res.header.Get("Location"), res.body)
	}
	if res := post("/sites", url.Values{"site": {"acme"}, "slug": {"contact"}}); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "has a form of this name") {
		t.Errorf("create twice: %d", res.status)
	}
	if res := b.get("/console"); !strings.Contains(res.body, `<td><a href="/console/forms/acme/contact/overview">contact</a></td><td>Write to us</td><td>not published</td>`) {
		t.Errorf("the home page lists the new form otherwise: %s", res.body)
	}
	page := b.get("/console/forms/acme/contact")
	if page.status != http.StatusOK || !strings.Contains(page.body, "Write to us") || !strings.Contains(page.body, "Publish version 1") {
		t.Errorf("form page: %d %s", page.status, page.body)
	}

	// An invalid file is refused with the path of each problem, and comes
	// back as typed.
	bad := `{"title":"Mine","fields":[{"name":"x","type":"nope"}],"steps":[{"id":"a","fields":["x"]}],"hub":{"maxFiles":-1}}`
	res = post("/forms/acme/contact", url.Values{"body": {bad}, "base": {"1"}})
	body := html.UnescapeString(res.body)
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(body, "<code>fields[0].type</code>") ||
		!strings.Contains(body, "<code>hub.maxFiles</code>") || !strings.Contains(body, `"type": "nope"`) {
		t.Errorf("invalid save: %d %s", res.status, body)
	}
	if rec, _ := tc.db.FormRecord(ctx, "acme", "contact"); rec.LastVersion != 1 || rec.Revision != 1 {
		t.Errorf("after an invalid save the form is %+v, want version 1 at revision 1", rec)
	}
	// Text that is not JSON is kept as it is.
	res = post("/forms/acme/contact", url.Values{"body": {`{"title": "half`}, "base": {"1"}})
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(res.body), `{"title": "half`) {
		t.Errorf("save of broken JSON: %d %s", res.status, res.body)
	}

	// A save goes into the draft, version 1, which nobody published.
	res = post("/forms/acme/contact", url.Values{"body": {twoSteps}, "base": {"1"}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/console/forms/acme/contact?view=json&saved=1" {
		t.Fatalf("save: %d to %q: %s", res.status, res.header.Get("Location"), res.body)
	}
	v, err := tc.db.FormVersion(ctx, "acme", "contact", 1)
	if err != nil || string(v.Body) != twoSteps || v.SavedBy != janeEmail {
		t.Errorf("version 1: %+v %v", v, err)
	}
	if page := b.get(res.header.Get("Location")); !strings.Contains(page.body, "Saved to the draft. Publish it to make it live.") {
		t.Errorf("the page after a save: %s", page.body)
	}
	// A page of the form before that save saves nothing.
	res = post("/forms/acme/contact", url.Values{"body": {`{"title":"Stale"}`}, "base": {"1"}})
	if res.status != http.StatusConflict || !strings.Contains(res.body, "saved again since") || !strings.Contains(res.body, "Stale") {
		t.Errorf("a save from an older page: %d %s", res.status, res.body)
	}
	if rec, _ := tc.db.FormRecord(ctx, "acme", "contact"); rec.Revision != 2 || rec.LastVersion != 1 {
		t.Errorf("after a stale save the form is %+v, want version 1 at revision 2", rec)
	}

	live := func() int64 {
		t.Helper()
		n, _ := tc.db.LiveVersion(ctx, "acme", "contact")
		return n
	}
	res = post("/forms/acme/contact/publish", url.Values{"base": {"2"}, "from": {"/console/forms/acme/contact/settings"}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/console/forms/acme/contact/settings?published=1" || live() != 1 {
		t.Fatalf("publish: %d to %q, live %d", res.status, res.header.Get("Location"), live())
	}
	// The next save starts version 2; the live version stays 1.
	res = post("/forms/acme/contact", url.Values{"body": {strings.Replace(twoSteps, "Your name", "Full name", 1)}, "base": {"2"}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/console/forms/acme/contact?view=json&saved=2" || live() != 1 {
		t.Fatalf("save after publishing: %d to %q, live %d", res.status, res.header.Get("Location"), live())
	}
	if res := post("/forms/acme/contact/versions/2/publish", url.Values{}); res.status != http.StatusSeeOther || live() != 2 {
		t.Errorf("publish 2: %d, live %d", res.status, live())
	}
	page = b.get("/console/forms/acme/contact/history")
	if !strings.Contains(page.body, "Roll back to version 1") || strings.Contains(page.body, "Publish version 2") {
		t.Errorf("versions after publishing 2: %s", page.body)
	}
	if res := post("/forms/acme/contact/versions/1/publish", url.Values{}); res.status != http.StatusSeeOther || live() != 1 {
		t.Errorf("roll back to 1: %d, live %d", res.status, live())
	}
	if res := post("/forms/acme/contact/versions/9/publish", url.Values{}); res.status != http.StatusNotFound || live() != 1 {
		t.Errorf("publish a missing version: %d, live %d", res.status, live())
	}
	if res := b.get("/console/forms/acme/none"); res.status != http.StatusNotFound || strings.Contains(res.body, "sql") {
		t.Errorf("page of a missing form: %d %q", res.status, res.body)
	}
}

func TestPreview(t *testing.T) {
	tc := newConsole(t, withStore)
	b, token := signedIn(t, tc)
	preview := func(body, locale string) string {
		t.Helper()
		res := b.do(http.MethodPost, "/console/forms/acme/contact/preview", url.Values{"body": {body}, "locale": {locale}, "_csrf": {token}}, map[string]string{"HX-Request": "true"})
		if res.status != http.StatusOK {
			t.Fatalf("preview: %d %s", res.status, res.body)
		}
		return res.body
	}
	got := preview(twoSteps, "")
	if !strings.Contains(got, "Your name") || !strings.Contains(got, `action="/console/forms/acme/contact/preview/submit"`) || strings.Contains(got, "preview-invalid") {
		t.Errorf("preview: %s", got)
	}
	if got := preview(twoSteps, "de"); !strings.Contains(got, "Ihr Name") || !strings.Contains(got, `<option value="de" selected>`) {
		t.Errorf("preview in de: %s", got)
	}
	// What the German overlay leaves out is listed.
	if got := html.UnescapeString(preview(twoSteps, "de")); !strings.Contains(got, `2 of 3 texts untranslated:`) ||
		!strings.Contains(got, `<code>title</code>, <code>fields["email"].label</code></li>`) {
		t.Errorf("preview lacks what is untranslated: %s", got)
	}
	// A form that does not validate yet is still shown, marked.
	if got := preview(strings.Replace(twoSteps, `"type":"email"`, `"type":"emial"`, 1), ""); !strings.Contains(got, "preview-invalid") || !strings.Contains(got, "Your name") {
		t.Errorf("preview of an invalid form: %s", got)
	}
	res := b.do(http.MethodPost, "/console/forms/acme/contact/preview/submit", url.Values{"name": {"Jane"}, "_csrf": {token}}, map[string]string{"HX-Request": "true"})
	if res.status != http.StatusOK || !strings.Contains(res.body, "nothing was sent") {
		t.Errorf("preview's submit: %d %s", res.status, res.body)
	}
	if recs, _ := tc.db.FormRecords(context.Background()); len(recs) != 0 {
		t.Errorf("the preview saved forms: %v", recs)
	}
}
