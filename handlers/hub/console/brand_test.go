package console_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// TestBrand: an admin sets the workspace's brand on its page, which the
// Design tab's preview inherits and names; a colour that does not read is
// refused with the nearest that does; an editor and a viewer see the
// brand and cannot change it; another workspace's admin changes their
// own brand, never this one's.
func TestBrand(t *testing.T) {
	f := newBuilderForm(t)
	ctx := context.Background()
	brand := func(ws string) string {
		t.Helper()
		b, err := f.tc.db.Brand(ctx, ws)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := f.b.get(console.Path + "/brand")
	if page.status != http.StatusOK || !strings.Contains(page.body, `aria-current="page">Brand`) || !strings.Contains(page.body, `id="preview"`) ||
		!strings.Contains(page.body, `data-hx-post="/console/brand/preview"`) {
		t.Fatalf("the brand's page: %d %s", page.status, page.body)
	}
	if design := f.b.get(console.Path + "/forms/acme/contact/design"); strings.Contains(design.body, `id="design-brand"`) {
		t.Error("the Design tab names a brand the workspace has not")
	}

	res := f.post("/brand", url.Values{"accent": {"#7C3AED"}, "font": {"serif"}, "radius": {"medium"}})
	if res.status != http.StatusSeeOther || brand(accounts.DefaultWorkspace) != `{"accent":"#7c3aed","font":"serif"}` {
		t.Fatalf("saving the brand: %d, brand %s", res.status, brand(accounts.DefaultWorkspace))
	}
	page = f.b.get(console.Path + "/brand")
	for _, in := range []string{"the workspace&#39;s forms start from this look", `name="accent" type="text" value="#7c3aed"`, `name="font" value="serif" checked`, "--hubform-accent:#7c3aed"} {
		if !strings.Contains(page.body, in) {
			t.Errorf("the brand's page after saving lacks %s", in)
		}
	}
	// The form, whose theme sets its corners alone, takes the brand's
	// accent and font in its preview; its own file is unchanged.
	f.act("/design", url.Values{"radius": {"none"}})
	design := f.b.get(console.Path + "/forms/acme/contact/design")
	if !strings.Contains(design.body, `id="design-brand"`) || !strings.Contains(design.body, "--hubform-accent:#7c3aed") || !strings.Contains(design.body, "serif") {
		t.Errorf("the Design tab does not show the brand inherited: %s", design.body)
	}
	if _, s, _ := f.last(); s.Theme == nil || s.Theme.Accent != "" || s.Theme.Radius != "none" {
		t.Errorf("the form's own theme %+v, want its corners alone", s.Theme)
	}
	preview := f.post("/forms/acme/contact/design/preview", url.Values{"radius": {"none"}})
	if !strings.Contains(preview.body, "--hubform-accent:#7c3aed") {
		t.Errorf("the Design tab's preview of a change does not inherit the brand: %s", preview.body)
	}

	refused := f.post("/brand", url.Values{"text": {"#9ca3af"}})
	if refused.status != http.StatusUnprocessableEntity || !strings.Contains(refused.body, "contrast of 2.53:1") || !strings.Contains(refused.body, `value="text=#6e7788"`) ||
		!strings.Contains(refused.body, `name="text" type="text" value="#9ca3af"`) {
		t.Errorf("a brand that does not read: %d %s", refused.status, refused.body)
	}
	if brand(accounts.DefaultWorkspace) != `{"accent":"#7c3aed","font":"serif"}` {
		t.Errorf("a refused brand was saved: %s", brand(accounts.DefaultWorkspace))
	}
	if res := f.post("/brand", url.Values{"text": {"#9ca3af"}, "use": {"text=#6e7788"}}); res.status != http.StatusSeeOther || brand(accounts.DefaultWorkspace) != `{"text":"#6e7788"}` {
		t.Errorf("the colour proposed: %d, brand %s", res.status, brand(accounts.DefaultWorkspace))
	}

	// Others.
	for email, role := range map[string]accounts.Role{"vic@example.com": accounts.Viewer, "ed@example.com": accounts.Editor} {
		b := f.member(email, role)
		page := b.get(console.Path + "/brand")
		if page.status != http.StatusOK || !strings.Contains(page.body, "Only the workspace's admins change its brand.") ||
			!strings.Contains(page.body, `<fieldset disabled`) || strings.Contains(page.body, ">Save</button>") || !strings.Contains(page.body, `value="#6e7788"`) {
			t.Errorf("the brand's page for %s: %d %s", email, page.status, page.body)
		}
		token := b.csrf(console.Path)
		for _, path := range []string{"/brand", "/brand/preview"} {
			if got := b.do(http.MethodPost, console.Path+path, url.Values{"_csrf": {token}, "accent": {"#b91c1c"}}, nil).status; got != http.StatusForbidden {
				t.Errorf("%s posted by %s: %d, want 403", path, email, got)
			}
		}
	}
	olga := f.member("olga@example.com", "")
	if res := olga.do(http.MethodPost, console.Path+"/brand", url.Values{"_csrf": {olga.csrf(console.Path)}, "accent": {"#b91c1c"}}, nil); res.status != http.StatusSeeOther {
		t.Fatalf("another workspace's admin sets their brand: %d", res.status)
	}
	if brand("rival") != `{"accent":"#b91c1c"}` || brand(accounts.DefaultWorkspace) != `{"text":"#6e7788"}` {
		t.Errorf("brands: rival %s, default %s", brand("rival"), brand(accounts.DefaultWorkspace))
	}
	if page := olga.get(console.Path + "/brand"); !strings.Contains(page.body, `value="#b91c1c"`) || strings.Contains(page.body, "#6e7788") {
		t.Error("another workspace's admin sees a brand not theirs")
	}

	// Taking every choice away leaves no brand.
	if res := f.post("/brand", url.Values{"radius": {"medium"}}); res.status != http.StatusSeeOther || brand(accounts.DefaultWorkspace) != "" {
		t.Errorf("the brand taken away: %d, %s", res.status, brand(accounts.DefaultWorkspace))
	}
}

// member signs in a new user of email, with role in the form's workspace,
// or, without one, admin of a workspace "rival" of their own.
func (f *builderForm) member(email string, role accounts.Role) *browser {
	f.t.Helper()
	return f.tc.member(email, role)
}

// member signs in a new user of email, with role in the default
// workspace, or, without one, admin of a workspace "rival" of their own.
func (tc *testConsole) member(email string, role accounts.Role) *browser {
	tc.t.Helper()
	ctx := context.Background()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		tc.t.Fatal(err)
	}
	if err := tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		tc.t.Fatal(err)
	}
	if role == "" {
		err = tc.db.CreateWorkspace(ctx, "rival", email, time.Now())
	} else {
		err = tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: email, Role: role, CreatedAt: time.Now()})
	}
	if err != nil {
		tc.t.Fatal(err)
	}
	b := tc.browser()
	b.signIn(email, janePassword)
	return b
}

