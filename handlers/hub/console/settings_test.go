package console_test

import (
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

	"github.com/hubform/hubform/handlers/hub/accounts"
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
	if want := []string{"Texts", "Captcha", "Files", "Origins", "Hosted page"}; !reflect.DeepEqual(got, want) {
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
		t.Errorf("a bad size saved version %d", m)
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
	if page := f.b.get("/console/forms/acme/contact/settings").body; strings.Contains(page, "<legend>Delivery</legend>") {
		t.Errorf("a form without delivery settings shows them")
	}
	const hook = `{"url":"https://example.com/hook","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}`
	body := strings.Replace(builderBase, `"hub":{"retentionDays":30}`, `"hub":{"retentionDays":30,"notify":{"email":["a@example.com"]},"webhooks":[`+hook+`]}`, 1)
	if res := f.post("/forms/acme/contact", url.Values{"body": {body}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	if !strings.Contains(page, "<legend>Delivery</legend>") || !strings.Contains(page, ">a@example.com</textarea>") ||
		!strings.Contains(page, "<code>https://example.com/hook</code>") || strings.Contains(page, "whsec_") {
		t.Errorf("delivery settings: %s", page)
	}
	form := settingsPost()
	form.Set("notifyEmail", "a@example.com\r\nb@example.com")
	form.Set("replyToField", "email")
	f.act("/settings", form)
	h := f.hubMember()
	if got := h["notify"]; !reflect.DeepEqual(got, map[string]any{"email": []any{"a@example.com", "b@example.com"}, "replyToField": "email"}) {
		t.Errorf("notify: %v", got)
	}
	if hooks, _ := h["webhooks"].([]any); len(hooks) != 1 {
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
	for _, u := range []struct{ email, ws string }{{"vi@example.com", accounts.DefaultWorkspace}, {"ot@example.com", "other"}} {
		if err := f.tc.db.CreateUser(ctx, accounts.User{Email: u.email, PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if u.ws == "other" {
			err = f.tc.db.CreateWorkspace(ctx, u.ws, u.email, time.Now())
		} else {
			err = f.tc.db.SetMember(ctx, accounts.Member{Workspace: u.ws, Email: u.email, Role: accounts.Viewer, CreatedAt: time.Now()})
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
	post := settingsPost()
	post.Set("base", strconv.FormatInt(n, 10))

	viewer, token := as("vi@example.com")
	if res := viewer.get("/console/forms/acme/contact/settings"); res.status != http.StatusOK || !strings.Contains(res.body, "<legend>Files</legend>") {
		t.Errorf("settings as a viewer: %d", res.status)
	}
	post.Set("_csrf", token)
	if res := viewer.do(http.MethodPost, "/console/forms/acme/contact/settings", post, nil); res.status != http.StatusForbidden {
		t.Errorf("saving settings as a viewer: %d, want 403", res.status)
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
	// A form that does not exist.
	if res := f.b.get("/console/forms/acme/none/settings"); res.status != http.StatusNotFound {
		t.Errorf("settings of a missing form: %d", res.status)
	}
}
