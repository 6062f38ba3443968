package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/sqldb"

	"github.com/hubform/hubform/handlers/hub"
)

// stdinKey is the context key of the reader commands read secrets from in
// place of standard input; tests set it, each for its own commands.
type stdinKey struct{}

// withStdin returns ctx with r as the commands' standard input.
func withStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey{}, r)
}

// stdinOf returns the commands' standard input: ctx's, or os.Stdin.
func stdinOf(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey{}).(io.Reader); ok {
		return r
	}
	return os.Stdin
}

const usersHelp = `
Usage: hubform users add|prove|list|remove --data DIR|--db URL [--email E] [--password-stdin]
                                          [--workspace NAME --role ROLE]

Manages the people who sign in to a hub's console at /console, in the hub's
database: SQLite under DIR, or the PostgreSQL database --db names. A user
sees the workspaces they are a member of (see hubform workspaces).

  add      a user; the password is read from standard input (its first line),
           never from a flag, and must have at least 10 characters. It is
           stored as an argon2id hash and never printed or logged. With
           --workspace the user joins that workspace with --role; without,
           they join none until hubform workspaces add-member. The operator
           vouches for the address: it counts as proved.
  prove    vouch for a user's address. An account made from an invitation
           link that the console showed to the inviting admin (a hub without
           e-mail) has an address nobody proved: it reaches only the
           workspace whose link made it, and another workspace's invitation
           grants it nothing. Proving it also takes the account from whoever
           set its password: the password is cleared, every session ends and
           every pending reset link is retired. With --password-stdin the
           account takes the password read from standard input (a proved
           user's too, which sets their password); without, its owner sets
           one by a reset link, or signs in by single sign-on.
  list     the users, with when each was added and whether their address is
           proved
  remove   a user; their console sessions are refused from the next request
`

const usersTail = `
Example:
  printf '%s\n' "$OWNER_PASSWORD" | hubform users add --data ./hub-data --email jane@example.com --password-stdin \
      --workspace default --role admin
  printf '%s\n' "$NEW_PASSWORD" | hubform users prove --data ./hub-data --email newhire@example.com --password-stdin
  hubform users list --db 'postgres://hub:PASSWORD@db.internal/hub'
  hubform users remove --data ./hub-data --email jane@example.com
`