// pictureFiles keeps the pictures uploaded in memory, by key.
type pictureFiles map[string][]byte

func (p pictureFiles) Put(_ context.Context, key, _ string, body io.ReadSeeker, _ int64) error {
	data, err := io.ReadAll(body)
	p[key] = data
	return err
}

// pngOf returns a PNG of w×h pixels.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var pictureAddress = regexp.MustCompile(`^https://hub\.example/images/[0-9a-f]{32}\.png$`)

// TestThemePictures: a logo and a cover uploaded on the Design tab, and a
// logo on the brand's page, are stored and their addresses saved; a file
// that is not a picture is refused, saying which, and saves nothing.
func TestThemePictures(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get(console.Path + "/forms/acme/contact/design")
	for _, in := range []string{`enctype="multipart/form-data"`, `name="logo.file" type="file" accept="image/png,image/jpeg,image/gif,image/webp"`, `name="cover.file"`} {
		if !strings.Contains(page.body, in) {
			t.Errorf("the Design tab lacks %s", in)
		}
	}
	rev, _, _ := f.last()
	design := console.Path + "/forms/acme/contact/design"
	form := func(rev int64) url.Values {
		return url.Values{"_csrf": {f.token}, "base": {strconv.FormatInt(rev, 10)}, "logo.alt": {"Acme"}}
	}
	res := f.b.postFiles(design, form(rev), map[string][]byte{"logo.file": pngOf(t, 40, 20), "cover.file": pngOf(t, 300, 100)})
	if res.status != http.StatusSeeOther {
		t.Fatalf("uploading a logo and a cover: %d %s", res.status, res.body)
	}
	rev, s, _ := f.last()
	if th := s.Theme; th == nil || th.Logo == nil || !pictureAddress.MatchString(th.Logo.Src) || th.Logo.Alt != "Acme" || th.Cover == nil || !pictureAddress.MatchString(th.Cover.Src) || th.Logo.Src == th.Cover.Src {
		t.Fatalf("the theme saved: %+v", s.Theme)
	}
	logo := s.Theme.Logo.Src

	withLogo := form(rev)
	withLogo.Set("logo.src", logo)
	res = f.b.postFiles(design, withLogo, map[string][]byte{"cover.file": []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)})
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "<p>Nothing was saved.</p><p>The cover was not taken: choose a PNG, JPEG, GIF or WebP picture.</p>") {
		t.Errorf("an SVG as the cover: %d %s", res.status, res.body)
	}
	if n, _, _ := f.last(); n != rev {
		t.Error("a refused picture saved the form")
	}
	// A save without a file keeps the address shown.
	if res := f.b.postFiles(design, withLogo, nil); res.status != http.StatusSeeOther {
		t.Fatalf("saving without a picture: %d", res.status)
	}
	if _, s, _ := f.last(); s.Theme == nil || s.Theme.Logo == nil || s.Theme.Logo.Src != logo {
		t.Errorf("the logo after a save without a file: %+v", s.Theme)
	}

	res = f.b.postFiles(console.Path+"/brand", url.Values{"_csrf": {f.token}, "logo.alt": {"Acme"}}, map[string][]byte{"logo.file": pngOf(t, 64, 64)})
	b, err := f.tc.db.Brand(context.Background(), accounts.DefaultWorkspace)
	if res.status != http.StatusSeeOther || err != nil || !regexp.MustCompile(`"logo":\{"src":"https://hub\.example/images/[0-9a-f]{32}\.png","alt":"Acme"\}`).Match(b) {
		t.Errorf("the brand's logo: %d, %s, %v", res.status, b, err)
	}
	res = f.b.postFiles(console.Path+"/brand", url.Values{"_csrf": {f.token}}, map[string][]byte{"logo.file": []byte("GIF89a")})
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "<p>Nothing was saved.</p><p>The logo was not taken: the file is not a picture that can be read: gif cut short or damaged.</p>") {
		t.Errorf("a damaged GIF as the brand's logo: %d %s", res.status, res.body)
	}
}
