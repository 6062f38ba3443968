package main

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/hubclient"
)

// countsHub is a hub process serving acme/trip, a form of two steps of the
// default workspace, with a rate limit of countsRate a minute per client,
// and a second workspace, other, with a site of its own.
type countsHub struct {
	*hubserver.Hub
	where []string
}

const countsRate = 5

// tripForm has two steps.
const tripForm = `{"title": "Trip", "fields": [{"name": "name", "type": "text", "label": "Name"}, {"name": "city", "type": "text", "label": "City"}],
	"steps": [{"id": "who", "title": "Who", "fields": ["name"]}, {"id": "where", "title": "Where", "fields": ["city"]}]}`

func startCountsHub(t *testing.T, dbURL string) *countsHub {
	t.Helper()
	ctx := context.Background()
	forms := t.TempDir()
	os.MkdirAll(filepath.Join(forms, "acme"), 0o755)
	if err := os.WriteFile(filepath.Join(forms, "acme", "trip.json"), []byte(tripForm), 0o644); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	h := &countsHub{Hub: serveInProcess(t, hubserver.Config{Data: data, DB: dbURL, Forms: forms, RateLimit: countsRate}), where: []string{"--data", data}}
	if dbURL != "" {
		h.where = append(h.where, "--db", dbURL)
	}
	if err := h.DB.CreateUser(ctx, accounts.User{Email: "owner@other.example", PasswordHash: "x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := h.DB.CreateWorkspace(ctx, "other", "owner@other.example", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.DB.ClaimSite(ctx, "theirs", "other", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.DB.SaveFormVersion(ctx, "theirs", "trip", []byte(tripForm), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "theirs", "trip", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	return h
}

// funnel returns the counts of acme/trip the hub stored, by
// "event step".
func (h *countsHub) funnel(t *testing.T) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	if err := h.Hub.Funnel.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	counts, err := h.DB.FunnelCounts(ctx, "acme", "trip", now.Add(-48*time.Hour), now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, c := range counts {
		out[strings.TrimSpace(c.Event+" "+c.Step)] += c.N
	}
	return out
}

// token makes an API token with hubform tokens create.
func (h *countsHub) token(t *testing.T, workspace, name, scope string) string {
	t.Helper()
	status, stdout, stderr := hubform(t, append([]string{"tokens", "create", "--workspace", workspace, "--name", name, "--scope", scope}, h.where...)...)
	if status != 0 {
		t.Fatalf("tokens create --scope %s: %d %s", scope, status, stderr)
	}
	return strings.TrimSpace(stdout)
}

// answerStatus returns the status of the hub's answer err carries, 200
// for none.
func answerStatus(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return http.StatusOK
	}
	var hubErr *hubclient.HubError
	if !errors.As(err, &hubErr) {
		t.Fatalf("no answer from the hub: %v", err)
	}
	return hubErr.StatusCode
}

// TestAnonymousClientCannotInflateTheFunnel is a stranger posting huge
// counts to a form's events route, on SQLite and PostgreSQL (whose hub
// counts each client's rate in the database): each post is refused, the
// funnel grows only by what one client could have caused, at most
// hubclient.MaxAnonymousCount of each event a post, and the client's
// posts are refused 429 beyond the hub's rate, while its submissions,
// counted apart, still go through.
func TestAnonymousClientCannotInflateTheFunnel(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); anonymousCannotInflate(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); anonymousCannotInflate(t, pgtest.URL(t)) })
}