func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("users", usersHelp, usersTail, stderr)
	data, dbURL := dbFlags(fs)
	email := fs.String("email", "", "the user's e-mail `ADDRESS`, which they sign in with")
	fromStdin := fs.Bool("password-stdin", false, "read the password from standard input (required by add; prove: set it)")
	workspace := fs.String("workspace", "", "add: the `NAME` of a workspace the user joins")
	roleName := fs.String("role", "", "add: the user's `ROLE` in --workspace: admin, editor or viewer")
	verb, args, status, ok := fs.parseVerb(args, stdout, "add", "prove", "list", "remove")
	if !ok {
		return status
	}
	fail := fs.fail
	if len(args) != 0 {
		return fail(2, "%s takes no arguments", verb)
	}
	var addr string
	switch verb {
	case "add", "prove", "remove":
		var err error
		if addr, err = accounts.NormalizeEmail(*email); err != nil {
			return fail(2, "--email: %v", err)
		}
	}
	var hash string
	var role accounts.Role
	if verb == "add" {
		if (*workspace == "") != (*roleName == "") {
			return fail(2, "--workspace and --role go together")
		}
		if *workspace != "" {
			var err error
			if role, err = accounts.ParseRole(*roleName); err != nil {
				return fail(2, "--role: %v", err)
			}
		}
		if !*fromStdin {
			return fail(2, "add reads the password from standard input: give --password-stdin")
		}
	}
	if *fromStdin && (verb == "add" || verb == "prove") {
		password, err := readSecretLine(stdinOf(ctx))
		if err != nil {
			return fail(1, "reading the password: %v", err)
		}
		// Hashed before the database is opened: a refused password
		// leaves no trace.
		if hash, err = accounts.HashPassword(password, accounts.DefaultParams); err != nil {
			return fail(1, "%v", err)
		}
	}
	db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, verb == "list")
	if err != nil {
		return fail(1, "%v", err)
	}
	defer db.Close()
	switch verb {
	case "add":
		if *workspace != "" {
			// Checked first, so that a refused user is not added at all.
			if _, err := db.Workspace(ctx, *workspace); errors.Is(err, hub.ErrNotFound) {
				return fail(1, "no workspace %s (hubform workspaces list)", *workspace)
			}
		}
		now := time.Now()
		err = db.CreateUser(ctx, accounts.User{Email: addr, PasswordHash: hash, CreatedAt: now, ProvedAt: now})
		if errors.Is(err, accounts.ErrExists) {
			return fail(1, "a user %s exists already (hubform users prove --password-stdin sets its password)", addr)
		}
		if err != nil {
			break
		}
		fmt.Fprintf(stdout, "added user %s\n", addr)
		if *workspace == "" {
			fmt.Fprintf(stderr, "hubform users: %s is in no workspace yet: hubform workspaces add-member NAME --email %s --role ROLE\n", addr, addr)
			break
		}
		err = manage.NewMembers(operatorServices(db, stderr), db).Add(ctx, manage.Operator(*workspace), addr, role)
		if msg, ok := membershipError(err, *workspace, addr); ok {
			return fail(1, "%s", msg)
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s is %s of workspace %s\n", addr, role.Article(), *workspace)
		}
	case "prove":
		var unproved bool
		unproved, err = db.ProveUser(ctx, addr, hash, time.Now())
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no user %s", addr)
		}
		if err != nil {
			break
		}
		switch {
		case unproved && hash != "":
			fmt.Fprintf(stdout, "proved the address of %s; it has the new password, and its sessions and reset links ended\n", addr)
		case unproved:
			fmt.Fprintf(stdout, "proved the address of %s; its password was cleared, and its sessions and reset links ended\n", addr)
			fmt.Fprintf(stderr, "hubform users: %s has no password: they choose one by a reset link, or you set it with hubform users prove --password-stdin\n", addr)
		case hash != "":
			fmt.Fprintf(stdout, "the address of %s was proved already; it has the new password, and its sessions and reset links ended\n", addr)
		default:
			fmt.Fprintf(stdout, "the address of %s was proved already\n", addr)
		}
		if unproved || hash != "" {
			audit(ctx, db, stderr, accounts.Event{Action: accounts.ActionAddressProved, Target: addr})
		}
	case "remove":
		err = db.DeleteUser(ctx, addr)
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no user %s", addr)
		}
		if err == nil {
			fmt.Fprintf(stdout, "removed user %s\n", addr)
		}
	case "list":
		err = listUsers(ctx, db.DB, stdout)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

