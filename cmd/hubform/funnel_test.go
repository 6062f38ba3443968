package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
)

// TestFunnelReachesTheOwner counts a form's funnel where it is shown, in a
// Go app and on the hub's own page, and reads it as its owner does,
// through the admin API, with the hub's submissions.
func TestFunnelReachesTheOwner(t *testing.T) {
	t.Parallel()
	forms := t.TempDir()
	os.MkdirAll(filepath.Join(forms, "acme"), 0o755)
	form := `{"title": "Trip", "fields": [{"name": "name", "type": "text", "label": "Name"}, {"name": "city", "type": "text", "label": "City"}],
		"steps": [{"id": "who", "title": "Who", "fields": ["name"]}, {"id": "where", "title": "Where", "fields": ["city"]}]}`
	if err := os.WriteFile(filepath.Join(forms, "acme", "trip.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	h := serveInProcess(t, hubserver.Config{Data: t.TempDir(), Forms: forms})
	base, _ := url.Parse(h.URL)
	base.Path = ""

	// A Go app shows the form three times; two visitors start, one
	// reaches the second step.
	app := handlers.New(handlers.Config{HubURL: h.URL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), CountInterval: time.Hour})
	srv := httptest.NewServer(app)
	defer srv.Close()
	for range 3 {
		app.Props(context.Background(), "acme", "trip", "")
	}
	for _, v := range []url.Values{{"event": {"start"}}, {"event": {"start"}}, {"event": {"step"}, "step": {"where"}}} {
		res, err := http.PostForm(srv.URL+"/hubform/acme/trip/event", v)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	app.Close(context.Background())
	// The hub's own page is shown once; one visitor sends the form.
	res, err := http.Get(base.String() + "/f/acme/trip")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if _, err := (&hubclient.Client{HubURL: h.URL}).Submit(context.Background(), "acme", "trip", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Ada", "city": "Oslo"}}); err != nil {
		t.Fatal(err)
	}
	if err := h.Funnel.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	token := accounts.NewToken()
	if err := h.DB.CreateToken(context.Background(), accounts.Token{Name: "charts", Hash: accounts.HashToken(token), CreatedAt: time.Now(),
		Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeSubmissionsRead}); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, base.String()+"/v1/admin/forms/acme/trip/stats", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var stats struct {
		Views, Starts, Submissions int64
		Steps                      []struct {
			ID      string
			Reached int64
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&stats); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("stats: %d %v", res.StatusCode, err)
	}
	if stats.Views != 4 || stats.Starts != 2 || stats.Submissions != 1 || len(stats.Steps) != 2 || stats.Steps[0].Reached != 2 || stats.Steps[1].Reached != 1 {
		t.Errorf("stats %+v, want 4 views, 2 starts, steps who 2 and where 1, 1 submission", stats)
	}
}
