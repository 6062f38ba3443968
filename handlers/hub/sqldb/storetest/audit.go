package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testAudit records events of two workspaces and of the hub, and reads
// each log back a page at a time, newest first.
func testAudit(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	var events []accounts.Event
	for i := range 5 {
		events = append(events, accounts.Event{Workspace: accounts.DefaultWorkspace, At: T0.Add(time.Duration(i) * time.Second),
			Actor: "ann@example.com", Action: accounts.ActionFormSaved, Target: "shop/order", Client: "192.0.2.1", Detail: "version " + string(rune('1'+i))})
	}
	events = append(events,
		accounts.Event{Workspace: "other", At: T0, Actor: "token ci", Action: accounts.ActionFormPublished, Target: "x/y"},
		accounts.Event{At: T0, Actor: "nobody@example.com", Action: accounts.ActionSignInFailed, Target: "nobody@example.com", Client: "198.51.100.7"})
	if err := a.RecordEvents(ctx, events...); err != nil {
		t.Fatal(err)
	}
	page, err := b.Events(ctx, accounts.DefaultWorkspace, "", 3)
	if err != nil || len(page) != 3 || page[0].Detail != "version 5" || page[2].Detail != "version 3" ||
		page[0].Actor != "ann@example.com" || page[0].Client != "192.0.2.1" || !page[0].At.Equal(T0.Add(4*time.Second)) {
		t.Fatalf("first page of default's log = %+v, %v", page, err)
	}
	rest, err := b.Events(ctx, accounts.DefaultWorkspace, page[2].ID, 3)
	if err != nil || len(rest) != 2 || rest[0].Detail != "version 2" || rest[1].Detail != "version 1" {
		t.Errorf("second page = %+v, %v", rest, err)
	}
	if other, err := b.Events(ctx, "other", "", 0); err != nil || len(other) != 1 || other[0].Actor != "token ci" {
		t.Errorf("other's log = %+v, %v", other, err)
	}
	if hub, err := b.Events(ctx, "", "", 0); err != nil || len(hub) != 1 || hub[0].Action != accounts.ActionSignInFailed || hub[0].Workspace != "" {
		t.Errorf("the hub's own log = %+v, %v", hub, err)
	}

	// The log outlives what it names: a user, their workspace membership.
	if err := a.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteUser(ctx, "ann@example.com"); err != nil {
		t.Fatal(err)
	}
	if page, err := b.Events(ctx, accounts.DefaultWorkspace, "", 0); err != nil || len(page) != 5 {
		t.Errorf("default's log after its actor was deleted: %d events, %v; want 5", len(page), err)
	}
}
