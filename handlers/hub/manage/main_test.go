package manage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

// TestMain stops the PostgreSQL server that pgtest may start.
func TestMain(m *testing.M) { pgtest.Main(m) }

// The people and things of the tests' database (see onEachStoreWithAccounts).
const (
	acmeAdmin  = "ann@example.com"
	acmeEditor = "ed@example.com"
	acmeViewer = "vic@example.com"
	rivalAdmin = "rita@example.com"
	acmeToken  = "acme-ci"
	rivalToken = "rival-ci"
	// acmeInvitation is the secret of the link of an invitation of
	// invitee to acme, as an editor.
	acmeInvitation = "acme-invitation-secret"
	invitee        = "newcomer@example.com"
)

// onEachStoreWithAccounts runs test as a subtest on a fresh SQLite database and on a
// fresh PostgreSQL one (skipped without PostgreSQL, see pgtest), each
// holding the workspaces acme and rival: acme has an admin, an editor and
// a viewer, the site acme.example and a token; rival has an admin, the
// site rival.example and a token.
func onEachStoreWithAccounts(t *testing.T, test func(t *testing.T, db *sqldb.DB)) {
	open := map[string]func(t *testing.T) *sqldb.DB{
		"sqlite": func(t *testing.T) *sqldb.DB {
			db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
			if err != nil {
				t.Fatal(err)
			}
			return db
		},
		"postgres": func(t *testing.T) *sqldb.DB {
			db, err := postgres.Open(context.Background(), pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			return db
		},
	}
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			db := open[name](t)
			t.Cleanup(func() { db.Close() })
			fill(t, db)
			test(t, db)
		})
	}
}

func fill(t *testing.T, db *sqldb.DB) {
	t.Helper()
	ctx, now := context.Background(), time.Now()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, email := range []string{acmeAdmin, acmeEditor, acmeViewer, rivalAdmin} {
		must(db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: "$argon2id$x", CreatedAt: now, ProvedAt: now}))
	}
	must(db.CreateWorkspace(ctx, "acme", acmeAdmin, now))
	must(db.CreateWorkspace(ctx, "rival", rivalAdmin, now))
	must(db.SetMember(ctx, accounts.Member{Workspace: "acme", Email: acmeEditor, Role: accounts.Editor, CreatedAt: now}))
	must(db.SetMember(ctx, accounts.Member{Workspace: "acme", Email: acmeViewer, Role: accounts.Viewer, CreatedAt: now}))
	for site, ws := range map[string]string{"acme.example": "acme", "rival.example": "rival"} {
		if _, err := db.ClaimSite(ctx, site, ws, now); err != nil {
			t.Fatal(err)
		}
	}
	must(db.CreateToken(ctx, accounts.Token{Name: acmeToken, Hash: "h1", Workspace: "acme", Scope: accounts.ScopeAll, CreatedAt: now}))
	must(db.CreateInvitation(ctx, accounts.HashToken(acmeInvitation), accounts.Invitation{Workspace: "acme", Email: invitee,
		Role: accounts.Editor, InvitedBy: acmeAdmin, CreatedAt: now, ExpiresAt: now.Add(accounts.InvitationTTL)}))
	must(db.CreateToken(ctx, accounts.Token{Name: rivalToken, Hash: "h2", Workspace: "rival", Scope: accounts.ScopeAll, CreatedAt: now}))
}

// memberOf returns the actor of the member of email in workspace ws, as the
// console makes it.
func memberOf(t *testing.T, db *sqldb.DB, ws, email string) Actor {
	t.Helper()
	ms, err := db.Memberships(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Workspace == ws {
			return Member(m, "192.0.2.1")
		}
	}
	t.Fatalf("%s is no member of %s", email, ws)
	return Actor{}
}

// events returns the actions of a workspace's audit log, oldest first.
func events(t *testing.T, db *sqldb.DB, ws string) []accounts.Event {
	t.Helper()
	es, err := db.Events(context.Background(), ws, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

// config is the services' configuration on db.
func config(db *sqldb.DB) Config { return Config{Sites: db, Audit: db} }
