package main

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// The secrets of secretForm, and parts of them that a page could show.
const (
	captchaKey = "0x4AAAAAAACaptchaSecretKey"
	hookToken  = "T0000/B0000/HookPathToken"
	hookQuery  = "HookQueryToken"
	signingKey = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	hookURL    = "https://hooks.example.com/services/" + hookToken + "?key=" + hookQuery
	secretForm = `{"title": "Order", "fields": [{"name": "name", "type": "text", "label": "Name"}], "steps": [{"id": "main", "fields": ["name"]}],
  "hub": {"captchaSecret": "` + captchaKey + `", "webhooks": [{"url": "` + hookURL + `", "secret": "whsec_` + signingKey + `"}]}}`
	hiddenMarkup = "[set, hidden #"
)

var formSecrets = []string{captchaKey, hookToken, hookQuery, signingKey}

// TestViewersDoNotSeeSecrets opens, as a viewer, an editor and an admin of
// the form's workspace, every console page that shows a form whose file
// holds a captcha secret and a webhook with a token in its URL: the Build
// tab's views, the JSON file of the newest and of an earlier version, the
// Settings tab, the deliveries, the overview, the inbox and the share
// page. The viewer and the editor see that the secrets are set, never a
// value; the admin sees them. The admin API serves the form file to a
// forms token whole and refuses a submissions:read token.
func TestViewersDoNotSeeSecrets(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); viewersDoNotSeeSecrets(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); viewersDoNotSeeSecrets(t, pgtest.URL(t)) })
}

// secretsHub serves a hub whose workspace "default" has an admin, an editor
// and a viewer, and the form shop/order of secretForm in two versions,
// published, with a submission.
func secretsHub(t *testing.T, dbURL string) (*httptest.Server, *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	cfg := testHubConfig(t, dbURL)
	h, srv := serveRoutes(t, cfg, nil)
	db := h.DB
	for _, role := range []accounts.Role{accounts.Admin, accounts.Editor, accounts.Viewer} {
		email := string(role) + "@default.example"
		addTestUser(t, db, email, rolePassword)
		if err := db.SetMember(ctx, accounts.Member{Workspace: "default", Email: email, Role: role, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ClaimSite(ctx, "shop", "default", time.Now()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := db.SaveFormVersion(ctx, "shop", "order", []byte(secretForm), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PublishFormVersion(ctx, "shop", "order", 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := (&hubclient.Client{HubURL: srv.URL + "/v1"}).Submit(ctx, "shop", "order", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Ada"}}); err != nil {
		t.Fatal(err)
	}
	return srv, db.DB
}

const rolePassword = "correct horse battery"

func viewersDoNotSeeSecrets(t *testing.T, dbURL string) {
	ctx := context.Background()
	srv, db := secretsHub(t, dbURL)
	base := "/console/forms/shop/order"
	pages := []string{base, base + "?view=json", base + "?view=translations", base + "?version=1&view=json", base + "?version=1",
		base + "/settings", base + "/deliveries", base + "/overview", base + "/submissions", base + "/share"}
	for _, role := range []accounts.Role{accounts.Viewer, accounts.Editor, accounts.Admin} {
		c := signIn(t, srv.URL, string(role)+"@default.example", rolePassword)
		for _, page := range pages {
			status, body := c.do(http.MethodGet, page, nil)
			if status != http.StatusOK {
				t.Errorf("%s: GET %s: %d", role, page, status)
				continue
			}
			body = html.UnescapeString(body)
			for _, s := range formSecrets {
				if role != accounts.Admin && strings.Contains(body, s) {
					t.Errorf("%s sees %q at %s", role, s, page)
				}
			}
		}
		_, json := c.do(http.MethodGet, base+"?view=json", nil)
		json = html.UnescapeString(json)
		switch {
		case role != accounts.Admin && strings.Count(json, hiddenMarkup) != 3:
			t.Errorf("%s: the JSON file does not say the 3 secrets are set", role)
		case role == accounts.Admin && (!strings.Contains(json, captchaKey) || !strings.Contains(json, hookToken) || !strings.Contains(json, signingKey)):
			t.Errorf("the admin does not see the secrets in the JSON file")
		}
	}

	// The admin API: a forms token reads the file whole, a submissions:read
	// token not at all.
	for scope, want := range map[accounts.Scope]int{accounts.ScopeForms: http.StatusOK, accounts.ScopeSubmissionsRead: http.StatusForbidden} {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: string(scope), Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: "default", Scope: scope}); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/v1/admin/forms/shop/order", "/v1/admin/forms/shop/order/versions/1"} {
			status, body := apiCall(t, srv.URL, secret, http.MethodGet, path, "")
			if status != want {
				t.Errorf("%s token: GET %s: %d, want %d", scope, path, status, want)
			}
			if scope == accounts.ScopeForms && !strings.Contains(body, signingKey) {
				t.Errorf("forms token: GET %s lacks the secret", path)
			}
			if scope != accounts.ScopeForms && strings.Contains(body, signingKey) {
				t.Errorf("%s token: GET %s shows the secret", scope, path)
			}
		}
	}
}

// textarea is the JSON editor's content on a page.
var textarea = regexp.MustCompile(`(?s)<textarea[^>]*name="body"[^>]*>(.*?)</textarea>`)

// TestEditorSaveKeepsHiddenSecrets has an editor, who sees the form's
// secrets hidden, save the JSON file and the Settings tab back: the stored
// file keeps every secret. A secret typed in place of its mark replaces
// it; a mark moved to where its value would be shown or sent elsewhere is
// refused, and nothing is saved. The hidden file pushed with a forms token
// keeps the secrets as well.
func TestEditorSaveKeepsHiddenSecrets(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); editorSaveKeepsHiddenSecrets(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); editorSaveKeepsHiddenSecrets(t, pgtest.URL(t)) })
}

