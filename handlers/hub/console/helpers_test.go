package console_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

const (
	janeEmail    = "jane@example.com"
	janePassword = "correct horse battery"
)

// testConsole is a console on a fresh SQLite database, served over HTTP.
type testConsole struct {
	t   *testing.T
	db  *sqldb.DB
	srv *httptest.Server
}

// newConsole serves a console whose database holds the user Jane; change
// adjusts the configuration.
func newConsole(t *testing.T, change func(*console.Config)) *testConsole {
	t.Helper()
	return newConsoleOn(t, openSQLite(t), change)
}

// openSQLite opens a fresh SQLite database, closed when t ends.
func openSQLite(t *testing.T) *sqldb.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openPostgres opens a fresh PostgreSQL database, closed when t ends; t
// is skipped without PostgreSQL (see pgtest).
func openPostgres(t *testing.T) *sqldb.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// onEachStore runs test as a subtest on SQLite and on PostgreSQL.
func onEachStore(t *testing.T, test func(t *testing.T, db *sqldb.DB)) {
	for name, open := range map[string]func(*testing.T) *sqldb.DB{"sqlite": openSQLite, "postgres": openPostgres} {
		t.Run(name, func(t *testing.T) { test(t, open(t)) })
	}
}

// newConsoleOn serves a console on db, a fresh database, which it fills
// as newConsole does.
func newConsoleOn(t *testing.T, db *sqldb.DB, change func(*console.Config)) *testConsole {
	t.Helper()
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(context.Background(), accounts.User{Email: janeEmail, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// Jane is an admin of the default workspace, which owns the sites the
	// tests use.
	if err := db.SetMember(context.Background(), accounts.Member{Workspace: accounts.DefaultWorkspace, Email: janeEmail, Role: accounts.Admin, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"acme", "shop"} {
		if _, err := db.ClaimSite(context.Background(), site, accounts.DefaultWorkspace, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	cfg := console.Config{Users: db, Workspaces: db, Audit: db, Sessions: db.Sessions(), Limiter: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
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
	// A console with Secure cookies is served as it would be, over HTTPS.
	srv := httptest.NewUnstartedServer(e)
	if cfg.Secure {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return &testConsole{t: t, db: db, srv: srv}
}

// manageConfig is the configuration of the services of package manage on
// db, as hubform hub makes it: the database says who owns a site, whatever
// the console's Workspaces says.
func manageConfig(db *sqldb.DB, cfg *console.Config) manage.Config {
	return manage.Config{Sites: db, Audit: db, Logger: cfg.Logger, Now: cfg.Now}
}

// withServices gives cfg the services of package manage on db that its
// stores need and it does not have yet: Members, Invitations and Sites,
// FormChanges, Brands and Images with Store, SubmissionChanges with Inbox or Deliveries.
func withServices(db *sqldb.DB, cfg *console.Config) {
	mc := manageConfig(db, cfg)
	if cfg.Members == nil {
		cfg.Members = manage.NewMembers(mc, db)
	}
	if cfg.Invitations == nil {
		cfg.Invitations = manage.NewInvitations(mc, db)
	}
	if cfg.Sites == nil {
		cfg.Sites = manage.NewWorkspaces(mc, db)
	}
	if cfg.Store != nil && cfg.FormChanges == nil {
		cfg.FormChanges = manage.NewForms(mc, db)
	}
	if cfg.Store != nil && cfg.Brands == nil {
		cfg.Brands = manage.NewBrands(mc, db)
	}
	if cfg.Store != nil && cfg.Images == nil {
		cfg.Images = manage.NewImages(mc, db, pictureFiles{}, "https://hub.example")
	}
	if (cfg.Inbox != nil || cfg.Deliveries != nil) && cfg.SubmissionChanges == nil {
		var in manage.Inbox
		if cfg.Inbox != nil {
			in = cfg.Inbox
		}
		d, _ := cfg.Deliveries.(manage.Deliveries)
		cfg.SubmissionChanges = manage.NewSubmissions(mc, in, db, d)
	}
}

// browser is a client with cookies that does not follow redirects.
type browser struct {
	tc     *testConsole
	client *http.Client
}

func (tc *testConsole) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{tc: tc, client: &http.Client{Jar: jar, Transport: tc.srv.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, path string, form url.Values, header map[string]string) response {
	b.tc.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.tc.srv.URL+path, body)
	if err != nil {
		b.tc.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.tc.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, string(data)}
}

func (b *browser) get(path string) response { return b.do(http.MethodGet, path, nil, nil) }

// postFiles posts form and files, by input name, as multipart/form-data.
func (b *browser) postFiles(path string, form url.Values, files map[string][]byte) response {
	b.tc.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, vs := range form {
		for _, v := range vs {
			w.WriteField(k, v)
		}
	}
	for name, data := range files {
		part, err := w.CreateFormFile(name, name+".bin")
		if err != nil {
			b.tc.t.Fatal(err)
		}
		part.Write(data)
	}
	w.Close()
	req, err := http.NewRequest(http.MethodPost, b.tc.srv.URL+path, &body)
	if err != nil {
		b.tc.t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := b.client.Do(req)
	if err != nil {
		b.tc.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, string(data)}
}

var csrfInput = regexp.MustCompile(`name="_csrf" value="([^"]*)"`)

// csrf returns the CSRF token of the page at path.
func (b *browser) csrf(path string) string {
	b.tc.t.Helper()
	res := b.get(path)
	m := csrfInput.FindStringSubmatch(res.body)
	if m == nil || m[1] == "" {
		b.tc.t.Fatalf("GET %s: %d, no CSRF token in %q", path, res.status, res.body)
	}
	return m[1]
}

// signIn posts the sign-in form as a browser would, with the page's token.
func (b *browser) signIn(email, password string) response {
	b.tc.t.Helper()
	return b.signInFrom("", email, password)
}

// signInFrom signs in from a browser in the time zone tz, which console.js
// would send; "" is a browser without JavaScript.
func (b *browser) signInFrom(tz, email, password string) response {
	b.tc.t.Helper()
	token := b.csrf(console.SignInPath)
	return b.do(http.MethodPost, console.SignInPath, url.Values{"email": {email}, "password": {password}, "_csrf": {token}, "tz": {tz}}, nil)
}

// cookie returns the browser's cookie named name for the console, or "".
func (b *browser) cookie(name string) string {
	u, _ := url.Parse(b.tc.srv.URL + console.Path)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// setCookie returns the Set-Cookie header of res for the cookie name.
func setCookie(res response, name string) *http.Cookie {
	for _, line := range res.header.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == name {
			return c
		}
	}
	return nil
}

// mailConsole serves a console that sends its e-mail through a real SMTP
// server, Mailpit, whose links start with publicURL and whose passwords
// hash fast; change adjusts the configuration further.
func mailConsole(t *testing.T, change func(*console.Config)) (*testConsole, *mailpittest.Server) {
	t.Helper()
	mail := mailpittest.Start(t)
	mailer, err := delivery.NewSMTP(mail.URL(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tc := newConsole(t, func(cfg *console.Config) {
		cfg.Mailer, cfg.MailFrom, cfg.PublicURL = mailer, "hub@example.com", publicURL
		cfg.PasswordParams = accounts.Params{Memory: 64, Time: 1, Threads: 1}
		if change != nil {
			change(cfg)
		}
	})
	return tc, mail
}

// mailText waits for the first e-mail and returns its text.
func mailText(t *testing.T, mail *mailpittest.Server) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if msgs := mail.Messages(t); len(msgs) > 0 {
			return mail.Message(t, msgs[len(msgs)-1].ID).Text
		}
	}
	t.Fatal("no e-mail came")
	return ""
}
