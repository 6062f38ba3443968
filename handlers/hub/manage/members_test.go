package manage

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// serviceCase is an action of a service by an actor, and what it comes to.
type serviceCase struct {
	name string
	// ws and by name the actor: the member of by in ws, or the operator
	// acting in ws when by is accounts.Operator.
	ws, by string
	do     func(ctx context.Context, db *sqldb.DB, a Actor) error
	// status is the answer's status, 0 when the action is done.
	status int
	// done reports whether the action's change is in db.
	done func(t *testing.T, db *sqldb.DB) bool
	// Done, the audit log of workspace in ends with action on target,
	// by actor (the acting member or operator when empty); with no action,
	// nothing is recorded.
	in, action, target, actor string
}

// runCases runs each case on a fresh database of each store. A refused
// action changes nothing and records nothing, in any workspace (nor in the
// hub's own log, workspace "").
func runCases(t *testing.T, cases []serviceCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
				a := Operator(tc.ws)
				if tc.by != accounts.Operator {
					a = memberOf(t, db, tc.ws, tc.by)
				}
				before := map[string]int{}
				for _, ws := range []string{"acme", "rival", "agency", ""} {
					before[ws] = len(events(t, db, ws))
				}
				err := tc.do(context.Background(), db, a)
				if got := status(err); got != tc.status {
					t.Fatalf("status %d (%v), want %d", got, err, tc.status)
				}
				if tc.done != nil && tc.done(t, db) != (tc.status == 0) {
					t.Errorf("done is %t, want %t", !(tc.status == 0), tc.status == 0)
				}
				if tc.status == http.StatusNotFound && !errors.Is(err, hub.ErrNotFound) {
					t.Errorf("%v: want hub.ErrNotFound in the chain", err)
				}
				if tc.status != 0 || tc.action == "" {
					for ws, n := range before {
						if got := len(events(t, db, ws)); got != n {
							t.Errorf("the audit log of workspace %q has %d events more, want none", ws, got-n)
						}
					}
					return
				}
				es := events(t, db, tc.in)
				if len(es) != before[tc.in]+1 {
					t.Fatalf("audit log of %q: %d events, want %d", tc.in, len(es), before[tc.in]+1)
				}
				actor := cmp(tc.actor, a.Name)
				if e := es[len(es)-1]; e.Action != tc.action || e.Target != tc.target || e.Actor != actor || e.Workspace != tc.in {
					t.Errorf("recorded %+v, want %s on %s by %s in %s", e, tc.action, tc.target, actor, tc.in)
				}
			})
		})
	}
}

func cmp(s, or string) string {
	if s != "" {
		return s
	}
	return or
}

// role returns the role of email in workspace ws, "" when they are not a
// member.
func role(t *testing.T, db *sqldb.DB, ws, email string) accounts.Role {
	t.Helper()
	ms, err := db.Members(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(ms, func(m accounts.Member) bool { return m.Email == email }); i >= 0 {
		return ms[i].Role
	}
	return ""
}

func TestMembers(t *testing.T) {
	setRole := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewMembers(config(db), db).SetRole(ctx, a, acmeViewer, accounts.Editor)
	}
	promoted := func(t *testing.T, db *sqldb.DB) bool { return role(t, db, "acme", acmeViewer) == accounts.Editor }
	remove := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewMembers(config(db), db).Remove(ctx, a, acmeViewer)
	}
	removed := func(t *testing.T, db *sqldb.DB) bool { return role(t, db, "acme", acmeViewer) == "" }
	add := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewMembers(config(db), db).Add(ctx, a, rivalAdmin, accounts.Viewer)
	}
	added := func(t *testing.T, db *sqldb.DB) bool { return role(t, db, "acme", rivalAdmin) == accounts.Viewer }
	runCases(t, []serviceCase{
		{name: "set role: admin", ws: "acme", by: acmeAdmin, do: setRole, done: promoted,
			in: "acme", action: accounts.ActionMemberSet, target: acmeViewer},
		{name: "set role: another workspace's admin", ws: "rival", by: rivalAdmin, do: setRole, done: promoted, status: http.StatusNotFound},
		{name: "set role: editor", ws: "acme", by: acmeEditor, do: setRole, done: promoted, status: http.StatusForbidden},
		{name: "set role: operator", ws: "acme", by: accounts.Operator, do: setRole, done: promoted,
			in: "acme", action: accounts.ActionMemberSet, target: acmeViewer},
		{name: "remove: admin", ws: "acme", by: acmeAdmin, do: remove, done: removed,
			in: "acme", action: accounts.ActionMemberRemoved, target: acmeViewer},
		{name: "remove: another workspace's admin", ws: "rival", by: rivalAdmin, do: remove, done: removed, status: http.StatusNotFound},
		{name: "remove: editor", ws: "acme", by: acmeEditor, do: remove, done: removed, status: http.StatusForbidden},
		{name: "add: operator", ws: "acme", by: accounts.Operator, do: add, done: added,
			in: "acme", action: accounts.ActionMemberSet, target: rivalAdmin},
		{name: "add: admin, who invites instead", ws: "acme", by: acmeAdmin, do: add, done: added, status: http.StatusForbidden},
	})
}