func editorSaveKeepsHiddenSecrets(t *testing.T, dbURL string) {
	ctx := context.Background()
	srv, db := secretsHub(t, dbURL)
	base := "/console/forms/shop/order"
	editor := signIn(t, srv.URL, "editor@default.example", rolePassword)
	newest := func() string {
		t.Helper()
		r, err := db.FormRecord(ctx, "shop", "order")
		if err != nil {
			t.Fatal(err)
		}
		v, err := db.FormVersion(ctx, "shop", "order", r.LastVersion)
		if err != nil {
			t.Fatal(err)
		}
		return string(v.Body)
	}
	// revision is the form's revision, which a page of it posts as base.
	revision := func() string {
		t.Helper()
		r, err := db.FormRecord(ctx, "shop", "order")
		if err != nil {
			t.Fatal(err)
		}
		return itoa(r.Revision)
	}
	keeps := func(what string) {
		t.Helper()
		file := newest()
		for _, s := range formSecrets {
			if !strings.Contains(file, s) {
				t.Errorf("%s: the stored file lost %q: %s", what, s, file)
			}
		}
	}

	// The JSON file, saved back with a new title.
	m := textarea.FindStringSubmatch(editor.get(base + "?view=json"))
	if m == nil {
		t.Fatal("no JSON editor on the page")
	}
	shown := html.UnescapeString(m[1])
	if !strings.Contains(shown, hiddenMarkup) {
		t.Fatalf("the editor's JSON file hides nothing: %s", shown)
	}
	edited := strings.Replace(shown, `"title": "Order"`, `"title": "Order again"`, 1)
	if status, body := editor.do(http.MethodPost, base, url.Values{"base": {revision()}, "body": {edited}}); status != http.StatusSeeOther {
		t.Fatalf("saving the JSON file: %d %.500s", status, body)
	}
	if !strings.Contains(newest(), "Order again") {
		t.Fatal("the JSON file was not saved")
	}
	keeps("JSON file saved back")

	// The Settings tab, posted with the captcha secret's input as shown.
	page := editor.get(base + "/settings")
	secretInput := regexp.MustCompile(`name="captchaSecret"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="captchaSecret"`).FindStringSubmatch(page)
	if secretInput == nil {
		t.Fatal("no captcha secret input on the Settings tab")
	}
	mark := html.UnescapeString(secretInput[1] + secretInput[2])
	if !strings.HasPrefix(mark, hiddenMarkup) {
		t.Fatalf("the captcha secret input shows %q", mark)
	}
	form := url.Values{"base": {revision()}, "title": {"Order settled"}, "captchaSecret": {mark}}
	if status, body := editor.do(http.MethodPost, base+"/settings", form); status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d %.800s", status, body)
	}
	if !strings.Contains(newest(), "Order settled") {
		t.Fatal("the settings were not saved")
	}
	keeps("Settings saved back")

	// A mark moved to the title, or to a webhook's URL, is refused.
	captchaMark := `"` + mark + `"`
	for name, body := range map[string]string{
		"title":       strings.Replace(edited, `"title": "Order again"`, `"title": `+captchaMark, 1),
		"webhook URL": regexp.MustCompile(`"url": "[^"]*"`).ReplaceAllString(edited, `"url": `+captchaMark),
	} {
		before := newest()
		status, page := editor.do(http.MethodPost, base, url.Values{"base": {revision()}, "body": {body}})
		if status != http.StatusUnprocessableEntity || newest() != before {
			t.Errorf("mark moved to the %s: %d, saved %v", name, status, newest() != before)
		}
		for _, s := range formSecrets {
			if strings.Contains(html.UnescapeString(page), s) {
				t.Errorf("mark moved to the %s: the answer shows %q", name, s)
			}
		}
	}

	// A secret typed in place of its mark replaces it.
	typed := strings.Replace(edited, captchaMark, `"0x4AAAAAAANewCaptchaKey"`, 1)
	if status, body := editor.do(http.MethodPost, base, url.Values{"base": {revision()}, "body": {typed}}); status != http.StatusSeeOther {
		t.Fatalf("saving a new captcha secret: %d %.500s", status, body)
	}
	if file := newest(); !strings.Contains(file, "0x4AAAAAAANewCaptchaKey") || strings.Contains(file, captchaKey) || !strings.Contains(file, signingKey) {
		t.Errorf("a typed secret did not replace the captcha's alone: %s", file)
	}

	// The hidden file pushed through the admin API keeps the secrets too.
	token := accounts.NewToken()
	if err := db.CreateToken(ctx, accounts.Token{Name: "push", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Workspace: "default", Scope: accounts.ScopeForms}); err != nil {
		t.Fatal(err)
	}
	m = textarea.FindStringSubmatch(editor.get(base + "?view=json"))
	pushed := strings.Replace(html.UnescapeString(m[1]), `"title": "Order again"`, `"title": "Order pushed"`, 1)
	if status, body := apiCall(t, srv.URL, token, http.MethodPut, "/v1/admin/forms/shop/order/version", pushed); status != http.StatusCreated {
		t.Fatalf("pushing the hidden file: %d %s", status, body)
	}
	if file := newest(); !strings.Contains(file, "Order pushed") || !strings.Contains(file, signingKey) || !strings.Contains(file, hookToken) || !strings.Contains(file, "0x4AAAAAAANewCaptchaKey") {
		t.Errorf("the pushed file lost its secrets: %s", file)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