func anonymousCannotInflate(t *testing.T, dbURL string) {
	h := startCountsHub(t, dbURL)
	ctx := context.Background()
	client := &hubclient.Client{HubURL: h.URL}
	send := func(counts ...hubclient.EventCount) int {
		t.Helper()
		return answerStatus(t, client.SendEvents(ctx, "acme", "trip", counts))
	}
	// Two visitors saw the form.
	if got := send(hubclient.EventCount{Event: hubclient.EventView, N: 2}); got != http.StatusOK {
		t.Fatalf("two views: %d", got)
	}
	// The attack: three posts of twenty million views each, and each
	// event at one over the bound.
	huge := slices.Repeat([]hubclient.EventCount{{Event: hubclient.EventView, N: 100_000}}, 200)
	for range 2 {
		if got := send(huge...); got != http.StatusBadRequest {
			t.Errorf("twenty million views without a token: %d, want 400", got)
		}
	}
	split := slices.Repeat([]hubclient.EventCount{{Event: hubclient.EventStep, Step: "where", N: 1}}, hubclient.MaxAnonymousCount+1)
	if got := send(split...); got != http.StatusBadRequest {
		t.Errorf("%d steps in counts of 1: %d, want 400", len(split), got)
	}
	if got := h.funnel(t); got["view"] != 2 || len(got) != 1 {
		t.Fatalf("after the attack the funnel is %v, want 2 views", got)
	}
	// What one visitor could have caused is taken.
	if got := send(hubclient.EventCount{Event: hubclient.EventView, N: hubclient.MaxAnonymousCount},
		hubclient.EventCount{Event: hubclient.EventStart, N: 1}, hubclient.EventCount{Event: hubclient.EventStep, Step: "where", N: 1}); got != http.StatusOK {
		t.Fatalf("a visitor's counts: %d", got)
	}
	// The client spent its budget: 5 posts a minute, refused ones too.
	if got := send(hubclient.EventCount{Event: hubclient.EventView, N: 1}); got != http.StatusTooManyRequests {
		t.Errorf("post %d of a minute: %d, want 429", countsRate+1, got)
	}
	// A bad token does not get round the budget.
	bad := &hubclient.Client{HubURL: h.URL}
	if got := answerStatus(t, bad.SendEventsWithToken(ctx, "acme", "trip", accounts.NewToken(), huge)); got != http.StatusTooManyRequests {
		t.Errorf("a made-up token past the budget: %d, want 429", got)
	}
	want := map[string]int64{"view": 2 + hubclient.MaxAnonymousCount, "start": 1, "step where": 1}
	if got := h.funnel(t); !maps.Equal(got, want) {
		t.Errorf("the funnel is %v, want %v", got, want)
	}
	// The client's submissions have a budget of their own.
	if _, err := client.Submit(ctx, "acme", "trip", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Ada"}}); err != nil {
		t.Errorf("a submission once counts are refused: %v", err)
	}
}

// TestAppTokenAggregatesCounts is an app that aggregates its visitors'
// counts and sends them with a token of scope counts:write of the form's
// workspace, on SQLite and PostgreSQL: the hub takes large counts, beyond
// the rate of one client; a token of another workspace cannot add to the
// form (404, as for a form that does not exist), nor one of another scope
// (403), nor one the hub does not know (401).
func TestAppTokenAggregatesCounts(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); appTokenAggregates(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); appTokenAggregates(t, pgtest.URL(t)) })
}

func appTokenAggregates(t *testing.T, dbURL string) {
	h := startCountsHub(t, dbURL)
	ctx := context.Background()
	app := h.token(t, "default", "shop-app", string(accounts.ScopeCounts))
	client := &hubclient.Client{HubURL: h.URL}
	send := func(token string, counts ...hubclient.EventCount) int {
		t.Helper()
		return answerStatus(t, client.SendEventsWithToken(ctx, "acme", "trip", token, counts))
	}
	for range countsRate + 2 {
		if got := send(app, hubclient.EventCount{Event: hubclient.EventView, N: 40_000}, hubclient.EventCount{Event: hubclient.EventStart, N: 900},
			hubclient.EventCount{Event: hubclient.EventStep, Step: "where", N: 300}); got != http.StatusOK {
			t.Fatalf("an app's counts with its token: %d", got)
		}
	}
	want := map[string]int64{"view": 7 * 40_000, "start": 7 * 900, "step where": 7 * 300}
	if got := h.funnel(t); !maps.Equal(got, want) {
		t.Fatalf("the funnel is %v, want %v", got, want)
	}

	theirs := h.token(t, "other", "their-app", string(accounts.ScopeCounts))
	reader := h.token(t, "default", "reader", string(accounts.ScopeSubmissionsRead))
	for _, tt := range []struct {
		name, token string
		want        int
	}{
		{"a token of another workspace", theirs, http.StatusNotFound},
		{"a token of scope submissions:read", reader, http.StatusForbidden},
		{"a token the hub does not know", accounts.NewToken(), http.StatusUnauthorized},
	} {
		if got := send(tt.token, hubclient.EventCount{Event: hubclient.EventView, N: 50_000}); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
	// Their token counts their own form, and ours is theirs' 404.
	if got := answerStatus(t, client.SendEventsWithToken(ctx, "theirs", "trip", theirs, []hubclient.EventCount{{Event: hubclient.EventView, N: 50_000}})); got != http.StatusOK {
		t.Errorf("their token on their form: %d", got)
	}
	if got := answerStatus(t, client.SendEventsWithToken(ctx, "theirs", "trip", app, []hubclient.EventCount{{Event: hubclient.EventView, N: 50_000}})); got != http.StatusNotFound {
		t.Errorf("our token on their form: %d, want 404", got)
	}
	if got := h.funnel(t); !maps.Equal(got, want) {
		t.Errorf("after the refused tokens the funnel is %v, want %v", got, want)
	}
}
