package console_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

const setupCode = "7K2M-Q9XA-B4CD-EF56-GH78"

// newSetupConsole serves a console on a fresh database without a user,
// whose setup page takes setupCode; change adjusts the configuration.
func newSetupConsole(t *testing.T, change func(*console.Config)) *testConsole {
	t.Helper()
	db := openSQLite(t)
	cfg := console.Config{Users: db, Workspaces: db, Audit: db, Sessions: db.Sessions(), Limiter: db,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
		PasswordParams: accounts.Params{Memory: 64, Time: 1, Threads: 1},
		Setup:          &console.Setup{Code: setupCode, Store: db, Workspace: accounts.DefaultWorkspace}}
	if change != nil {
		change(&cfg)
	}
	withServices(db, &cfg)
	con, err := console.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	con.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &testConsole{t: t, db: db, srv: srv}
}

// setUp posts the setup form with the page's token.
func (b *browser) setUp(code, email, password, workspace string) response {
	b.tc.t.Helper()
	token := b.csrf(console.SignInPath)
	return b.do(http.MethodPost, console.SetupPath, url.Values{"_csrf": {token}, "code": {code}, "email": {email},
		"password": {password}, "confirm": {password}, "workspace": {workspace}}, nil)
}

// TestSetup: a hub without a user offers its setup page, from the sign-in
// page too; a wrong code is refused with a sentence that says where the
// right one is; the right one, typed with spaces and in small letters,
// makes the first admin of the workspace named, signs them in and records
// it; then the page, its post and the sign-in page's offer are gone, and
// the code cannot be used again.
func TestSetup(t *testing.T) {
	tc := newSetupConsole(t, nil)
	b := tc.browser()
	page := b.get(console.SetupPath)
	if page.status != http.StatusOK || !strings.Contains(page.body, `name="code"`) || !strings.Contains(page.body, `value="default"`) {
		t.Fatalf("setup page: %d %s", page.status, page.body)
	}
	if signIn := b.get(console.SignInPath); !strings.Contains(signIn.body, `href="/console/setup"`) {
		t.Errorf("the sign-in page of a hub without a user does not offer its setup: %s", signIn.body)
	}

	res := b.setUp("AAAA-BBBB-CCCC-DDDD-EEEE", "ann@example.com", janePassword, "acme")
	if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "This setup code is wrong. Copy the code the hub printed when it started") {
		t.Fatalf("a wrong code: %d %s", res.status, res.body)
	}
	if !strings.Contains(res.body, `value="ann@example.com"`) || !strings.Contains(res.body, `value="acme"`) {
		t.Errorf("a wrong code does not keep what was typed: %s", res.body)
	}
	if any, err := tc.db.HasUsers(context.Background()); err != nil || any {
		t.Fatalf("a wrong code made a user (%v, %v)", any, err)
	}

	typed := strings.ToLower(strings.ReplaceAll(setupCode, "-", " "))
	res = b.setUp(typed, "Ann@Example.com", janePassword, "acme")
	if res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path {
		t.Fatalf("setting up: %d %s %s", res.status, res.header.Get("Location"), res.body)
	}
	home := b.get(console.Path)
	if home.status != http.StatusOK || !strings.Contains(home.body, "Forms of workspace acme") {
		t.Fatalf("after setup, the home page: %d %s", home.status, home.body)
	}
	// An empty workspace's home starts with the form to make, before its
	// usage, all zeros.
	if first, usage := strings.Index(home.body, `id="no-forms"`), strings.Index(home.body, `id="usage"`); first < 0 || usage < first {
		t.Errorf("the empty home offers its first form at %d, after its usage at %d", first, usage)
	}
	ms, err := tc.db.Memberships(context.Background(), "ann@example.com")
	if err != nil || len(ms) != 1 || ms[0].Workspace != "acme" || ms[0].Role != accounts.Admin {
		t.Errorf("after setup, the admin's memberships: %+v %v", ms, err)
	}
	events, err := tc.db.Events(context.Background(), "acme", "", 10)
	if err != nil || !hasEvent(events, accounts.ActionSetUp) {
		t.Errorf("the audit log of acme after setup: %+v %v", events, err)
	}

	// Gone: for the admin, for someone else, and with the code again.
	other := tc.browser()
	for _, b := range []*browser{b, other} {
		if res := b.get(console.SetupPath); res.status != http.StatusNotFound {
			t.Errorf("the setup page once the hub has a user: %d", res.status)
		}
	}
	if res := other.setUp(setupCode, "eve@example.com", janePassword, "eve"); res.status != http.StatusNotFound {
		t.Errorf("the code used again: %d %s", res.status, res.body)
	}
	if _, err := tc.db.User(context.Background(), "eve@example.com"); err == nil {
		t.Error("the code used again made a user")
	}
	if signIn := other.get(console.SignInPath); strings.Contains(signIn.body, "/console/setup") {
		t.Errorf("the sign-in page offers setup once the hub has a user: %s", signIn.body)
	}
}

func hasEvent(events []accounts.Event, action string) bool {
	for _, e := range events {
		if e.Action == action {
			return true
		}
	}
	return false
}