func listUsers(ctx context.Context, db *sqldb.DB, w io.Writer) error {
	users, err := db.Users(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tADDED\tPROVED")
	for _, u := range users {
		proved := "no"
		if u.Proved() {
			proved = u.ProvedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Email, u.CreatedAt.Format(time.RFC3339), proved)
	}
	return tw.Flush()
}

const tokensHelp = `
Usage: hubform tokens create --data DIR|--db URL --workspace NAME --name N [--scope SCOPE]
       hubform tokens create --data DIR|--db URL --name N --scope metrics
       hubform tokens list|revoke --data DIR|--db URL [--name N]

Manages the API tokens that automation presents to a hub's admin API, as
"Authorization: Bearer TOKEN" on /v1/admin/..., in the hub's database:
SQLite under DIR, or the PostgreSQL database --db names.

A token acts for one workspace, on its sites alone, within its scope:

  all                everything the admin API offers (the default)
  forms              read, push and publish forms
  submissions:read   read and export submissions
  counts:write       send the counts of the forms' funnels that an app
                     aggregates from its visitors (handlers.Config.CountsToken),
                     on the forms' events route, and nothing else

A token of scope metrics belongs to no workspace and reads /metrics alone.

  create   a token named N; the token is printed once, on standard output,
           and only its SHA-256 hash is stored: keep it, it cannot be shown
           again
  list     the tokens' names, workspaces and scopes, when each was created
           and last used (to the minute)
  revoke   the token named N; it is refused from the next request
`

const tokensTail = `
Example:
  hubform tokens create --data ./hub-data --workspace default --name ci > ci.token
  hubform tokens create --data ./hub-data --name prometheus --scope metrics > metrics.token
  hubform tokens create --data ./hub-data --workspace default --name shop-app --scope counts:write > counts.token
  curl -H "Authorization: Bearer $(cat ci.token)" http://127.0.0.1:8081/v1/admin/whoami
  hubform tokens revoke --data ./hub-data --name ci
`

func runTokens(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tokens", tokensHelp, tokensTail, stderr)
	data, dbURL := dbFlags(fs)
	name := fs.String("name", "", "the token's `NAME`: letters, digits, '.', '_' or '-'")
	workspace := fs.String("workspace", "", "create: the `NAME` of the workspace the token acts for")
	scopeName := fs.String("scope", string(accounts.ScopeAll), "create: what the token may do: all, forms, submissions:read, counts:write or metrics")
	verb, args, status, ok := fs.parseVerb(args, stdout, "create", "list", "revoke")
	if !ok {
		return status
	}
	fail := fs.fail
	if len(args) != 0 {
		return fail(2, "%s takes no arguments", verb)
	}
	var scope accounts.Scope
	switch verb {
	case "create", "revoke":
		if !accounts.ValidTokenName(*name) {
			return fail(2, "--name %q: want 1 to 64 letters, digits, '.', '_' or '-'", *name)
		}
		if verb == "revoke" {
			break
		}
		var err error
		if scope, err = accounts.ParseScope(*scopeName); err != nil {
			return fail(2, "--scope: %v", err)
		}
		switch {
		case scope == accounts.ScopeMetrics && *workspace != "":
			return fail(2, "a metrics token belongs to no workspace: leave out --workspace")
		case scope != accounts.ScopeMetrics && *workspace == "":
			return fail(2, "say which workspace the token acts for (--workspace NAME), or --scope metrics for a hub-wide metrics token")
		}
	}
	db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, verb == "list")
	if err != nil {
		return fail(1, "%v", err)
	}
	defer db.Close()
	switch verb {
	case "create":
		var token string
		token, err = manage.NewTokens(operatorServices(db, stderr), db).Create(ctx, manage.Operator(*workspace), *name, scope)
		if errors.Is(err, accounts.ErrExists) {
			return fail(1, "a token named %s exists already", *name)
		}
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no workspace %s (hubform workspaces list)", *workspace)
		}
		if err == nil {
			fmt.Fprintln(stdout, token)
			fmt.Fprintf(stderr, "hubform tokens: created token %s; it is shown only this once\n", *name)
		}
	case "revoke":
		// Recorded in the audit log of the token's workspace.
		err = manage.NewTokens(operatorServices(db, stderr), db).Revoke(ctx, manage.Operator(""), *name)
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no token named %s", *name)
		}
		if err == nil {
			fmt.Fprintf(stdout, "revoked token %s\n", *name)
		}
	case "list":
		err = listTokens(ctx, db.DB, stdout)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

func listTokens(ctx context.Context, db *sqldb.DB, w io.Writer) error {
	tokens, err := db.Tokens(ctx, "")
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWORKSPACE\tSCOPE\tCREATED\tLAST USED")
	for _, t := range tokens {
		used := "never"
		if !t.LastUsedAt.IsZero() {
			used = t.LastUsedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, cmp.Or(t.Workspace, "-"), t.Scope, t.CreatedAt.Format(time.RFC3339), used)
	}
	return tw.Flush()
}

// dbFlags defines --data and --db, which name a hub's database as the hub
// command's flags do.
func dbFlags(fs *flagSet) (data, dbURL *string) {
	data = fs.String("data", "hubform-data", "the hub's data `DIR`, holding its SQLite database")
	dbURL = fs.String("db", "", "the hubs' database `URL`, postgres://…; empty: SQLite in DIR")
	return data, dbURL
}

// readSecretLine reads the first line of r, without its line ending.
func readSecretLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("standard input holds no password")
	}
	return line, nil
}