func TestMembersKeepAnAdmin(t *testing.T) {
	onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
		s, ctx, ann := NewMembers(config(db), db), context.Background(), memberOf(t, db, "acme", acmeAdmin)
		if err := s.SetRole(ctx, ann, acmeAdmin, accounts.Editor); !errors.Is(err, accounts.ErrLastAdmin) {
			t.Errorf("the last admin made editor: %v, want accounts.ErrLastAdmin", err)
		}
		if err := s.Remove(ctx, ann, acmeAdmin); !errors.Is(err, accounts.ErrLastAdmin) {
			t.Errorf("the last admin removed: %v, want accounts.ErrLastAdmin", err)
		}
		if role(t, db, "acme", acmeAdmin) != accounts.Admin {
			t.Error("the last admin lost their role")
		}
		if err := s.Remove(ctx, Operator("acme"), "nobody@example.com"); status(err) != http.StatusNotFound {
			t.Errorf("the operator removes a non-member: %v, want 404", err)
		}
	})
}

func TestTokens(t *testing.T) {
	tokenIn := func(ws, name string) func(t *testing.T, db *sqldb.DB) bool {
		return func(t *testing.T, db *sqldb.DB) bool {
			tokens, err := db.Tokens(context.Background(), ws)
			if err != nil {
				t.Fatal(err)
			}
			return slices.ContainsFunc(tokens, func(tok accounts.Token) bool { return tok.Name == name })
		}
	}
	create := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		secret, err := NewTokens(config(db), db).Create(ctx, a, "deploy", accounts.ScopeForms)
		if err == nil && secret == "" {
			return errors.New("no secret")
		}
		return err
	}
	createMetrics := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		_, err := NewTokens(config(db), db).Create(ctx, a, "deploy", accounts.ScopeMetrics)
		return err
	}
	revoke := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewTokens(config(db), db).Revoke(ctx, a, acmeToken)
	}
	revoked := func(t *testing.T, db *sqldb.DB) bool { return !tokenIn("acme", acmeToken)(t, db) }
	runCases(t, []serviceCase{
		{name: "create: admin", ws: "acme", by: acmeAdmin, do: create, done: tokenIn("acme", "deploy"),
			in: "acme", action: accounts.ActionTokenCreated, target: "token deploy"},
		{name: "create: editor", ws: "acme", by: acmeEditor, do: create, done: tokenIn("", "deploy"), status: http.StatusForbidden},
		{name: "create a metrics token: admin", ws: "acme", by: acmeAdmin, do: createMetrics, done: tokenIn("", "deploy"), status: http.StatusForbidden},
		{name: "create a metrics token: operator", ws: "", by: accounts.Operator, do: createMetrics, done: tokenIn("", "deploy"),
			in: "", action: accounts.ActionTokenCreated, target: "token deploy"},
		{name: "revoke: admin", ws: "acme", by: acmeAdmin, do: revoke, done: revoked,
			in: "acme", action: accounts.ActionTokenRevoked, target: "token " + acmeToken},
		{name: "revoke: another workspace's admin", ws: "rival", by: rivalAdmin, do: revoke, done: revoked, status: http.StatusNotFound},
		{name: "revoke: editor", ws: "acme", by: acmeEditor, do: revoke, done: revoked, status: http.StatusForbidden},
		{name: "revoke: operator, recorded in the token's workspace", ws: "", by: accounts.Operator, do: revoke, done: revoked,
			in: "acme", action: accounts.ActionTokenRevoked, target: "token " + acmeToken},
	})
}

