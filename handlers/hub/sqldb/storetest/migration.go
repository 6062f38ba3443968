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

// BeforeFormDrafts is the schema version of a hub that made a version of
// every save of a form.
const BeforeFormDrafts = 25

// FormDraftsMigration fills old, a database at schema version
// BeforeFormDrafts, with a form whose version 1 is live and version 2 is
// not, a form never published, and a form rolled back from its newest
// version; open then opens the same database, which migrates it. A newest
// version newer than the live one is the form's draft; the versions up to
// the live one are sealed; each form's revision is its number of versions,
// and each version was last saved when and by whom it was made.
func FormDraftsMigration(t *testing.T, old *sql.DB, open func() *sqldb.DB) {
	ctx := context.Background()
	for _, stmt := range []string{
		`INSERT INTO forms (site, slug, last_version, live_version, created_at, updated_at, published_at) VALUES
			('shop', 'order', 2, 1, 4000, 5000, 4500), ('shop', 'new', 1, NULL, 4000, 4000, NULL), ('shop', 'back', 3, 3, 4000, 6000, 6000)`,
		`INSERT INTO form_versions (site, slug, version, body, created_at, created_by) VALUES
			('shop', 'order', 1, '{"title":"one"}', 4000, 'ci'), ('shop', 'order', 2, '{"title":"two"}', 5000, 'ann@example.com'),
			('shop', 'new', 1, '{}', 4000, 'ann@example.com'),
			('shop', 'back', 1, '{}', 4000, 'ci'), ('shop', 'back', 2, '{}', 5000, 'ci'), ('shop', 'back', 3, '{}', 6000, 'ci')`,
	} {
		if _, err := old.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("filling the old database: %v\n%s", err, stmt)
		}
	}
	db := open()
	for _, want := range []struct {
		slug            string
		draft           bool
		revision, saved int64
	}{{"order", true, 2, 2}, {"new", true, 1, 1}, {"back", false, 3, 4}} {
		rec, err := db.FormRecord(ctx, "shop", want.slug)
		if err != nil || rec.Draft != want.draft || rec.Revision != want.revision {
			t.Errorf("form %s after the migration = %+v, %v; want draft %v, revision %d", want.slug, rec, err, want.draft, want.revision)
			continue
		}
		// The next save from the console goes where the draft says.
		s, err := db.SaveFormDraft(ctx, "shop", want.slug, []byte(`{"title":"edited"}`), "bob@example.com", time.UnixMilli(9000), rec.Revision)
		if err != nil || s.Version != want.saved {
			t.Errorf("a save of form %s after the migration = %+v, %v; want version %d", want.slug, s, err, want.saved)
		}
	}
	v, err := db.FormVersion(ctx, "shop", "order", 1)
	if err != nil || v.SavedBy != "ci" || !v.SavedAt.Equal(time.UnixMilli(4000)) || string(v.Body) != `{"title":"one"}` {
		t.Errorf("the live version after the migration = %+v %s, %v; want it as it was, last saved when made", v, v.Body, err)
	}
}
