package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// settingsPost are the Settings tab's inputs for builderBase as the page
// shows them, with the hosted page's checkbox checked.
func settingsPost() url.Values {
	return url.Values{"title": {"Contact"}, "step.who": {""}, "step.how": {""}, "submit": {""}, "next": {""}, "back": {""},
		"captchaProvider": {""}, "captchaSiteKey": {""}, "captchaSecret": {""}, "maxFileSize": {""},
		"allowedTypes": {""}, "allowedOrigins": {""}, "hostedPageShown": {"1"}, "hostedPage": {"on"}}
}

// hubMember returns the newest version's member "hub".
func (f *builderForm) hubMember() map[string]any {
	f.t.Helper()
	_, s, _ := f.last()
	var h map[string]any
	_ = json.Unmarshal(s.Extra["hub"], &h)
	return h
}

func TestBuilderMoveTo(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/fields", url.Values{"type": {"tel"}, "name": {"phone"}, "step": {"who"}})
	f.act("/fields", url.Values{"type": {"text"}, "name": {"city"}, "step": {"who"}})
	// name, email, phone, city; who: name, phone, city; how: email.

	s := f.act("/fields/3/move", url.Values{"to": {"0"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"city", "name", "email", "phone"}) {
		t.Errorf("fields after moving city to 0: %q", got)
	}
	if got := stepFields(s)["who/"]; !reflect.DeepEqual(got, []string{"city", "name", "phone"}) {
		t.Errorf("step who after moving city to 0: %q", got)
	}
	s = f.act("/fields/0/move", url.Values{"to": {"3"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"name", "email", "phone", "city"}) {
		t.Errorf("fields after moving city to 3: %q", got)
	}
	if got := stepFields(s)["who/"]; !reflect.DeepEqual(got, []string{"name", "phone", "city"}) {
		t.Errorf("step who after moving city to 3: %q", got)
	}
	// The page after a move says where the field went.
	n, _, _ := f.last()
	form := url.Values{"to": {"1"}, "base": {strconv.FormatInt(n, 10)}}
	res := f.post("/forms/acme/contact/fields/2/move", form)
	if res.status != http.StatusSeeOther {
		t.Fatalf("move phone to 1: %d %s", res.status, res.body)
	}
	page := f.b.get(res.header.Get("Location")).body
	if !strings.Contains(page, "Moved phone to position 2 of 4.") {
		t.Errorf("the page after a move does not say where phone went: %s", page)
	}

	// Out of bounds: the problem, nothing saved.
	for _, to := range []string{"4", "-1", "99"} {
		if body := f.refused("/fields/1/move", url.Values{"to": {to}}, http.StatusUnprocessableEntity); !strings.Contains(body, "there is no position") {
			t.Errorf("move to %s: %s", to, body)
		}
	}
	// Not a position at all: a request no page sends.
	for _, to := range []string{"", "left", "1.5", "0x1"} {
		if body := f.refused("/fields/1/move", url.Values{"to": {to}}, http.StatusBadRequest); !strings.Contains(body, "up, down or a position") {
			t.Errorf("move to %q: %s", to, body)
		}
	}
	f.refused("/fields/9/move", url.Values{"to": {"0"}}, http.StatusUnprocessableEntity)
}

func TestSettingsTab(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/settings", url.Values{"title": {"Contact"}, "maxFileSize": {"5242880"}, "allowedTypes": {"image/*"}})
	res := f.b.get("/console/forms/acme/contact/settings")
	page := html.UnescapeString(res.body)
	if res.status != http.StatusOK {
		t.Fatalf("settings tab: %d %s", res.status, page)
	}
	legends := regexp.MustCompile(`<legend>([^<]*)</legend>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, m := range legends {
		got = append(got, m[1])
	}
	want := []string{"Texts", "After sending", "E-mail, chats and webhooks", "Webhooks", "Team chats", "Confirmation e-mail", "In de, optional", "Closing and limits", "One response per person",
		"Save and continue later", "Captcha", "Spam", "Files", "Origins", "Hosted page"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings groups %q, want %q", got, want)
	}
	for _, want := range []string{`name="maxFileSize" type="text" value="5 MB"`, "25 MB, the hub&#39;s default", `aria-current="page">Settings</a>`,
		`action="/console/forms/acme/contact/settings"`, `name="hostedPage" type="checkbox" value="on" aria-describedby="set-hosted-help" checked`} {
		if !strings.Contains(res.body, want) && !strings.Contains(page, want) {
			t.Errorf("settings tab lacks %s", want)
		}
	}
	if strings.Contains(page, `id="builder"`) || strings.Contains(page, "Save the settings") == false {
		t.Errorf("settings tab shows the builder, or no settings")
	}
	// The Build tab no longer shows the settings.
	if page := f.b.get("/console/forms/acme/contact").body; strings.Contains(page, `name="maxFileSize"`) {
		t.Errorf("the Build tab shows the settings")
	}
	// A size that byteSize would round is shown in bytes, so that saving
	// the page again keeps it.
	f.act("/settings", url.Values{"title": {"Contact"}, "maxFileSize": {"1000000"}})
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, `name="maxFileSize" type="text" value="1000000"`) {
		t.Errorf("a size of 1000000 bytes: %s", page)
	}
}

func TestSettingsFileSize(t *testing.T) {
	f := newBuilderForm(t)
	for typed, want := range map[string]float64{"2 MB": 2097152, "512 KB": 524288, "5242880": 5242880, "1.5mb": 1572864, "3 MiB": 3145728} {
		form := settingsPost()
		form.Set("maxFileSize", typed)
		f.act("/settings", form)
		if got := f.hubMember()["maxFileSize"]; got != want {
			t.Errorf("largest file typed %q: hub.maxFileSize %v, want %v", typed, got, want)
		}
	}
	for _, bad := range []string{"lots", "5 XB", "-1 MB", "0.1 KB", "1e3", "2 TB"} {
		form := settingsPost()
		form.Set("maxFileSize", bad)
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `name="maxFileSize" type="text" value="`+bad+`" aria-describedby="set-maxsize-help set-maxsize-error" aria-invalid="true"`) ||
			!strings.Contains(body, `<p class="hubform-field-error" id="set-maxsize-error">the largest file is a size such as 5 MB`) {
			t.Errorf("largest file typed %q: no error beside the input: %s", bad, body)
		}
	}
	// htmx gets the Settings tab with 200, which it swaps in.
	n, _, _ := f.last()
	form := settingsPost()
	form.Set("maxFileSize", "lots")
	form.Set("base", strconv.FormatInt(n, 10))
	form.Set("_csrf", f.token)
	res := f.b.do(http.MethodPost, "/console/forms/acme/contact/settings", form, map[string]string{"HX-Request": "true"})
	if res.status != http.StatusOK || !strings.Contains(res.body, `id="set-maxsize-error"`) || !strings.Contains(res.body, `<legend>Files</legend>`) {
		t.Errorf("bad size over htmx: %d %s", res.status, res.body)
	}
	if m, _, _ := f.last(); m != n {
		t.Errorf("a bad size saved: revision %d, was %d", m, n)
	}
}

func TestSettingsHostedPage(t *testing.T) {
	f := newBuilderForm(t)
	form := settingsPost()
	form.Del("hostedPage")
	f.act("/settings", form)
	if got, ok := f.hubMember()["hostedPage"]; !ok || got != false {
		t.Errorf("unchecked: hub.hostedPage %v", got)
	}
	if page := f.b.get("/console/forms/acme/contact/settings").body; strings.Contains(page, `value="on" aria-describedby="set-hosted-help" checked`) {
		t.Errorf("the hosted page shows as served")
	}
	f.act("/settings", settingsPost())
	if got, ok := f.hubMember()["hostedPage"]; ok {
		t.Errorf("checked: hub.hostedPage %v, want it left out (served)", got)
	}
	// A post without the checkbox's inputs leaves the setting as it is.
	f.act("/settings", form)
	f.act("/settings", url.Values{"title": {"Contact"}})
	if got := f.hubMember()["hostedPage"]; got != false {
		t.Errorf("a post without the checkbox: hub.hostedPage %v", got)
	}
}

func TestSettingsDelivery(t *testing.T) {
	f := newBuilderForm(t)
	// The section is there before the file has any delivery, so that an
	// owner sets it without the JSON file.
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, "<legend>E-mail, chats and webhooks</legend>") ||
		!strings.Contains(page, `name="notifyMe" type="checkbox" value="on"`) || !strings.Contains(page, `name="webhookURL" type="url"`) {
		t.Errorf("a form without delivery settings does not offer them: %s", page)
	}
	const hook = `{"url":"https://example.com/hook/T0K3N","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}`
	body := strings.Replace(builderBase, `"hub":{"retentionDays":30}`, `"hub":{"retentionDays":30,"notify":{"email":["a@example.com"]},"webhooks":[`+hook+`]}`, 1)
	f.saveFile(body)
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	if !strings.Contains(page, ">a@example.com</textarea>") || !strings.Contains(page, "<code id=\"webhook-0\">https://example.com/…</code>") {
		t.Errorf("delivery settings: %s", page)
	}
	// Neither the secret nor the token in the receiver's address.
	if strings.Contains(page, "whsec_") || strings.Contains(page, "T0K3N") {
		t.Errorf("the settings show a webhook's secret or address: %s", page)
	}
	form := settingsPost()
	form.Set("notifyEmail", "a@example.com\r\nb@example.com")
	form.Set("replyToField", "email")
	f.act("/settings", form)
	h := f.hubMember()
	if got := h["notify"]; !reflect.DeepEqual(got, map[string]any{"email": []any{"a@example.com", "b@example.com"}, "replyToField": "email"}) {
		t.Errorf("notify: %v", got)
	}
	if hooks, _ := h["webhooks"].([]any); len(hooks) != 1 || !strings.Contains(string(mustJSON(t, hooks)), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") {
		t.Errorf("webhooks after saving the settings: %v", h["webhooks"])
	}
	form.Set("notifyEmail", "not an address")
	if body := f.refused("/settings", form, http.StatusUnprocessableEntity); !strings.Contains(body, `id="set-notify-error"`) {
		t.Errorf("bad address: %s", body)
	}
	form.Set("notifyEmail", "")
	f.act("/settings", form)
	if got, ok := f.hubMember()["notify"]; ok {
		t.Errorf("no address: notify %v", got)
	}
}

// mustJSON is v in JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSettingsNotifyMe checks the box "E-mail me each submission": it puts
// the signed-in member's address in hub.notify.email, where it was if it
// was there, reads back checked, and unchecked takes the address out and
// keeps the others. Whoever else is listed is asked at sending time, as
// the JSON file's list is.
func TestSettingsNotifyMe(t *testing.T) {
	f := newBuilderForm(t)
	form := f.settingsForm()
	if form.Get("notifyMe") != "" {
		t.Fatalf("the box is checked on a form that e-mails nobody: %v", form)
	}
	form.Set("notifyMe", "on")
	f.act("/settings", form)
	if got := f.hubMember()["notify"]; !reflect.DeepEqual(got, map[string]any{"email": []any{janeEmail}}) {
		t.Errorf("e-mail me: notify %v", got)
	}
	form = f.settingsForm()
	if form.Get("notifyMe") != "on" || form.Get("notifyEmail") != "" {
		t.Errorf("e-mail me does not read back: notifyMe %q, others %q", form.Get("notifyMe"), form.Get("notifyEmail"))
	}
	// Where the file lists the member, in any case, the address stays.
	f.saveFile(withHub(`"notify":{"email":["a@example.com","Jane@Example.com","b@example.com"]}`))
	form = f.settingsForm()
	if form.Get("notifyMe") != "on" || form.Get("notifyEmail") != "a@example.com\nb@example.com" {
		t.Errorf("the page shows notifyMe %q, others %q", form.Get("notifyMe"), form.Get("notifyEmail"))
	}
	f.act("/settings", form)
	if got := f.hubMember()["notify"]; !reflect.DeepEqual(got, map[string]any{"email": []any{"a@example.com", "Jane@Example.com", "b@example.com"}}) {
		t.Errorf("saved as shown: notify %v", got)
	}
	form.Del("notifyMe")
	f.act("/settings", form)
	if got := f.hubMember()["notify"]; !reflect.DeepEqual(got, map[string]any{"email": []any{"a@example.com", "b@example.com"}}) {
		t.Errorf("unchecked: notify %v", got)
	}
}

// TestSettingsWebhooks checks webhooks set on the page: one added by its
// address alone gets a secret the hub makes, shown on the page after the
// save and never again; a new secret is shown once alike; a removed one
// goes; an address the hub would not post to is refused, saying why.
func TestSettingsWebhooks(t *testing.T) {
	f := newBuilderForm(t)
	form := f.settingsForm()
	form.Set("webhookURL", " https://hooks.example.com/in/T0K3N ")
	n, _, _ := f.last()
	form.Set("base", strconv.FormatInt(n, 10))
	res := f.post("/forms/acme/contact/settings", form)
	if res.status != http.StatusSeeOther {
		t.Fatalf("add a webhook: %d %s", res.status, res.body)
	}
	var hooks []struct{ URL, Secret string }
	_, _, members := f.last()
	var hubm struct {
		Webhooks []struct{ URL, Secret string }
	}
	_ = json.Unmarshal(members["hub"], &hubm)
	hooks = hubm.Webhooks
	if len(hooks) != 1 || hooks[0].URL != "https://hooks.example.com/in/T0K3N" || !strings.HasPrefix(hooks[0].Secret, "whsec_") || len(hooks[0].Secret) < 40 {
		t.Fatalf("webhooks: %+v", hooks)
	}
	secret := hooks[0].Secret
	page := html.UnescapeString(f.b.get(res.header.Get("Location")).body)
	if !strings.Contains(page, "Copy the webhook's secret now") || !strings.Contains(page, secret) {
		t.Errorf("the page after the save does not show the new secret: %s", page)
	}
	if strings.Contains(page, "T0K3N") {
		t.Errorf("the page shows the receiver's token: %s", page)
	}
	if again := f.b.get(res.header.Get("Location")).body; strings.Contains(again, secret) || strings.Contains(again, "whsec_") {
		t.Errorf("the secret is shown twice: %s", again)
	}

	// A new secret, shown once; saving the page as shown keeps it.
	form = f.settingsForm()
	f.act("/settings", form)
	_, _, members = f.last()
	_ = json.Unmarshal(members["hub"], &hubm)
	if hubm.Webhooks[0].Secret != secret {
		t.Errorf("saving the page as shown changed the secret")
	}
	form.Set("webhookRenew", "0")
	n, _, _ = f.last()
	form.Set("base", strconv.FormatInt(n, 10))
	res = f.post("/forms/acme/contact/settings", form)
	_, _, members = f.last()
	_ = json.Unmarshal(members["hub"], &hubm)
	if renewed := hubm.Webhooks[0].Secret; renewed == secret || !strings.Contains(html.UnescapeString(f.b.get(res.header.Get("Location")).body), renewed) {
		t.Errorf("a new secret: %q, or not shown", renewed)
	}

	for _, bad := range []string{"http://hooks.example.com/in", "hooks.example.com/in", "https://user:pw@hooks.example.com/", "https://hooks.example.com/#x",
		"https://localhost/in", "https://127.0.0.1:8080/in", "https://10.1.2.3/in", "https://[::1]/in", "https://169.254.169.254/latest"} {
		form := f.settingsForm()
		form.Set("webhookURL", bad)
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `id="set-webhook-error"`) {
			t.Errorf("webhook %q: no error beside the input: %s", bad, body)
		}
	}

	form = f.settingsForm()
	form.Set("webhookRemove", "0")
	f.act("/settings", form)
	if got, ok := f.hubMember()["webhooks"]; ok {
		t.Errorf("removed: webhooks %v", got)
	}
}

// TestSettingsNoMail checks the warning of a hub without a mail server:
// shown, with what to set, once a form asks for e-mail there, and never on
// a hub that sends e-mail.
func TestSettingsNoMail(t *testing.T) {
	f := newBuilderForm(t)
	if page := f.b.get("/console/forms/acme/contact/settings").body; strings.Contains(page, `id="no-mail"`) {
		t.Errorf("a form that sends no e-mail is warned: %s", page)
	}
	form := f.settingsForm()
	form.Set("notifyMe", "on")
	n, _, _ := f.last()
	form.Set("base", strconv.FormatInt(n, 10))
	res := f.post("/forms/acme/contact/settings", form)
	page := html.UnescapeString(f.b.get(res.header.Get("Location")).body)
	for _, want := range []string{`id="no-mail" role="alert"`, "the e-mail of each submission", "--smtp-url", "HUBFORM_SMTP_URL", "HUBFORM_SMTP_FROM"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after saving e-mail on a hub without a mail server lacks %q: %s", want, page)
		}
	}

	mailing := newBuilderFormWith(t, func(cfg *console.Config) { cfg.Mailer, cfg.MailFrom = &fakeMailer{}, "hub@example.com" })
	mailing.saveFile(withHub(`"notify":{"email":["` + janeEmail + `"]},` + `"autoresponder":{"emailField":"email","subject":"Thanks","body":"Got it."}`))
	if page := mailing.b.get("/console/forms/acme/contact/settings").body; strings.Contains(page, "no-mail") || strings.Contains(page, "HUBFORM_SMTP_URL") {
		t.Errorf("a hub that sends e-mail warns it does not: %s", page)
	}
}

func TestRemoveFieldConfirmed(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get("/console/forms/acme/contact").body
	if !strings.Contains(page, `data-confirm="Remove field email?"`) {
		t.Errorf("the remove form does not ask: %s", page)
	}
	n, _, _ := f.last()
	form := url.Values{"base": {strconv.FormatInt(n, 10)}}
	body := f.refused("/fields/1/remove", form, http.StatusOK)
	for _, want := range []string{"<h1 class=\"hubform-title\">Remove field email?</h1>", `action="/console/forms/acme/contact/fields/1/remove"`,
		`<input type="hidden" name="base" value="` + strconv.FormatInt(n, 10) + `">`, `<input type="hidden" name="confirmed" value="1">`,
		`<a href="/console/forms/acme/contact">Cancel</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("confirmation page lacks %s: %s", want, body)
		}
	}
	// htmx puts the page in place of the one it came from.
	form.Set("_csrf", f.token)
	res := f.b.do(http.MethodPost, "/console/forms/acme/contact/fields/1/remove", form, map[string]string{"HX-Request": "true"})
	if res.header.Get("HX-Retarget") != "#content" || !strings.Contains(res.body, "Remove field email?") {
		t.Errorf("confirmation over htmx: %d %v", res.status, res.header)
	}
	if m, _, _ := f.last(); m != n {
		t.Errorf("asking saved version %d", m)
	}
	// The page's form, sent as it is, removes the field.
	var sent url.Values = url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`).FindAllStringSubmatch(body, -1) {
		sent.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	sent.Del("_csrf")
	s := f.act("/fields/1/remove", sent)
	if got := names(s); !reflect.DeepEqual(got, []string{"name"}) {
		t.Errorf("after confirming: %q", got)
	}
	// A stale page is refused at once, without asking.
	f.refused("/fields/0/remove", url.Values{"base": {"1"}}, http.StatusConflict)
}

func TestSettingsRoles(t *testing.T) {
	f := newBuilderForm(t)
	ctx := context.Background()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		email, ws string
		role      accounts.Role
	}{{"vi@example.com", accounts.DefaultWorkspace, accounts.Viewer}, {"ed@example.com", accounts.DefaultWorkspace, accounts.Editor}, {"ot@example.com", "other", ""}} {
		if err := f.tc.db.CreateUser(ctx, accounts.User{Email: u.email, PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if u.ws == "other" {
			err = f.tc.db.CreateWorkspace(ctx, u.ws, u.email, time.Now())
		} else {
			err = f.tc.db.SetMember(ctx, accounts.Member{Workspace: u.ws, Email: u.email, Role: u.role, CreatedAt: time.Now()})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	as := func(email string) (*browser, string) {
		b := f.tc.browser()
		if res := b.signIn(email, janePassword); res.status != http.StatusSeeOther {
			t.Fatalf("sign-in as %s: %d", email, res.status)
		}
		return b, b.csrf("/console/account")
	}
	n, _, _ := f.last()
	// The page's form with every setting of a form's behaviour changed.
	post := f.settingsForm()
	for k, v := range map[string]string{"redirectUrl": "https://example.com/thanks", "autoresponder": "on", "arSubject": "Thanks", "arBody": "Hi",
		"closesAt": "2026-12-31T23:59", "maxSubmissions": "5", "uniqueFields": "email", "minSeconds": "0", "maxLinks": "any", "phrases": "spam"} {
		post.Set(k, v)
	}
	post.Set("base", strconv.FormatInt(n, 10))

	viewer, token := as("vi@example.com")
	if res := viewer.get("/console/forms/acme/contact/settings"); res.status != http.StatusOK || !strings.Contains(res.body, "<legend>Files</legend>") {
		t.Errorf("settings as a viewer: %d", res.status)
	}
	post.Set("_csrf", token)
	if res := viewer.do(http.MethodPost, "/console/forms/acme/contact/settings", post, nil); res.status != http.StatusForbidden {
		t.Errorf("saving settings as a viewer: %d, want 403", res.status)
	}
	field := url.Values{"name": {"email"}, "prefill": {"on"}, "base": {strconv.FormatInt(n, 10)}, "_csrf": {token}}
	if res := viewer.do(http.MethodPost, "/console/forms/acme/contact/fields/1", field, nil); res.status != http.StatusForbidden {
		t.Errorf("editing a field as a viewer: %d, want 403", res.status)
	}
	other, token := as("ot@example.com")
	if res := other.get("/console/forms/acme/contact/settings"); res.status != http.StatusNotFound || strings.Contains(res.body, "Contact") {
		t.Errorf("settings of another workspace's form: %d %s", res.status, res.body)
	}
	post.Set("_csrf", token)
	if res := other.do(http.MethodPost, "/console/forms/acme/contact/settings", post, nil); res.status != http.StatusNotFound {
		t.Errorf("saving another workspace's settings: %d, want 404", res.status)
	}
	if m, _, _ := f.last(); m != n {
		t.Errorf("refused posts saved version %d", m)
	}
	// An editor may.
	editor, token := as("ed@example.com")
	post.Set("_csrf", token)
	if res := editor.do(http.MethodPost, "/console/forms/acme/contact/settings", post, nil); res.status != http.StatusSeeOther {
		t.Errorf("saving settings as an editor: %d, want 303: %s", res.status, res.body)
	}
	if got := f.hubJSON("maxSubmissions"); got != "5" {
		t.Errorf("the editor's settings: hub.maxSubmissions %s", got)
	}
	// A form that does not exist.
	if res := f.b.get("/console/forms/acme/none/settings"); res.status != http.StatusNotFound {
		t.Errorf("settings of a missing form: %d", res.status)
	}
}

// pageForm returns what a browser sends from the form of the page whose
// action is action: each named input, select and textarea as the page
// sets it, checkboxes only when checked.
func pageForm(t *testing.T, page, action string) url.Values {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	form := doc.Find(`form[action="` + action + `"]`)
	if form.Length() != 1 {
		t.Fatalf("%d forms post to %s", form.Length(), action)
	}
	out := url.Values{}
	form.Find("input, select, textarea").Each(func(_ int, s *goquery.Selection) {
		name, ok := s.Attr("name")
		if !ok {
			return
		}
		switch {
		case goquery.NodeName(s) == "textarea":
			out.Add(name, s.Text())
		case goquery.NodeName(s) == "select":
			opt := s.Find("option[selected]")
			if opt.Length() == 0 {
				opt = s.Find("option").First()
			}
			out.Add(name, opt.AttrOr("value", opt.Text()))
		case s.AttrOr("type", "") == "checkbox":
			if _, checked := s.Attr("checked"); checked {
				out.Add(name, s.AttrOr("value", "on"))
			}
		default:
			out.Add(name, s.AttrOr("value", ""))
		}
	})
	return out
}

// settingsForm returns the Settings tab's form of acme/contact as the page
// shows it, without its CSRF token and base, which act sets.
func (f *builderForm) settingsForm() url.Values {
	f.t.Helper()
	res := f.b.get("/console/forms/acme/contact/settings")
	if res.status != http.StatusOK {
		f.t.Fatalf("settings tab: %d", res.status)
	}
	form := pageForm(f.t, res.body, "/console/forms/acme/contact/settings")
	form.Del("_csrf")
	form.Del("base")
	return form
}

// saveFile saves body into the draft of acme/contact from the JSON view.
func (f *builderForm) saveFile(body string) {
	f.t.Helper()
	n, _, _ := f.last()
	if res := f.post("/forms/acme/contact", url.Values{"body": {body}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		f.t.Fatalf("save: %d %s", res.status, html.UnescapeString(res.body))
	}
}

// hubJSON returns the newest version's hub member name as JSON, "" when
// it has none.
func (f *builderForm) hubJSON(name string) string {
	f.t.Helper()
	_, s, _ := f.last()
	var h map[string]json.RawMessage
	_ = json.Unmarshal(s.Extra["hub"], &h)
	var b bytes.Buffer
	if json.Compact(&b, h[name]) != nil {
		return string(h[name])
	}
	return b.String()
}

// withHub is builderBase with more members in "hub".
func withHub(members string) string {
	return strings.Replace(builderBase, `"hub":{"retentionDays":30}`, `"hub":{"retentionDays":30,`+members+`}`, 1)
}

// behaviourFile is builderBase with every setting of the new sections
// set, a member of meta the Settings tab does not know, and delivery.
const behaviourMembers = `"autoresponder":{"emailField":"email","subject":"Thanks","body":"Hi {{name}},\nwe got it.","i18n":{"de":{"subject":"Danke"},"fr":{"subject":"Merci","body":"Bonjour"}}},` +
	`"closesAt":"2026-12-31T22:59:30.123456789Z","maxSubmissions":500,"uniqueFields":["email"],"minSeconds":1.5,"resume":false,"draftDays":90,` +
	`"spam":{"maxLinks":-1,"linksInTextFields":true,"foreignScripts":false,"phrases":["cheap pills","free money"],"builtinPhrases":false},` +
	`"notify":{"email":["a@example.com"],"replyToField":"email"},"webhooks":[{"url":"https://example.com/hook","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}]`

func TestSettingsRoundTrip(t *testing.T) {
	// The page saved as it is shown changes nothing in the file: every
	// setting it shows reads back as it was, the others are kept.
	for name, body := range map[string]string{
		"defaults": builderBase,
		"every setting": strings.Replace(withHub(behaviourMembers), `"title":"Contact",`,
			`"title":"Contact","meta":{"redirectUrl":"https://example.com/thanks?from=form","x-theme":"dark"},`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			f := newBuilderForm(t)
			f.saveFile(body)
			_, before, _ := f.last()
			f.act("/settings", f.settingsForm())
			_, after, _ := f.last()
			var b, a any
			_ = json.Unmarshal(before.Extra["hub"], &b)
			_ = json.Unmarshal(after.Extra["hub"], &a)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("hub after saving the page as shown:\n%s\nwant\n%s", after.Extra["hub"], before.Extra["hub"])
			}
			if !reflect.DeepEqual(after.Meta, before.Meta) {
				t.Errorf("meta after saving the page as shown: %+v, want %+v", after.Meta, before.Meta)
			}
		})
	}
}

func TestSettingsAfterSending(t *testing.T) {
	f := newBuilderForm(t)
	f.saveFile(strings.Replace(builderBase, `"title":"Contact",`, `"title":"Contact","meta":{"x-theme":"dark"},`, 1))
	form := f.settingsForm()
	form.Set("redirectUrl", " https://example.com/thanks?from=form ")
	s := f.act("/settings", form)
	if s.Meta.RedirectURL != "https://example.com/thanks?from=form" || string(s.Meta.Extra["x-theme"]) != `"dark"` {
		t.Errorf("meta: %+v", s.Meta)
	}
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, `name="redirectUrl" type="url" value="https://example.com/thanks?from=form"`) {
		t.Errorf("the page does not show the redirect: %s", page)
	}
	for _, bad := range []string{"example.com/thanks", "ftp://example.com/x", "javascript:alert(1)", "https://", "https://exa mple.com/", "/thanks", "mailto:a@example.com", "https://user:pw@example.com/"} {
		form := f.settingsForm()
		form.Set("redirectUrl", bad)
		form.Set("title", "Typed title")
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `<p class="hubform-field-error" id="set-redirect-error">the page after sending is a full address starting with https:// or http://`) ||
			!strings.Contains(body, `value="`+bad+`" aria-describedby="set-redirect-help set-redirect-error" aria-invalid="true"`) ||
			!strings.Contains(body, `name="title" type="text" value="Typed title"`) {
			t.Errorf("redirect %q: no error beside the input, or the typed values lost: %s", bad, body)
		}
	}
	form = f.settingsForm()
	form.Set("redirectUrl", "")
	if s := f.act("/settings", form); s.Meta.RedirectURL != "" || string(s.Meta.Extra["x-theme"]) != `"dark"` {
		t.Errorf("no redirect: meta %+v", s.Meta)
	}
}

func TestSettingsAutoresponder(t *testing.T) {
	f := newBuilderForm(t)
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	for _, want := range []string{"<legend>Confirmation e-mail</legend>", `<option value="email" selected>email</option>`,
		"These are replaced by what the person sent: {{name}}, {{email}}.", `name="arSubject.de"`, `name="arBody.de"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the confirmation's section lacks %s", want)
		}
	}
	if strings.Contains(page, `name="autoresponder" type="checkbox" value="on" aria-describedby="set-ar-help" checked`) {
		t.Errorf("the confirmation shows as on in a form without one")
	}
	// A locale the form no longer translates to keeps its texts.
	f.saveFile(withHub(`"autoresponder":{"emailField":"email","subject":"Old","body":"Old","i18n":{"fr":{"subject":"Merci"}}}`))
	form := f.settingsForm()
	form.Set("autoresponder", "on")
	form.Set("arSubject", " We got your message ")
	form.Set("arBody", "Hi {{name}},\r\nthanks.\r\n")
	form.Set("arSubject.de", "Danke")
	form.Set("arBody.de", "")
	f.act("/settings", form)
	want := `{"emailField":"email","subject":"We got your message","body":"Hi {{name}},\nthanks.\n","i18n":{"de":{"subject":"Danke"},"fr":{"subject":"Merci"}}}`
	if got := f.hubJSON("autoresponder"); got != want {
		t.Errorf("hub.autoresponder:\n%s\nwant\n%s", got, want)
	}
	page = html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	if !strings.Contains(page, `name="autoresponder" type="checkbox" value="on" aria-describedby="set-ar-help" checked`) ||
		!strings.Contains(page, `name="arSubject.de" type="text" value="Danke"`) || !strings.Contains(page, ">Hi {{name}},\nthanks.\n</textarea>") {
		t.Errorf("the page does not show the confirmation: %s", page)
	}
	// Emptied, a language's texts go.
	form = f.settingsForm()
	form.Set("arSubject.de", "")
	f.act("/settings", form)
	if got := f.hubJSON("autoresponder"); strings.Contains(got, `"de"`) || !strings.Contains(got, `"fr"`) {
		t.Errorf("the de texts emptied: %s", got)
	}

	// What is missing is said beside its input; what was typed stays.
	form = f.settingsForm()
	form.Set("arSubject", "")
	form.Set("arBody", " \r\n")
	form.Set("maxSubmissions", "42")
	body := f.refused("/settings", form, http.StatusUnprocessableEntity)
	for _, want := range []string{`id="set-ar-subject-error">the confirmation needs a subject<`, `id="set-ar-body-error">the confirmation needs a text<`,
		`name="maxSubmissions" type="number" value="42"`, `name="autoresponder" type="checkbox" value="on" aria-describedby="set-ar-help" checked`} {
		if !strings.Contains(body, want) {
			t.Errorf("a confirmation without texts: the page lacks %s", want)
		}
	}

	// Off removes it.
	form = f.settingsForm()
	form.Del("autoresponder")
	f.act("/settings", form)
	if got := f.hubJSON("autoresponder"); got != "" {
		t.Errorf("off: hub.autoresponder %s", got)
	}
	if got := f.hubJSON("retentionDays"); got != "30" {
		t.Errorf("hub.retentionDays after the confirmation's edits: %s", got)
	}
}

func TestSettingsAutoresponderNoEmailField(t *testing.T) {
	f := newBuilderForm(t)
	f.saveFile(strings.Replace(builderBase, `"type":"email"`, `"type":"text"`, 1))
	page := f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, "The form has no e-mail field") || strings.Contains(page, `name="arSubject"`) {
		t.Errorf("a form without an e-mail field: %s", page)
	}
	// Nothing of the confirmation is posted, so nothing changes.
	f.act("/settings", f.settingsForm())
	if got := f.hubJSON("autoresponder"); got != "" {
		t.Errorf("hub.autoresponder: %s", got)
	}
}

// parisBrowser signs Jane in from a browser in Europe/Paris and returns
// it with its CSRF token.
func parisBrowser(t *testing.T, f *builderForm) (*browser, string) {
	t.Helper()
	b := f.tc.browser()
	if res := b.signInFrom("Europe/Paris", janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return b, b.csrf("/console/account")
}

func TestSettingsClosesAt(t *testing.T) {
	f := newBuilderForm(t)
	f.b, f.token = parisBrowser(t, f)
	page := f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, "In your time zone, Europe/Paris.") || !strings.Contains(page, `name="closesAt" type="datetime-local" value=""`) {
		t.Errorf("the closing time's input: %s", page)
	}
	// Winter, UTC+1, and summer, UTC+2.
	for typed, want := range map[string]string{"2026-12-31T23:59": `"2026-12-31T22:59:00Z"`, "2026-07-01T12:00": `"2026-07-01T10:00:00Z"`,
		"2026-07-01T12:00:30": `"2026-07-01T10:00:30Z"`, "2026-07-01 12:00": `"2026-07-01T10:00:00Z"`} {
		form := f.settingsForm()
		form.Set("closesAt", typed)
		f.act("/settings", form)
		if got := f.hubJSON("closesAt"); got != want {
			t.Errorf("closes at %s in Paris: hub.closesAt %s, want %s", typed, got, want)
		}
	}
	f.saveFile(withHub(`"closesAt":"2026-12-31T22:59:00Z"`))
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, `name="closesAt" type="datetime-local" value="2026-12-31T23:59"`) {
		t.Errorf("the closing time is not shown in Paris time: %s", page)
	}
	// A time to the nanosecond is shown to the millisecond and kept
	// whole when the input is left as it is.
	f.saveFile(withHub(`"closesAt":"2026-12-31T22:59:30.123456789Z"`))
	page = f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, `value="2026-12-31T23:59:30.123" aria-describedby="set-closes-help" step="any"`) {
		t.Errorf("a closing time with seconds: %s", page)
	}
	f.act("/settings", f.settingsForm())
	if got := f.hubJSON("closesAt"); got != `"2026-12-31T22:59:30.123456789Z"` {
		t.Errorf("an unchanged closing time became %s", got)
	}
	for _, bad := range []string{"tomorrow", "2026-02-30T10:00", "2026-12-31", "31/12/2026 23:59", "2026-12-31T25:00"} {
		form := f.settingsForm()
		form.Set("closesAt", bad)
		form.Set("minSeconds", "7")
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `id="set-closes-error">the closing time is a date and a time such as 2026-12-31T23:59, not "`+bad+`"`) ||
			!strings.Contains(body, `value="`+bad+`"`) || !strings.Contains(body, `name="minSeconds" type="number" value="7"`) {
			t.Errorf("closes at %q: %s", bad, body)
		}
	}
	form := f.settingsForm()
	form.Set("closesAt", "")
	f.act("/settings", form)
	if got := f.hubJSON("closesAt"); got != "" {
		t.Errorf("no closing time: %s", got)
	}
}

func TestSettingsClosesAtUTC(t *testing.T) {
	// A session without a time zone types in UTC.
	f := newBuilderForm(t)
	form := f.settingsForm()
	form.Set("closesAt", "2026-12-31T23:59")
	f.act("/settings", form)
	if got := f.hubJSON("closesAt"); got != `"2026-12-31T23:59:00Z"` {
		t.Errorf("hub.closesAt %s", got)
	}
}

func TestSettingsLimits(t *testing.T) {
	f := newBuilderForm(t)
	// Every type that can tell people apart is offered, others not.
	f.act("/fields", url.Values{"type": {"textarea"}, "name": {"message"}, "step": {"how"}})
	f.act("/fields", url.Values{"type": {"hidden"}, "name": {"ref"}})
	f.act("/fields", url.Values{"type": {"checkboxes"}, "name": {"topics"}, "step": {"how"}})
	page := f.b.get("/console/forms/acme/contact/settings").body
	var offered []string
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	doc.Find(`input[name="uniqueFields"]`).Each(func(_ int, s *goquery.Selection) { offered = append(offered, s.AttrOr("value", "")) })
	if want := []string{"name", "email", "ref"}; !reflect.DeepEqual(offered, want) {
		t.Errorf("one per person offers %q, want %q", offered, want)
	}

	form := f.settingsForm()
	form.Set("maxSubmissions", " 500 ")
	form["uniqueFields"] = []string{"ref", "email"}
	f.act("/settings", form)
	if got := f.hubJSON("maxSubmissions"); got != "500" {
		t.Errorf("hub.maxSubmissions %s", got)
	}
	if got := f.hubJSON("uniqueFields"); got != `["email","ref"]` {
		t.Errorf("hub.uniqueFields %s", got)
	}
	page = f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, `name="uniqueFields" type="checkbox" value="email" checked`) || strings.Contains(page, `value="name" checked`) {
		t.Errorf("the unique fields are not shown checked: %s", page)
	}

	for bad, msg := range map[string]string{
		"-1":   "the most submissions is at least 1, not -1; leave it empty for no limit",
		"0":    "the most submissions is at least 1, not 0",
		"ten":  `the most submissions is a whole number such as 500, not "ten"`,
		"1.5":  `not "1.5"`,
		"1e3":  `not "1e3"`,
		"9e99": `not "9e99"`,
	} {
		form := f.settingsForm()
		form.Set("maxSubmissions", bad)
		form.Set("redirectUrl", "https://example.com/typed")
		form["uniqueFields"] = []string{"name"}
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `id="set-max-error">the most submissions is`) || !strings.Contains(body, msg) || !strings.Contains(body, `value="https://example.com/typed"`) ||
			!strings.Contains(body, `value="name" checked`) || strings.Contains(body, `value="email" checked`) {
			t.Errorf("max submissions %q: %s", bad, body)
		}
	}
	// A field the page did not offer.
	form = f.settingsForm()
	form["uniqueFields"] = []string{"message"}
	if body := f.refused("/settings", form, http.StatusUnprocessableEntity); !strings.Contains(body, `id="set-unique-error">the form has no field "message" that can be one per person`) {
		t.Errorf("a textarea made unique: %s", body)
	}

	form = f.settingsForm()
	form.Set("maxSubmissions", "")
	delete(form, "uniqueFields")
	f.act("/settings", form)
	if m, u := f.hubJSON("maxSubmissions"), f.hubJSON("uniqueFields"); m != "" || u != "" {
		t.Errorf("no limits: hub.maxSubmissions %s, hub.uniqueFields %s", m, u)
	}
}

func TestSettingsSpam(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get("/console/forms/acme/contact/settings").body
	for _, want := range []string{`name="minSeconds" type="number" value=""`, "Empty: 2 seconds; 0: no time trap.", "Empty: 3. 0: none; any: no limit.",
		`name="spamChecks" type="checkbox" value="on" aria-describedby="set-spamchecks-help" checked`,
		`name="linksInTextFields" type="checkbox" value="on" checked`, `name="foreignScripts" type="checkbox" value="on" checked`} {
		if !strings.Contains(page, want) {
			t.Errorf("the spam section lacks %s", want)
		}
	}
	form := f.settingsForm()
	form.Set("minSeconds", "0")
	form.Set("maxLinks", "any")
	form.Del("spamChecks")
	form.Del("foreignScripts")
	form.Set("phrases", "cheap pills\r\n\r\n  free money \r\n")
	f.act("/settings", form)
	if got := f.hubJSON("minSeconds"); got != "0" {
		t.Errorf("no time trap: hub.minSeconds %s", got)
	}
	if got, want := f.hubJSON("spam"), `{"off":true,"maxLinks":-1,"foreignScripts":false,"phrases":["cheap pills","free money"]}`; got != want {
		t.Errorf("hub.spam %s, want %s", got, want)
	}
	page = html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	if !strings.Contains(page, `name="maxLinks" type="text" value="any"`) || !strings.Contains(page, ">cheap pills\nfree money</textarea>") ||
		strings.Contains(page, `name="spamChecks" type="checkbox" value="on" aria-describedby="set-spamchecks-help" checked`) ||
		strings.Contains(page, `name="foreignScripts" type="checkbox" value="on" checked`) {
		t.Errorf("the page does not show the spam settings: %s", page)
	}

	form = f.settingsForm()
	form.Set("minSeconds", "1.5")
	form.Set("maxLinks", "0")
	form.Set("spamChecks", "on")
	form.Del("linksInTextFields")
	form.Del("builtinPhrases")
	form.Set("foreignScripts", "on")
	form.Set("phrases", "")
	f.act("/settings", form)
	if got := f.hubJSON("minSeconds"); got != "1.5" {
		t.Errorf("hub.minSeconds %s", got)
	}
	if got, want := f.hubJSON("spam"), `{"maxLinks":0,"linksInTextFields":false,"builtinPhrases":false}`; got != want {
		t.Errorf("hub.spam %s, want %s", got, want)
	}

	for bad, want := range map[[2]string]string{
		{"minSeconds", "-1"}:   `id="set-minseconds-error">the least time to fill the form is between 0 (no time trap) and 3600 seconds, not -1`,
		{"minSeconds", "4000"}: `id="set-minseconds-error">the least time to fill the form is between 0`,
		{"minSeconds", "soon"}: `id="set-minseconds-error">the least time to fill the form is a number of seconds such as 2 or 1.5, not "soon"`,
		{"minSeconds", "NaN"}:  `id="set-minseconds-error">the least time to fill the form is a number of seconds`,
		{"minSeconds", "Inf"}:  `id="set-minseconds-error">the least time to fill the form is a number of seconds`,
		{"maxLinks", "many"}:   `id="set-maxlinks-error">the most links is a whole number such as 3, or any, not "many"`,
		{"maxLinks", "2.5"}:    `id="set-maxlinks-error">the most links is a whole number`,
	} {
		form := f.settingsForm()
		form.Set(bad[0], bad[1])
		form.Set("phrases", "typed phrase")
		body := f.refused("/settings", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, want) || !strings.Contains(body, ">typed phrase</textarea>") || !strings.Contains(body, `value="`+bad[1]+`"`) {
			t.Errorf("%s = %q: %s", bad[0], bad[1], body)
		}
	}

	// Back to the defaults, the file says nothing of spam.
	form = f.settingsForm()
	form.Set("minSeconds", "")
	form.Set("maxLinks", "")
	for _, name := range []string{"spamChecks", "linksInTextFields", "foreignScripts", "builtinPhrases"} {
		form.Set(name, "on")
	}
	f.act("/settings", form)
	if m, s := f.hubJSON("minSeconds"), f.hubJSON("spam"); m != "" || s != "" {
		t.Errorf("defaults: hub.minSeconds %s, hub.spam %s", m, s)
	}
}

func TestSettingsDrafts(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get("/console/forms/acme/contact/settings").body
	for _, want := range []string{"<legend>Save and continue later</legend>", `<option value="" selected>Forms of several steps</option>`,
		`<option value="always">Always</option>`, `<option value="never">Never</option>`, "This form has 2 steps: by default it keeps drafts.",
		`name="draftDays" type="number" value="" aria-describedby="set-draftdays-help" max="365" min="1" step="1"`,
		"Empty: 30.", "not in the inbox", "send no e-mail or webhook", "deleted once sent", "allowed origins, or its page on the hub"} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the drafts' section lacks %s", want)
		}
	}

	form := f.settingsForm()
	form.Set("resume", "always")
	form.Set("draftDays", " 7 ")
	f.act("/settings", form)
	if r, d := f.hubJSON("resume"), f.hubJSON("draftDays"); r != "true" || d != "7" {
		t.Errorf("always, 7 days: hub.resume %s, hub.draftDays %s", r, d)
	}
	if got := f.hubJSON("retentionDays"); got != "30" {
		t.Errorf("hub.retentionDays after the drafts' edits: %s", got)
	}
	page = f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, `<option value="always" selected>Always</option>`) || !strings.Contains(page, `name="draftDays" type="number" value="7"`) {
		t.Errorf("the page does not show the drafts' settings: %s", page)
	}

	form = f.settingsForm()
	form.Set("resume", "never")
	f.act("/settings", form)
	if r, d := f.hubJSON("resume"), f.hubJSON("draftDays"); r != "false" || d != "7" {
		t.Errorf("never: hub.resume %s, hub.draftDays %s", r, d)
	}
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, `<option value="never" selected>Never</option>`) {
		t.Errorf("the page does not show never: %s", page)
	}

	// Out of range or not a number: the error beside the input, what was
	// typed kept, nothing saved.
	for bad, msg := range map[string]string{
		"0":    "drafts are kept from 1 to 365 days, not 0; leave it empty for 30",
		"366":  "drafts are kept from 1 to 365 days, not 366",
		"-3":   "not -3",
		"abc":  `the days drafts are kept is a whole number such as 30, not "abc"`,
		"1.5":  `not "1.5"`,
		"1e2":  `not "1e2"`,
		"9e99": `not "9e99"`,
	} {
		n, _, _ := f.last()
		form := f.settingsForm()
		form.Set("draftDays", bad)
		form.Set("resume", "always")
		form.Set("title", "Typed title")
		body := html.UnescapeString(f.refused("/settings", form, http.StatusUnprocessableEntity))
		if !strings.Contains(body, `<p class="hubform-field-error" id="set-draftdays-error">`) || !strings.Contains(body, msg) ||
			!strings.Contains(body, `<code>hub.draftDays</code>`) ||
			!strings.Contains(body, `name="draftDays" type="number" value="`+bad+`" aria-describedby="set-draftdays-help set-draftdays-error" aria-invalid="true"`) ||
			!strings.Contains(body, `<option value="always" selected>Always</option>`) || !strings.Contains(body, `name="title" type="text" value="Typed title"`) {
			t.Errorf("draft days %q: no error beside the input, or the typed values lost: %s", bad, body)
		}
		if m, _, _ := f.last(); m != n {
			t.Errorf("draft days %q saved version %d", bad, m)
		}
	}
	if r, d := f.hubJSON("resume"), f.hubJSON("draftDays"); r != "false" || d != "7" {
		t.Errorf("after the refused posts: hub.resume %s, hub.draftDays %s", r, d)
	}
	// A choice no page offers.
	form = f.settingsForm()
	form.Set("resume", "sometimes")
	if body := html.UnescapeString(f.refused("/settings", form, http.StatusUnprocessableEntity)); !strings.Contains(body, `id="set-resume-error">drafts are kept for forms of several steps, always or never, not "sometimes"`) {
		t.Errorf("resume sometimes: %s", body)
	}

	// Back to the defaults, the file says nothing of drafts.
	form = f.settingsForm()
	form.Set("resume", "")
	form.Set("draftDays", "")
	f.act("/settings", form)
	if r, d := f.hubJSON("resume"), f.hubJSON("draftDays"); r != "" || d != "" {
		t.Errorf("defaults: hub.resume %s, hub.draftDays %s", r, d)
	}
	// A post without the section's inputs leaves the settings as they are.
	f.saveFile(withHub(`"resume":true,"draftDays":12`))
	f.act("/settings", url.Values{"title": {"Contact"}})
	if r, d := f.hubJSON("resume"), f.hubJSON("draftDays"); r != "true" || d != "12" {
		t.Errorf("a post without the drafts' inputs: hub.resume %s, hub.draftDays %s", r, d)
	}
	// One step: the help says the default keeps no drafts.
	f.saveFile(strings.Replace(builderBase, `[{"id":"who","fields":["name"]},{"id":"how","fields":["email"]}]`, `[{"id":"who","fields":["name","email"]}]`, 1))
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, "This form has one step: by default it keeps none.") {
		t.Errorf("a form of one step: %s", page)
	}
}

// newBuilderFormWith is newBuilderForm on a console that change sets up
// further.
func newBuilderFormWith(t *testing.T, change func(*console.Config)) *builderForm {
	tc := newConsole(t, func(cfg *console.Config) { withStore(cfg); change(cfg) })
	b, token := signedIn(t, tc)
	f := &builderForm{t: t, tc: tc, b: b, token: token}
	if res := f.post("/sites", url.Values{"site": {"acme"}, "slug": {"contact"}}); res.status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	f.saveFile(builderBase)
	return f
}

// TestDeliveriesEmptyLinksToSettings checks that a form without
// deliveries says where they are set, with a link to the section of its
// settings that sets them, which the settings page has.
func TestDeliveriesEmptyLinksToSettings(t *testing.T) {
	f := newBuilderFormWith(t, func(cfg *console.Config) { cfg.Deliveries = &fakeDeliveries{} })
	res := f.b.get(console.Path + "/forms/acme/contact/deliveries")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	if err != nil {
		t.Fatal(err)
	}
	link := doc.Find(`#no-deliveries a`)
	href := link.AttrOr("href", "")
	if res.status != http.StatusOK || link.Text() != "Set e-mail and webhooks" || href != console.Path+"/forms/acme/contact/settings#delivery" {
		t.Fatalf("the empty deliveries page: %d, link %q to %q", res.status, link.Text(), href)
	}
	path, anchor, _ := strings.Cut(href, "#")
	if page := f.b.get(path).body; !strings.Contains(page, `id="`+anchor+`"`) || !strings.Contains(page, `name="webhookURL"`) || !strings.Contains(page, `name="notifyMe"`) {
		t.Errorf("the settings page has no section %q setting e-mail and webhooks", anchor)
	}
}

// TestSettingsEmbedOrigins checks "Only allow these sites to embed this
// form": saved as hub.embedOrigins, shown back, refused beside its input
// when a line is not a site's origin, and removed when emptied.
func TestSettingsEmbedOrigins(t *testing.T) {
	f := newBuilderForm(t)
	form := f.settingsForm()
	form.Set("embedOrigins", "https://www.example.com\r\nhttps://shop.example.com:8443\r\n")
	f.act("/settings", form)
	if got := f.hubJSON("embedOrigins"); got != `["https://www.example.com","https://shop.example.com:8443"]` {
		t.Errorf("embedOrigins: %s", got)
	}
	if got := f.settingsForm().Get("embedOrigins"); got != "https://www.example.com\nhttps://shop.example.com:8443" {
		t.Errorf("the page shows %q", got)
	}
	form.Set("embedOrigins", "www.example.com/page")
	if body := f.refused("/settings", form, http.StatusUnprocessableEntity); !strings.Contains(body, `id="set-embed-error"`) {
		t.Errorf("not an origin: %s", body)
	}
	form.Set("embedOrigins", "")
	f.act("/settings", form)
	if got := f.hubJSON("embedOrigins"); got != "" {
		t.Errorf("emptied: embedOrigins %s", got)
	}
}

// TestSettingsWebhooksForEditors checks what an editor, who may not read
// the file's secrets, sees of its webhooks: neither the address nor the
// secret, not even the host; the page saved as shown keeps both, and the
// editor may still remove one.
func TestSettingsWebhooksForEditors(t *testing.T) {
	f := newBuilderForm(t)
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	f.saveFile(withHub(`"webhooks":[{"url":"https://in.receiver.example/T0K3N","secret":"` + secret + `"}]`))
	ctx := t.Context()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.tc.db.CreateUser(ctx, accounts.User{Email: "ed@example.com", PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := f.tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "ed@example.com", Role: accounts.Editor, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ed := f.tc.browser()
	ed.signIn("ed@example.com", janePassword)
	f.b, f.token = ed, ed.csrf(console.Path+"/sites")
	page := html.UnescapeString(ed.get(console.Path + "/forms/acme/contact/settings").body)
	if strings.Contains(page, "whsec_") || strings.Contains(page, "receiver.example") || !strings.Contains(page, "an address shown to the workspace's admins") {
		t.Errorf("an editor's settings show the webhook: %s", page)
	}
	f.act("/settings", f.settingsForm())
	if got := f.hubJSON("webhooks"); got != `[{"url":"https://in.receiver.example/T0K3N","secret":"`+secret+`"}]` {
		t.Errorf("the editor's save as shown: webhooks %s", got)
	}
	form := f.settingsForm()
	form.Set("webhookRemove", "0")
	f.act("/settings", form)
	if got := f.hubJSON("webhooks"); got != "" {
		t.Errorf("the editor removed the webhook: %s", got)
	}
}