func TestInvitations(t *testing.T) {
	invite := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		inv, token, err := NewInvitations(config(db), db).Create(ctx, a, "guest@example.com", accounts.Viewer)
		if err == nil {
			if got, err := db.Invitation(ctx, accounts.HashToken(token), inv.CreatedAt); err != nil || got.Workspace != a.Workspace || got.InvitedBy != a.Name {
				return errors.Join(err, errors.New("the invitation stored is not the actor's workspace's"))
			}
		}
		return err
	}
	mailed := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewInvitations(config(db), db).Mailed(ctx, a, acmeInvitation)
	}
	isMailed := func(t *testing.T, db *sqldb.DB) bool {
		inv, err := db.Invitation(context.Background(), accounts.HashToken(acmeInvitation), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return inv.Mailed
	}
	accept := func(ctx context.Context, db *sqldb.DB, _ Actor) error {
		inv, set, err := NewInvitations(config(db), db).Accept(ctx, Invitee{PasswordHash: "$argon2id$y", Client: "192.0.2.9"}, acmeInvitation)
		if err == nil && (inv.Workspace != "acme" || !set) {
			return errors.New("accepted the wrong invitation")
		}
		return err
	}
	runCases(t, []serviceCase{
		{name: "create: admin", ws: "acme", by: acmeAdmin, do: invite,
			in: "acme", action: accounts.ActionMemberInvited, target: "guest@example.com"},
		{name: "create: another workspace's admin invites to theirs", ws: "rival", by: rivalAdmin, do: invite,
			in: "rival", action: accounts.ActionMemberInvited, target: "guest@example.com"},
		{name: "create: editor", ws: "acme", by: acmeEditor, do: invite, status: http.StatusForbidden},
		{name: "mailed: admin", ws: "acme", by: acmeAdmin, do: mailed, done: isMailed},
		{name: "mailed: another workspace's admin", ws: "rival", by: rivalAdmin, do: mailed, done: isMailed, status: http.StatusNotFound},
		{name: "mailed: editor", ws: "acme", by: acmeEditor, do: mailed, done: isMailed, status: http.StatusForbidden},
		{name: "accept: the invitee", ws: "acme", by: acmeViewer, do: accept,
			done: func(t *testing.T, db *sqldb.DB) bool { return role(t, db, "acme", invitee) == accounts.Editor },
			in:   "acme", action: accounts.ActionInvitationAccepted, target: invitee, actor: invitee},
	})
}

func TestInvitationsKeepAnAdmin(t *testing.T) {
	onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
		_, _, err := NewInvitations(config(db), db).Create(context.Background(), memberOf(t, db, "acme", acmeAdmin), acmeAdmin, accounts.Viewer)
		if !errors.Is(err, accounts.ErrLastAdmin) {
			t.Errorf("the last admin invited as viewer: %v, want accounts.ErrLastAdmin", err)
		}
	})
}

func TestQuotas(t *testing.T) {
	q := accounts.Quota{SubmissionsPerMonth: 10, MailPerDay: 20}
	set := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return NewQuotas(config(db), db).Set(ctx, a, q)
	}
	isSet := func(t *testing.T, db *sqldb.DB) bool {
		w, err := db.Workspace(context.Background(), "acme")
		if err != nil {
			t.Fatal(err)
		}
		return w.Quota == q
	}
	runCases(t, []serviceCase{
		{name: "operator", ws: "acme", by: accounts.Operator, do: set, done: isSet,
			in: "acme", action: accounts.ActionQuotaSet, target: "acme"},
		{name: "admin", ws: "acme", by: acmeAdmin, do: set, done: isSet, status: http.StatusForbidden},
	})
}

func TestWorkspaces(t *testing.T) {
	createAs := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		a.Workspace = "agency"
		return NewWorkspaces(config(db), db).Create(ctx, a, acmeEditor)
	}
	created := func(t *testing.T, db *sqldb.DB) bool { return role(t, db, "agency", acmeEditor) == accounts.Admin }
	claim := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		owner, err := NewWorkspaces(config(db), db).ClaimSite(ctx, a, "new.example")
		if err == nil && owner != a.Workspace {
			return errors.New("claimed for " + owner)
		}
		return err
	}
	claimed := func(t *testing.T, db *sqldb.DB) bool {
		owner, _ := db.SiteWorkspace(context.Background(), "new.example")
		return owner == "acme"
	}
	runCases(t, []serviceCase{
		{name: "create: operator", ws: "", by: accounts.Operator, do: createAs, done: created,
			in: "agency", action: accounts.ActionWorkspaceCreated, target: "agency"},
		{name: "create: an admin", ws: "acme", by: acmeAdmin, do: createAs, done: created, status: http.StatusForbidden},
		{name: "claim a site: editor", ws: "acme", by: acmeEditor, do: claim, done: claimed},
		{name: "claim a site: viewer", ws: "acme", by: acmeViewer, do: claim, done: claimed, status: http.StatusForbidden},
	})
}
