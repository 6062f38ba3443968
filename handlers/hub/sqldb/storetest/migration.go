package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// BeforeWorkspaces is the schema version of a hub without workspaces.
const BeforeWorkspaces = 7

// WorkspacesMigration fills old, a database at schema version
// BeforeWorkspaces, with the rows a hub of that version wrote: two users,
// a token, a form kept in the database and submissions to it and to a
// form of the forms directory. open then opens the same database, which
// migrates it, and everything must be in the workspace "default": its
// admins are the users, its sites those of the forms and submissions, and
// the token acts for it with every scope but metrics.
func WorkspacesMigration(t *testing.T, old *sql.DB, open func() *sqldb.DB) {
	ctx := context.Background()
	for _, stmt := range []string{
		`INSERT INTO users (email, password_hash, created_at) VALUES ('ann@example.com', '$argon2id$a', 1000), ('bob@example.com', '$argon2id$b', 2000)`,
		`INSERT INTO api_tokens (name, hash, created_at, last_used_at) VALUES ('ci', 'cafe', 3000, NULL)`,
		`INSERT INTO forms (site, slug, last_version, live_version, created_at, updated_at, published_at) VALUES ('shop', 'order', 1, 1, 4000, 4000, 4000)`,
		`INSERT INTO form_versions (site, slug, version, body, created_at, created_by) VALUES ('shop', 'order', 1, '{"fields":[]}', 4000, 'ci')`,
		`INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent, form_version, spam)
			VALUES ('01A', 'shop', 'order', 5000, '{}', '[]', '', '', 1, FALSE), ('01B', 'acme', 'contact', 6000, '{}', '[]', '', '', NULL, FALSE)`,
	} {
		if _, err := old.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("filling the old database: %v\n%s", err, stmt)
		}
	}
	db := open()

	members, err := db.Members(ctx, accounts.DefaultWorkspace)
	if err != nil || len(members) != 2 || members[0].Email != "ann@example.com" || members[0].Role != accounts.Admin ||
		members[1].Email != "bob@example.com" || members[1].Role != accounts.Admin || !members[1].CreatedAt.Equal(time.UnixMilli(2000)) {
		t.Errorf("members of default after the migration = %+v, %v; want ann and bob, admins", members, err)
	}
	if sites, err := db.Sites(ctx, accounts.DefaultWorkspace); err != nil || len(sites) != 2 || sites[0] != "acme" || sites[1] != "shop" {
		t.Errorf("sites of default after the migration = %v, %v; want acme and shop", sites, err)
	}
	if w, err := db.Workspace(ctx, accounts.DefaultWorkspace); err != nil || !w.CreatedAt.Equal(time.UnixMilli(1000)) {
		t.Errorf("the default workspace = %+v, %v; want it made when the first user was", w, err)
	}
	if tok, err := db.UseToken(ctx, "cafe", time.UnixMilli(7000)); err != nil || tok.Workspace != accounts.DefaultWorkspace || tok.Scope != accounts.ScopeAll {
		t.Errorf("the token after the migration = %+v, %v; want it in default with scope all", tok, err)
	}
	if all, err := db.Workspaces(ctx); err != nil || len(all) != 1 {
		t.Errorf("workspaces after the migration = %+v, %v; want default alone", all, err)
	}
}

// BeforeProvedAddresses is the schema version of a hub that did not record
// whether an address was proved.
const BeforeProvedAddresses = 23

// ProvedAddressesMigration fills old, a database at schema version
// BeforeProvedAddresses, with a workspace, a user and an invitation still
// open; open then opens the same database, which migrates it. The user
// counts as proved since they were made, and the invitation as shown.
func ProvedAddressesMigration(t *testing.T, old *sql.DB, open func() *sqldb.DB) {
	ctx := context.Background()
	for _, stmt := range []string{
		`INSERT INTO users (email, password_hash, created_at) VALUES ('ann@example.com', '$argon2id$a', 1000)`,
		`INSERT INTO workspaces (name, created_at) VALUES ('aaa', 1000)`,
		`INSERT INTO invitations (token_hash, workspace, email, role, invited_by, created_at, expires_at) VALUES ('inv', 'aaa', 'cy@example.com', 'editor', 'ann@example.com', 2000, 9000000000000)`,
	} {
		if _, err := old.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("filling the old database: %v\n%s", err, stmt)
		}
	}
	db := open()
	if u, err := db.User(ctx, "ann@example.com"); err != nil || !u.ProvedAt.Equal(time.UnixMilli(1000)) {
		t.Errorf("a user after the migration = %+v, %v; want proved when made", u, err)
	}
	if inv, err := db.Invitation(ctx, "inv", time.UnixMilli(3000)); err != nil || inv.Mailed {
		t.Errorf("an open invitation after the migration = %+v, %v; want it counted as shown", inv, err)
	}
}
