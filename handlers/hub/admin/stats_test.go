package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// statsForm has three steps, the second without a title.
const statsForm = `{"title":"Survey","fields":[{"name":"name","type":"text"},{"name":"email","type":"email"},{"name":"ok","type":"checkbox"}],
"steps":[{"id":"about","title":"About you","fields":["name"]},{"id":"details","fields":["email"]},{"id":"confirm","title":"Confirm","fields":["ok"]}]}`

// statsServer serves the API on db, with a Funnel unless noFunnel, on
// 2026-11-27 at 10:00 UTC.
func statsServer(t *testing.T, db *sqldb.DB, noFunnel bool) *httptest.Server {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := admin.Config{Tokens: db, Sites: db, Audit: db, Logger: logger, Funnel: db,
		Inbox: &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Files: &memFiles{files: map[string][]byte{}}, Logger: logger},
		Now:   func() time.Time { return time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC) }}
	if noFunnel {
		cfg.Funnel = nil
	}
	api, err := admin.New(withServices(db, cfg, nil))
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv
}

// TestFormStats answers a form's funnel over days in UTC, by default the
// last 30 ending today, its submissions and spam of those days, to a
// token that reads submissions; it refuses bad periods, another
// workspace's form and a token of scope forms.
func TestFormStats(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	newToken := func(name, workspace string, scope accounts.Scope) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: workspace, Scope: scope}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	reader := newToken("reader", accounts.DefaultWorkspace, accounts.ScopeSubmissionsRead)
	forms := newToken("forms", accounts.DefaultWorkspace, accounts.ScopeForms)
	if err := db.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "other", "ann@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	theirs := newToken("theirs", "other", accounts.ScopeAll)
	for site, ws := range map[string]string{"acme": accounts.DefaultWorkspace, "rivals": "other"} {
		if _, err := db.ClaimSite(ctx, site, ws, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveFormVersion(ctx, site, "survey", []byte(statsForm), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := db.PublishFormVersion(ctx, site, "survey", 1, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SaveFormVersion(ctx, "acme", "unpublished", []byte(statsForm), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	count := func(site string, daysAgo int, event, step string, n int64) hub.FunnelCount {
		return hub.FunnelCount{Site: site, Slug: "survey", Day: today.AddDate(0, 0, -daysAgo), Event: event, Step: step, N: n}
	}
	if err := db.AddFunnelCounts(ctx, []hub.FunnelCount{
		count("acme", 0, "view", "", 60), count("acme", 6, "view", "", 40), count("acme", 0, "start", "", 40),
		count("acme", 0, "step", "details", 25), count("acme", 0, "step", "confirm", 20),
		count("acme", 7, "view", "", 30), count("acme", 29, "view", "", 70), count("acme", 20, "start", "", 60),
		count("acme", 20, "step", "details", 35), count("acme", 20, "step", "confirm", 20),
		count("acme", 30, "view", "", 5000), count("acme", -1, "view", "", 7000),
		count("rivals", 0, "view", "", 999),
	}); err != nil {
		t.Fatal(err)
	}
	submit := func(site string, created time.Time, spam bool) {
		t.Helper()
		s := hub.Submission{ID: hub.NewID(created), Site: site, Slug: "survey", CreatedAt: created, FormVersion: 1,
			Payload: json.RawMessage(`{"name":"x"}`), Attachments: []hubclient.Attachment{}}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
		if spam {
			if _, err := db.SetSpam(ctx, site, "survey", []string{s.ID}, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 10 {
		submit("acme", today.Add(time.Duration(i)*time.Minute), false)
	}
	for range 5 {
		submit("acme", today.AddDate(0, 0, -20), false)
	}
	submit("acme", today.AddDate(0, 0, -30), false)
	submit("acme", today.Add(time.Hour), true)
	submit("acme", today.AddDate(0, 0, -8), true)
	submit("rivals", today, false)

	srv := statsServer(t, db, false)
	get := func(secret, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+admin.Prefix+path, nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	stats := func(secret, query string) admin.FormStats {
		t.Helper()
		status, body := get(secret, "/forms/acme/survey/stats"+query)
		var st admin.FormStats
		if err := json.Unmarshal([]byte(body), &st); status != http.StatusOK || err != nil || !st.OK {
			t.Fatalf("stats%s: %d %s", query, status, body)
		}
		return st
	}
	steps := func(about, details, confirm int64) []admin.StepStats {
		return []admin.StepStats{{ID: "about", Title: "About you", Reached: about}, {ID: "details", Title: "", Reached: details}, {ID: "confirm", Title: "Confirm", Reached: confirm}}
	}

	for _, tt := range []struct {
		query string
		want  admin.FormStats
	}{
		// The last 30 days by default.
		{"", admin.FormStats{OK: true, From: "2026-10-29", To: "2026-11-27", Views: 200, Starts: 100, Steps: steps(100, 60, 40),
			Submissions: 15, Spam: 2, CompletionRate: 0.075}},
		{"?from=2026-11-21&to=2026-11-27", admin.FormStats{OK: true, From: "2026-11-21", To: "2026-11-27", Views: 100, Starts: 40, Steps: steps(40, 25, 20),
			Submissions: 10, Spam: 1, CompletionRate: 0.1}},
		// One day, both dates included.
		{"?from=2026-11-07&to=2026-11-07", admin.FormStats{OK: true, From: "2026-11-07", To: "2026-11-07", Starts: 60, Steps: steps(60, 35, 20),
			Submissions: 5}},
		// to alone: the 30 days that end then; from alone: to today.
		{"?to=2026-11-20", admin.FormStats{OK: true, From: "2026-10-22", To: "2026-11-20", Views: 5100, Starts: 60, Steps: steps(60, 35, 20),
			Submissions: 6, Spam: 1, CompletionRate: 6.0 / 5100}},
		{"?from=2026-11-27", admin.FormStats{OK: true, From: "2026-11-27", To: "2026-11-27", Views: 60, Starts: 40, Steps: steps(40, 25, 20),
			Submissions: 10, Spam: 1, CompletionRate: 10.0 / 60}},
		// 366 days, the most.
		{"?from=2025-11-28&to=2026-11-28", admin.FormStats{OK: true, From: "2025-11-28", To: "2026-11-28", Views: 12200, Starts: 100, Steps: steps(100, 60, 40),
			Submissions: 16, Spam: 2, CompletionRate: 16.0 / 12200}},
	} {
		if got := stats(reader, tt.query); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("stats%s:\n got %+v\nwant %+v", tt.query, got, tt.want)
		}
	}
	// The JSON's names, steps as an array when empty too.
	if status, body := get(token, "/forms/acme/survey/stats?from=2026-11-27&to=2026-11-27"); status != http.StatusOK || body != `{"ok":true,"from":"2026-11-27","to":"2026-11-27","views":60,"starts":40,`+
		`"steps":[{"id":"about","title":"About you","reached":40},{"id":"details","title":"","reached":25},{"id":"confirm","title":"Confirm","reached":20}],`+
		`"submissions":10,"spam":1,"completionRate":0.16666666666666666}`+"\n" {
		t.Errorf("the JSON: %d %s", status, body)
	}

	for _, tt := range []struct {
		secret, path string
		want         int
		message      string
	}{
		{reader, "/forms/acme/survey/stats?from=yesterday", http.StatusBadRequest, `from \"yesterday\": want a date such as`},
		{reader, "/forms/acme/survey/stats?to=2026-11-31", http.StatusBadRequest, `to \"2026-11-31\": want a date such as`},
		{reader, "/forms/acme/survey/stats?from=2026-11-28", http.StatusBadRequest, "from 2026-11-28 is after to 2026-11-27"},
		{reader, "/forms/acme/survey/stats?from=2026-11-02&to=2026-11-01", http.StatusBadRequest, "from 2026-11-02 is after to 2026-11-01"},
		{reader, "/forms/acme/survey/stats?from=2025-11-26&to=2026-11-27", http.StatusBadRequest, "is 367 days: ask for at most 366"},
		{reader, "/forms/acme/nothing/stats", http.StatusNotFound, "no such form"},
		{reader, "/forms/acme/unpublished/stats", http.StatusNotFound, "no such form"},
		// Another workspace's form, whatever the token's scope; a scope
		// that does not read submissions.
		{reader, "/forms/rivals/survey/stats", http.StatusNotFound, "no such form"},
		{token, "/forms/rivals/survey/stats", http.StatusNotFound, "no such form"},
		{theirs, "/forms/acme/survey/stats", http.StatusNotFound, "no such form"},
		{forms, "/forms/acme/survey/stats", http.StatusForbidden, "has the scope forms, and this needs submissions:read"},
	} {
		status, body := get(tt.secret, tt.path)
		if status != tt.want || !strings.Contains(body, `"ok":false`) || !strings.Contains(body, tt.message) {
			t.Errorf("GET %s: %d %s, want %d with %q", tt.path, status, body, tt.want, tt.message)
		}
		if strings.Contains(body, "views") || strings.Contains(body, "999") {
			t.Errorf("GET %s answers counts: %s", tt.path, body)
		}
	}
	// The other workspace's token reads its own form.
	if status, body := get(theirs, "/forms/rivals/survey/stats"); status != http.StatusOK || !strings.Contains(body, `"views":999`) {
		t.Errorf("the other workspace's own form: %d %s", status, body)
	}
}

// TestFormStatsWithoutFunnel answers 404 when the hub counts no funnel, as
// the events route does, after the same checks of the token.
func TestFormStatsWithoutFunnel(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	if _, err := db.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveFormVersion(ctx, "acme", "survey", []byte(statsForm), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "acme", "survey", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	srv := statsServer(t, db, true)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+admin.Prefix+"/forms/acme/survey/stats", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "counts no funnel") {
		t.Errorf("stats without a Funnel: %d %s, want 404", res.StatusCode, b)
	}
}
