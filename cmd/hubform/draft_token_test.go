package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/hubclient"
)

// TestDraftTokenRetiredBySave is the attack of someone who saves a draft
// with another's address, on a hub process with Mailpit: the hub mails the
// victim a real link, and the victim saves through it what they enter.
// The save answers a new token and retires the ones before it: the
// attacker's first token reads nothing and saves nothing, and neither does
// the link's; the newest reads what the victim saved. On SQLite and
// PostgreSQL.
func TestDraftTokenRetiredBySave(t *testing.T) {
	mp := mailpittest.Start(t)
	t.Run("sqlite", func(t *testing.T) { retireDraftToken(t, mp, "sqlite", "") })
	t.Run("postgres", func(t *testing.T) { retireDraftToken(t, mp, "postgres", pgtest.URL(t)) })
}

func retireDraftToken(t *testing.T, mp *mailpittest.Server, name, dbURL string) {
	ctx := context.Background()
	extra := []string{"--smtp-url", mp.URL(), "--smtp-from", "forms@example.com"}
	if dbURL != "" {
		extra = append(extra, "--db", dbURL)
	}
	p := startHub(t, formsWith(t, "voyage", voyageForm), t.TempDir(), extra...)
	page := strings.TrimSuffix(p.url, "/v1") + "/f/acme/voyage"
	client := &hubclient.Client{HubURL: p.url}
	victim := "victim-" + name + "@example.com"

	// The attacker saves a draft with the victim's address.
	first, err := client.SaveDraft(ctx, "acme", "voyage", hubclient.DraftRequest{Payload: map[string]any{"name": "Bait"}, Email: victim, ResumeURL: page})
	if err != nil || !first.Mailed {
		t.Fatalf("the attacker's save: %+v, %v; want the link mailed", first, err)
	}
	link, err := url.Parse(linkTo(t, mp, victim))
	if err != nil {
		t.Fatal(err)
	}
	mailed := link.Query().Get("draft")
	if mailed == "" || mailed == first.Token {
		t.Fatalf("the link %s carries no token of its own", link)
	}

	// The victim opens the link and saves what they enter.
	if d, err := client.Draft(ctx, "acme", "voyage", mailed); err != nil || d.Payload["name"] != "Bait" {
		t.Fatalf("the link's draft: %+v, %v", d, err)
	}
	saved, err := client.SaveDraft(ctx, "acme", "voyage", hubclient.DraftRequest{Token: mailed, Payload: map[string]any{"name": "Victim Secret", "city": "Oslo"}, Step: "where"})
	if err != nil {
		t.Fatalf("the victim's save: %v", err)
	}
	if saved.Token == mailed || saved.Token == first.Token {
		t.Fatal("the victim's save answered a token handed out before")
	}

	// The tokens before the save read nothing, and save nothing.
	for who, token := range map[string]string{"the attacker's first token": first.Token, "the link's token": mailed} {
		if d, err := client.Draft(ctx, "acme", "voyage", token); !hubclient.NoDraft(err) {
			t.Errorf("%s after the victim's save reads %+v, %v; want 404", who, d, err)
		}
		if _, err := client.SaveDraft(ctx, "acme", "voyage", hubclient.DraftRequest{Token: token, Payload: map[string]any{"name": "Overwritten"}}); !hubclient.NoDraft(err) {
			t.Errorf("%s after the victim's save saves: %v; want 404", who, err)
		}
	}
	d, err := client.Draft(ctx, "acme", "voyage", saved.Token)
	if err != nil || d.Payload["name"] != "Victim Secret" || d.Payload["city"] != "Oslo" || d.Step != "where" {
		t.Errorf("the victim's token reads %+v, %v; want what they saved", d, err)
	}
}
