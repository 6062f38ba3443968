package console_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// draftOfContact is a draft of acme/contact that changes every kind of
// thing the Publish button names, from contactV2, the live version.
const draftOfContact = `{"title":"Contact","fields":[{"name":"name","type":"text","label":"Your full name"},{"name":"email","type":"email","label":"E-mail"}],
"steps":[{"id":"main","fields":["name","email"]}],"i18n":{"translations":{"de":{"title":"Kontakt"}}},"hub":{"retentionDays":30}}`

// formTabs are the pages of a stored form that carry its bar.
var formTabs = []string{"/overview", "", "?view=json", "/submissions", "/share", "/settings", "/history"}

// saveDraft saves body into acme/contact's draft through the JSON view.
func saveDraft(t *testing.T, tc *testConsole, b *browser, token, body string) {
	t.Helper()
	rec, err := tc.db.FormRecord(context.Background(), "acme", "contact")
	if err != nil {
		t.Fatal(err)
	}
	res := b.do(http.MethodPost, console.Path+"/forms/acme/contact", url.Values{"body": {body}, "base": {strconv.FormatInt(rec.Revision, 10)}, "_csrf": {token}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, html.UnescapeString(res.body))
	}
}

func TestPublishButton(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b, token := signedIn(t, tc)
	form := console.Path + "/forms/acme/contact"
	// The live version is the newest: no Publish button, on any tab.
	for _, tab := range formTabs {
		page := b.get(form + tab)
		if page.status != http.StatusOK || !strings.Contains(page.body, `id="publish"`) || strings.Contains(page.body, ">Publish</summary>") ||
			!strings.Contains(page.body, "No changes to publish") || !strings.Contains(page.body, `class="console-history-link" href="/console/forms/acme/contact/history"`) {
			t.Errorf("%s without a draft: %d, want the bar without the Publish button: %s", tab, page.status, page.body)
		}
	}
	// A draft of the same file, spaced otherwise, leaves nothing to publish.
	saveDraft(t, tc, b, token, strings.ReplaceAll(contactV2, ",", ",\n  "))
	if page := b.get(form); strings.Contains(page.body, ">Publish</summary>") || !strings.Contains(page.body, "No changes to publish") {
		t.Errorf("a draft the same as the live version shows the Publish button")
	}

	saveDraft(t, tc, b, token, draftOfContact)
	wants := []string{
		">Publish</summary>", "Changes since the live version", "Publish version 3",
		"<li>Added “E-mail”</li>", "<li>Removed “Message”, “cv”</li>", "<li>Changed “Your full name”</li>",
		"<li>Steps changed</li>", "<li>Settings changed: keeping submissions</li>", "<li>Translation added: de</li>",
	}
	for _, tab := range formTabs {
		page := b.get(form + tab)
		for _, want := range wants {
			if !strings.Contains(page.body, want) {
				t.Errorf("%s with a draft lacks %s", tab, want)
			}
		}
	}
	// Without JavaScript the button's page says the same.
	if page := b.get(form + "/publish"); page.status != http.StatusOK || !strings.Contains(page.body, "<li>Added “E-mail”</li>") || !strings.Contains(page.body, "Publish version 3") {
		t.Errorf("the publish page: %d %s", page.status, page.body)
	}
	// The bar alone, which console.js fetches again after an edit, goes
	// back to the page without its notice.
	if res := b.do(http.MethodGet, form+"/publish?bar=1&from="+url.QueryEscape(form+"/settings?saved=3"), nil, map[string]string{"HX-Request": "true"}); res.status != http.StatusOK ||
		!strings.HasPrefix(res.body, `<div id="publish"`) || !strings.Contains(res.body, `name="from" value="/console/forms/acme/contact/settings"`) {
		t.Errorf("the bar alone: %d %s", res.status, res.body)
	}

	// Publishing goes back to the tab it was on, which says so with the
	// live form's link.
	rec, _ := tc.db.FormRecord(context.Background(), "acme", "contact")
	res := b.do(http.MethodPost, form+"/publish", url.Values{"base": {strconv.FormatInt(rec.Revision, 10)}, "from": {form + "/submissions"}, "_csrf": {token}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != form+"/submissions?published=3" {
		t.Fatalf("publish: %d to %q: %s", res.status, res.header.Get("Location"), res.body)
	}
	if n, _ := tc.db.LiveVersion(context.Background(), "acme", "contact"); n != 3 {
		t.Errorf("live version %d after publishing, want 3", n)
	}
	page := b.get(res.header.Get("Location"))
	if !strings.Contains(page.body, "Published: version 3 is live.") || !strings.Contains(page.body, `<a href="/f/acme/contact" id="view-live">View live form</a>`) ||
		strings.Contains(page.body, ">Publish</summary>") {
		t.Errorf("the page after publishing: %s", page.body)
	}
	// A page elsewhere cannot send the owner off the form.
	saveDraft(t, tc, b, token, contactV2)
	rec, _ = tc.db.FormRecord(context.Background(), "acme", "contact")
	res = b.do(http.MethodPost, form+"/publish", url.Values{"base": {strconv.FormatInt(rec.Revision, 10)}, "from": {"//evil.example/x"}, "_csrf": {token}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != form+"?published=4" {
		t.Errorf("publish from elsewhere: %d to %q", res.status, res.header.Get("Location"))
	}
}

// TestPublishRefusesAnOlderPage publishes nothing when the form was saved
// since the Publish button was shown: what is published is what was shown.
func TestPublishRefusesAnOlderPage(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b, token := signedIn(t, tc)
	form := console.Path + "/forms/acme/contact"
	saveDraft(t, tc, b, token, draftOfContact)
	rec, _ := tc.db.FormRecord(context.Background(), "acme", "contact")
	shown := strconv.FormatInt(rec.Revision, 10)
	saveDraft(t, tc, b, token, strings.Replace(draftOfContact, "E-mail", "Your e-mail", 1))
	res := b.do(http.MethodPost, form+"/publish", url.Values{"base": {shown}, "_csrf": {token}}, nil)
	if res.status != http.StatusConflict || !strings.Contains(res.body, "saved again since") || !strings.Contains(res.body, "<li>Added “Your e-mail”</li>") {
		t.Errorf("publish from an older page: %d %s", res.status, res.body)
	}
	if n, _ := tc.db.LiveVersion(context.Background(), "acme", "contact"); n != 2 {
		t.Errorf("live version %d after a refused publish, want 2", n)
	}
	// A builder action from the older page changes nothing either.
	res = b.do(http.MethodPost, form+"/fields", url.Values{"base": {shown}, "type": {"text"}, "name": {"city"}, "_csrf": {token}}, nil)
	if res.status != http.StatusConflict {
		t.Errorf("an edit from an older page: %d", res.status)
	}
	if after, _ := tc.db.FormRecord(context.Background(), "acme", "contact"); after.Revision != rec.Revision+1 {
		t.Errorf("revision %d after refused posts, want %d", after.Revision, rec.Revision+1)
	}
}

func TestHistory(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b, token := signedIn(t, tc)
	ctx := context.Background()
	form := console.Path + "/forms/acme/contact"
	saveDraft(t, tc, b, token, draftOfContact)
	page := b.get(form + "/history")
	for _, want := range []string{
		`<tr data-version="3" data-state="draft">`, `<td data-label="State">Draft</td>`, `<td data-label="By">` + janeEmail + `</td>`,
		`<tr data-version="2" data-state="live">`, `<tr data-version="1" data-state="earlier">`,
		"Publish version 3", "Roll back to version 1",
	} {
		if !strings.Contains(page.body, want) {
			t.Errorf("history lacks %s: %s", want, page.body)
		}
	}
	// The Build tab no longer lists the versions.
	if build := b.get(form); strings.Contains(build.body, `id="versions"`) {
		t.Errorf("the Build tab lists the versions")
	}
	// A rollback makes version 1 live and leaves the draft a draft.
	res := b.do(http.MethodPost, form+"/versions/1/publish", url.Values{"from": {form + "/history"}, "_csrf": {token}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != form+"/history?published=1" {
		t.Fatalf("roll back: %d to %q", res.status, res.header.Get("Location"))
	}
	rec, _ := tc.db.FormRecord(ctx, "acme", "contact")
	if rec.LiveVersion != 1 || !rec.Draft || rec.LastVersion != 3 {
		t.Errorf("after a rollback the form is %+v, want version 1 live and 3 still a draft", rec)
	}
	page = b.get(res.header.Get("Location"))
	if !strings.Contains(page.body, "Published: version 1 is live.") || !strings.Contains(page.body, `<tr data-version="1" data-state="live">`) ||
		!strings.Contains(page.body, `<tr data-version="3" data-state="draft">`) || !strings.Contains(page.body, "Publish version 2") {
		t.Errorf("history after a rollback: %s", page.body)
	}
	// An edit after the rollback still goes into the draft.
	saveDraft(t, tc, b, token, contactV2)
	if rec, _ := tc.db.FormRecord(ctx, "acme", "contact"); rec.LastVersion != 3 {
		t.Errorf("an edit after a rollback made version %d, want the draft, 3", rec.LastVersion)
	}
}

// TestPublishClosed keeps the new routes to the form's workspace: closed
// without a session, 404 to another workspace, 403 to a viewer where they
// change something, and no Publish button for a viewer.
func TestPublishClosed(t *testing.T) {
	ctx := context.Background()
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b, token := signedIn(t, tc)
	saveDraft(t, tc, b, token, draftOfContact)
	form := console.Path + "/forms/acme/contact"
	rec, _ := tc.db.FormRecord(ctx, "acme", "contact")
	publish := url.Values{"base": {strconv.FormatInt(rec.Revision, 10)}}

	anon := tc.browser()
	for _, p := range []string{"/history", "/publish"} {
		if res := anon.get(form + p); res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
			t.Errorf("GET %s without a session: %d to %q", p, res.status, res.header.Get("Location"))
		}
	}
	if res := anon.do(http.MethodPost, form+"/publish", publish, nil); res.status != http.StatusUnauthorized {
		t.Errorf("POST publish without a session: %d, want 401", res.status)
	}

	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"olga@example.com", "vic@example.com"} {
		if err := tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "vic@example.com", Role: accounts.Viewer, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "rival", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	olga, vic := tc.browser(), tc.browser()
	olga.signIn("olga@example.com", janePassword)
	vic.signIn("vic@example.com", janePassword)
	olgaToken, vicToken := olga.csrf(console.Path), vic.csrf(console.Path)

	for _, p := range []string{"/history", "/publish"} {
		if res := olga.get(form + p); res.status != http.StatusNotFound || strings.Contains(res.body, "E-mail") {
			t.Errorf("GET %s as another workspace's admin: %d, want 404", p, res.status)
		}
	}
	publish.Set("_csrf", olgaToken)
	if res := olga.do(http.MethodPost, form+"/publish", publish, nil); res.status != http.StatusNotFound {
		t.Errorf("POST publish as another workspace's admin: %d, want 404", res.status)
	}

	if res := vic.get(form + "/history"); res.status != http.StatusOK || strings.Contains(res.body, "Roll back to") || strings.Contains(res.body, ">Publish</summary>") {
		t.Errorf("history as a viewer: %d, want it without buttons: %s", res.status, res.body)
	}
	for _, tab := range formTabs {
		if res := vic.get(form + tab); res.status == http.StatusOK && strings.Contains(res.body, ">Publish</summary>") {
			t.Errorf("%s shows a viewer the Publish button", tab)
		}
	}
	if res := vic.get(form + "/publish"); res.status != http.StatusForbidden {
		t.Errorf("GET publish as a viewer: %d, want 403", res.status)
	}
	publish.Set("_csrf", vicToken)
	if res := vic.do(http.MethodPost, form+"/publish", publish, nil); res.status != http.StatusForbidden {
		t.Errorf("POST publish as a viewer: %d, want 403", res.status)
	}
	if n, _ := tc.db.LiveVersion(ctx, "acme", "contact"); n != 2 {
		t.Errorf("live version %d after refused publishes, want 2", n)
	}
}

// TestPublishChecksTheDraft publishes no draft that no longer validates,
// saved by an older hub, and says where the live form is not, when its
// settings turn its page off.
func TestPublishChecksTheDraft(t *testing.T) {
	ctx := context.Background()
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	b, token := signedIn(t, tc)
	form := console.Path + "/forms/acme/contact"
	publish := func() response {
		t.Helper()
		rec, _ := tc.db.FormRecord(ctx, "acme", "contact")
		return b.do(http.MethodPost, form+"/publish", url.Values{"base": {strconv.FormatInt(rec.Revision, 10)}, "_csrf": {token}}, nil)
	}
	if _, err := tc.db.SaveFormVersion(ctx, "acme", "contact", []byte(`{"title":"Old","fields":[{"name":"x","type":"nope"}]}`), "old hub", time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := publish(); res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "does not validate") {
		t.Errorf("publishing a draft that does not validate: %d %s", res.status, res.body)
	}
	if n, _ := tc.db.LiveVersion(ctx, "acme", "contact"); n != 2 {
		t.Errorf("live version %d after a refused publish, want 2", n)
	}
	saveDraft(t, tc, b, token, strings.Replace(draftOfContact, `"hub":{`, `"hub":{"hostedPage":false,`, 1))
	res := publish()
	if res.status != http.StatusSeeOther {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	page := b.get(res.header.Get("Location"))
	if !strings.Contains(page.body, "Published: version 3 is live.") || strings.Contains(page.body, "View live form") ||
		!strings.Contains(page.body, `Its own page is turned off in its settings: the <a href="/console/forms/acme/contact/share">Share</a> tab`) {
		t.Errorf("the page after publishing a form without its page: %s", page.body)
	}
}