// TestSetupNeedsAHubWithoutUsers: a hub that has a user, or was given no
// code, answers 404 to the setup page and its post, whatever the code.
func TestSetupNeedsAHubWithoutUsers(t *testing.T) {
	withUser := newConsole(t, func(cfg *console.Config) {
		cfg.Setup = &console.Setup{Code: setupCode, Store: storeOf(cfg)}
	})
	withoutCode := newSetupConsole(t, func(cfg *console.Config) { cfg.Setup = nil })
	for name, tc := range map[string]*testConsole{"a hub with a user": withUser, "a hub without a code": withoutCode} {
		b := tc.browser()
		if res := b.get(console.SetupPath); res.status != http.StatusNotFound {
			t.Errorf("%s: the setup page answers %d", name, res.status)
		}
		if res := b.setUp(setupCode, "eve@example.com", janePassword, "eve"); res.status != http.StatusNotFound {
			t.Errorf("%s: the setup post answers %d %s", name, res.status, res.body)
		}
		if _, err := tc.db.User(context.Background(), "eve@example.com"); err == nil {
			t.Errorf("%s: the setup post made a user", name)
		}
	}
}

// storeOf is the database a test console's configuration reads users from.
func storeOf(cfg *console.Config) *sqldb.DB { return cfg.Users.(*sqldb.DB) }

// TestSetupGuessesLimited: a client's attempts are counted before the code
// is compared, as sign-ins are: over the limit even the right code waits.
func TestSetupGuessesLimited(t *testing.T) {
	tc := newSetupConsole(t, func(cfg *console.Config) { cfg.AddressLimit = 3 })
	b := tc.browser()
	for range 3 {
		if res := b.setUp("AAAA", "ann@example.com", janePassword, "acme"); res.status != http.StatusUnprocessableEntity {
			t.Fatalf("a wrong code: %d", res.status)
		}
	}
	res := b.setUp(setupCode, "ann@example.com", janePassword, "acme")
	if res.status != http.StatusTooManyRequests || !strings.Contains(res.body, "Too many attempts") {
		t.Fatalf("the right code over the limit: %d %s", res.status, res.body)
	}
	if any, _ := tc.db.HasUsers(context.Background()); any {
		t.Error("the right code over the limit made a user")
	}
}

// TestNewSetupCode: codes are 20 characters of Crockford's base 32 in
// groups of four, 100 bits, and differ.
func TestNewSetupCode(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$`)
	seen := map[string]bool{}
	for range 100 {
		c := console.NewSetupCode()
		if !shape.MatchString(c) || seen[c] {
			t.Fatalf("setup code %q (seen before: %v)", c, seen[c])
		}
		seen[c] = true
	}
}

// TestSignInShowsTheMark: the sign-in page, like every page of people not
// signed in, shows the product's mark and name above its form.
func TestSignInShowsTheMark(t *testing.T) {
	tc := newConsole(t, nil)
	page := tc.browser().get(console.SignInPath)
	mark := regexp.MustCompile(`<header class="console-brandmark"><img src="/console/static/favicon\.svg[^"]*" alt="" width="32" height="32"> ?<span>hubform</span></header>`)
	if !mark.MatchString(page.body) {
		t.Errorf("the sign-in page has no mark and name: %s", page.body)
	}
}

// TestCreateFirstAdmin: on either database, the first admin joins a
// workspace that exists (the default one, which holds the forms
// directory's sites) or one created for them; a second call, once a user
// exists, makes neither the user nor the workspace.
func TestCreateFirstAdmin(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		ctx, now := context.Background(), time.Now()
		if any, err := db.HasUsers(ctx); err != nil || any {
			t.Fatalf("a fresh database has users: %v %v", any, err)
		}
		if err := db.CreateFirstAdmin(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "x"}, accounts.DefaultWorkspace, now); err != nil {
			t.Fatal(err)
		}
		if any, err := db.HasUsers(ctx); err != nil || !any {
			t.Fatalf("after the first admin, users: %v %v", any, err)
		}
		ms, err := db.Memberships(ctx, "ann@example.com")
		if err != nil || len(ms) != 1 || ms[0].Workspace != accounts.DefaultWorkspace || ms[0].Role != accounts.Admin {
			t.Errorf("the first admin's memberships: %+v %v", ms, err)
		}
		if u, err := db.User(ctx, "ann@example.com"); err != nil || u.ProvedAt.IsZero() {
			t.Errorf("the first admin: %+v %v, want a proved address", u, err)
		}
		err = db.CreateFirstAdmin(ctx, accounts.User{Email: "eve@example.com", PasswordHash: "x"}, "eve", now)
		if !errors.Is(err, accounts.ErrExists) {
			t.Errorf("a second first admin: %v, want accounts.ErrExists", err)
		}
		if _, err := db.User(ctx, "eve@example.com"); err == nil {
			t.Error("a second first admin was made")
		}
		if _, err := db.Workspace(ctx, "eve"); err == nil {
			t.Error("a second first admin's workspace was made")
		}
	})
}
