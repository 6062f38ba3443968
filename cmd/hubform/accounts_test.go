package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

// hubformIn runs the command line args as hubform does, reading stdin as
// its standard input.
func hubformIn(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(withStdin(context.Background(), strings.NewReader(stdin)), args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// addUser adds a user with the password through "hubform users add", as
// an admin of the default workspace.
func addUser(t *testing.T, email, password string, where ...string) {
	t.Helper()
	args := append([]string{"users", "add", "--email", email, "--password-stdin", "--workspace", "default", "--role", "admin"}, where...)
	if status, stdout, stderr := hubformIn(t, password+"\n", args...); status != 0 {
		t.Fatalf("users add: status %d, %q %q", status, stdout, stderr)
	}
}

func TestUsersCommand(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	const password = "correct horse battery"
	status, stdout, stderr := hubformIn(t, password+"\r\n", "users", "add", "--data", data, "--email", " Jane@Example.com", "--password-stdin")
	if status != 0 || stdout != "added user jane@example.com\n" || !strings.Contains(stderr, "jane@example.com is in no workspace yet") {
		t.Fatalf("users add: status %d, %q %q", status, stdout, stderr)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	u, err := db.User(context.Background(), "jane@example.com")
	db.Close()
	if err != nil || !strings.HasPrefix(u.PasswordHash, "$argon2id$v=19$m=65536,t=3,p=4$") {
		t.Fatalf("stored %+v, %v", u, err)
	}
	if ok, _ := accounts.CheckPassword(u.PasswordHash, password); !ok {
		t.Error("the stored hash does not match the password read (line ending not removed?)")
	}

	for _, tc := range []struct {
		stdin  string
		args   []string
		status int
		want   string
	}{
		{password, []string{"add", "--email", "jane@example.com", "--password-stdin"}, 1, "exists already"},
		{"short pw\n", []string{"add", "--email", "bob@example.com", "--password-stdin"}, 1, "at least 10"},
		{"", []string{"add", "--email", "bob@example.com", "--password-stdin"}, 1, "no password"},
		{password, []string{"add", "--email", "bob@example.com"}, 2, "--password-stdin"},
		{password, []string{"add", "--email", "bob", "--password-stdin"}, 2, "not an e-mail address"},
		{"", []string{"remove", "--email", "nobody@example.com"}, 1, "no user"},
		{"", []string{"rename"}, 2, "unknown action"},
		{"", nil, 2, "say add, prove, list or remove"},
		{"", []string{"prove", "--email", "nobody@example.com"}, 1, "no user"},
	} {
		status, stdout, stderr := hubformIn(t, tc.stdin, append(append([]string{"users"}, tc.args...), "--data", data)...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("users %q: status %d, stderr %q; want %d and %q", tc.args, status, stderr, tc.status, tc.want)
		}
		if strings.Contains(stdout+stderr, "short pw") || strings.Contains(stdout+stderr, password) {
			t.Errorf("users %q repeats the password: %q %q", tc.args, stdout, stderr)
		}
	}
	addUser(t, "bob@example.com", "another long password", "--data", data)
	status, stdout, _ = hubform(t, "users", "list", "--data", data)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if status != 0 || len(lines) != 3 || !strings.HasPrefix(lines[1], "bob@example.com ") || !strings.HasPrefix(lines[2], "jane@example.com ") {
		t.Errorf("users list: status %d, %q", status, stdout)
	}
	if status, stdout, stderr := hubform(t, "users", "remove", "--data", data, "--email", "bob@example.com"); status != 0 || stdout != "removed user bob@example.com\n" {
		t.Errorf("users remove: %d %q %q", status, stdout, stderr)
	}
	if _, stdout, _ := hubform(t, "users", "list", "--data", data); strings.Contains(stdout, "bob@") {
		t.Errorf("bob listed after removal: %q", stdout)
	}
	if _, stdout, _ := hubform(t, "users", "--help"); !strings.Contains(stdout, "--password-stdin") || !strings.Contains(stdout, "--db URL") {
		t.Errorf("users --help: %q", stdout)
	}
	if _, stdout, _ := hubform(t, "--help"); !strings.Contains(stdout, "users ") || !strings.Contains(stdout, "tokens ") {
		t.Errorf("--help lacks users or tokens: %q", stdout)
	}
}

// TestUsersProveCommand proves the address of an account made from an
// invitation link shown to the inviting admin: its password, sessions and
// reset links end, and with --password-stdin it takes the one read.
func TestUsersProveCommand(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	const password = "correct horse battery"
	addUser(t, "jane@example.com", password, "--data", data)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if u, err := db.User(ctx, "jane@example.com"); err != nil || !u.Proved() {
		t.Errorf("a user the operator added: %+v, %v; want proved", u, err)
	}
	// An account made from a shown link, with its holder signed in and a
	// reset link pending.
	now := time.Now()
	if err := db.CreateInvitation(ctx, "shown", accounts.Invitation{Workspace: accounts.DefaultWorkspace, Email: "new@example.com", Role: accounts.Editor,
		InvitedBy: "jane@example.com", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.AcceptInvitation(ctx, "shown", "$argon2id$first", "", now); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUserSession(ctx, accounts.Session{ID: "s", Email: "new@example.com", CreatedAt: now, LastSeenAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePasswordReset(ctx, "r", "new@example.com", now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, stdout, _ := hubform(t, "users", "list", "--data", data); !regexp.MustCompile(`new@example.com\s+\S+\s+no\n`).MatchString(stdout) {
		t.Errorf("users list does not show the address unproved: %q", stdout)
	}

	status, stdout, stderr := hubform(t, "users", "prove", "--data", data, "--email", "new@example.com")
	if status != 0 || !strings.Contains(stdout, "proved the address of new@example.com; its password was cleared") || !strings.Contains(stderr, "has no password") {
		t.Fatalf("users prove: %d %q %q", status, stdout, stderr)
	}
	if u, _ := db.User(ctx, "new@example.com"); !u.Proved() || u.PasswordHash != "" {
		t.Errorf("after users prove: %+v, want proved, no password", u)
	}
	if ss, _ := db.UserSessions(ctx, "new@example.com"); len(ss) != 0 {
		t.Errorf("sessions after users prove: %+v", ss)
	}
	if _, err := db.PasswordReset(ctx, "r", now); err == nil {
		t.Error("a reset link works after users prove")
	}
	status, stdout, stderr = hubformIn(t, "the owner's password\n", "users", "prove", "--data", data, "--email", "new@example.com", "--password-stdin")
	if status != 0 || !strings.Contains(stdout, "was proved already; it has the new password") || strings.Contains(stdout+stderr, "owner's password") {
		t.Fatalf("users prove --password-stdin: %d %q %q", status, stdout, stderr)
	}
	if u, _ := db.User(ctx, "new@example.com"); u.PasswordHash == "" {
		t.Error("users prove --password-stdin set no password")
	} else if ok, _ := accounts.CheckPassword(u.PasswordHash, "the owner's password"); !ok {
		t.Error("users prove --password-stdin set another password")
	}
	if _, stdout, _ := hubform(t, "users", "prove", "--data", data, "--email", "jane@example.com"); !strings.Contains(stdout, "was proved already\n") {
		t.Errorf("users prove of a proved user: %q", stdout)
	}
}

func TestTokensCommand(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	status, stdout, stderr := hubform(t, "tokens", "create", "--data", data, "--workspace", "default", "--name", "ci")
	token := strings.TrimSpace(stdout)
	if status != 0 || !strings.HasPrefix(token, accounts.TokenPrefix) || strings.Count(stdout, "\n") != 1 || !strings.Contains(stderr, "only this once") {
		t.Fatalf("tokens create: status %d, %q %q", status, stdout, stderr)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := db.Tokens(context.Background(), "")
	db.Close()
	if err != nil || len(tokens) != 1 || tokens[0].Hash != accounts.HashToken(token) || tokens[0].Workspace != "default" || tokens[0].Scope != accounts.ScopeAll {
		t.Fatalf("stored %+v, %v; want only the hash of the token printed", tokens, err)
	}
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"create", "--workspace", "default", "--name", "ci"}, 1, "exists already"},
		{[]string{"create", "--name", "deploy"}, 2, "say which workspace"},
		{[]string{"create", "--workspace", "default", "--name", "deploy", "--scope", "metrics"}, 2, "belongs to no workspace"},
		{[]string{"create", "--workspace", "default", "--name", "deploy", "--scope", "everything"}, 2, "--scope"},
		{[]string{"create", "--workspace", "nowhere", "--name", "deploy"}, 1, "no workspace nowhere"},
		{[]string{"create", "--name", "a b"}, 2, "--name"},
		{[]string{"create"}, 2, "--name"},
		{[]string{"revoke", "--name", "nope"}, 1, "no token named nope"},
		{[]string{"rotate", "--name", "ci"}, 2, "unknown action"},
	} {
		status, _, stderr := hubform(t, append(append([]string{"tokens"}, tc.args...), "--data", data)...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("tokens %q: status %d, stderr %q; want %d and %q", tc.args, status, stderr, tc.status, tc.want)
		}
	}
	status, stdout, _ = hubform(t, "tokens", "list", "--data", data)
	if status != 0 || !strings.Contains(stdout, "NAME") || !regexp.MustCompile(`(?m)^ci +default +all +`).MatchString(stdout) || !strings.Contains(stdout, "never") || strings.Contains(stdout, token) {
		t.Errorf("tokens list: status %d, %q", status, stdout)
	}
	if status, stdout, _ := hubform(t, "tokens", "revoke", "--data", data, "--name", "ci"); status != 0 || stdout != "revoked token ci\n" {
		t.Errorf("tokens revoke: %d %q", status, stdout)
	}
	if _, stdout, _ := hubform(t, "tokens", "list", "--data", data); strings.Contains(stdout, "ci ") {
		t.Errorf("revoked token listed: %q", stdout)
	}
	if _, stdout, _ := hubform(t, "tokens", "--help"); !strings.Contains(stdout, "Authorization: Bearer") {
		t.Errorf("tokens --help: %q", stdout)
	}
}

func TestWorkspacesCommand(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	addUser(t, "ann@example.com", "correct horse battery", "--data", data)
	if status, _, stderr := hubformIn(t, "another long password\n", "users", "add", "--data", data, "--email", "bob@example.com", "--password-stdin"); status != 0 {
		t.Fatalf("users add: %d %q", status, stderr)
	}
	ok := func(want string, args ...string) {
		t.Helper()
		status, stdout, stderr := hubform(t, append([]string{"workspaces"}, args...)...)
		if status != 0 || stdout != want {
			t.Errorf("workspaces %q: status %d, %q %q; want %q", args, status, stdout, stderr, want)
		}
	}
	ok("created workspace agency with admin bob@example.com\n", "create", "--data", data, "agency", "--admin", "Bob@example.com")
	ok("ann@example.com is a viewer of workspace agency\n", "add-member", "--data", data, "agency", "--email", "ann@example.com", "--role", "viewer")
	ok("ann@example.com is an admin of workspace agency\n", "add-member", "--data", data, "agency", "--email", "ann@example.com", "--role", "admin")
	ok("removed bob@example.com from workspace agency\n", "remove-member", "--data", data, "agency", "--email", "bob@example.com")

	// The operator's changes are in the workspace's audit log.
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(context.Background(), "agency", "", 0)
	db.Close()
	var logged []string
	for _, e := range events {
		logged = append(logged, e.Actor+": "+e.Action+" "+e.Target+" "+e.Detail)
	}
	if want := []string{
		"operator: member removed bob@example.com ",
		"operator: member added or role changed ann@example.com admin",
		"operator: member added or role changed ann@example.com viewer",
		"operator: workspace created agency admin bob@example.com",
	}; err != nil || strings.Join(logged, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit log of agency: %v\n%s\nwant\n%s", err, strings.Join(logged, "\n"), strings.Join(want, "\n"))
	}

	status, stdout, _ := hubform(t, "workspaces", "list", "--data", data)
	if status != 0 || !regexp.MustCompile(`(?m)^NAME +MEMBERS +SITES +CREATED +QUOTA\nagency +1 +0 +\S+ +no quota of submissions or bytes, 500 e-mails a day \(the default\)\ndefault +1 +0 +\S+ +no quota of submissions or bytes, 500 e-mails a day \(the default\)\n$`).MatchString(stdout) {
		t.Errorf("workspaces list: %d\n%s", status, stdout)
	}
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"create", "agency", "--admin", "ann@example.com"}, 1, "a workspace agency exists already"},
		{[]string{"create", "other", "--admin", "nobody@example.com"}, 1, "no user nobody@example.com"},
		{[]string{"create", "other"}, 2, "--admin"},
		{[]string{"create", "a/b", "--admin", "ann@example.com"}, 2, "a workspace's name"},
		{[]string{"create", "--admin", "ann@example.com"}, 2, "one workspace NAME"},
		{[]string{"add-member", "agency", "--email", "bob@example.com", "--role", "owner"}, 2, "not a role"},
		{[]string{"add-member", "agency", "--email", "ann@example.com", "--role", "editor"}, 1, "last admin of workspace agency"},
		{[]string{"add-member", "nowhere", "--email", "ann@example.com", "--role", "editor"}, 1, "no workspace nowhere"},
		{[]string{"remove-member", "agency", "--email", "ann@example.com"}, 1, "last admin"},
		{[]string{"remove-member", "agency", "--email", "bob@example.com"}, 1, "not a member"},
		{[]string{"rename", "agency"}, 2, "unknown action"},
		{nil, 2, "say create, list"},
	} {
		status, _, stderr := hubform(t, append(append([]string{"workspaces"}, tc.args...), "--data", data)...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("workspaces %q: status %d, stderr %q; want %d and %q", tc.args, status, stderr, tc.status, tc.want)
		}
	}

	// A user added to a workspace that does not exist is not added at all.
	if status, _, stderr := hubformIn(t, "a third long password\n", "users", "add", "--data", data, "--email", "cy@example.com", "--password-stdin", "--workspace", "nowhere", "--role", "viewer"); status != 1 || !strings.Contains(stderr, "no workspace nowhere") {
		t.Errorf("users add to a missing workspace: %d %q", status, stderr)
	}
	if _, stdout, _ := hubform(t, "users", "list", "--data", data); strings.Contains(stdout, "cy@example.com") {
		t.Errorf("a user refused for a missing workspace was added:\n%s", stdout)
	}
	if _, stdout, _ := hubform(t, "workspaces", "--help"); !strings.Contains(stdout, "hubform workspaces create --data ./hub-data agency --admin ann@example.com") {
		t.Errorf("workspaces --help lacks its example:\n%s", stdout)
	}
}
