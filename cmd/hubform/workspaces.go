package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/manage"
)

const workspacesHelp = `
Usage: hubform workspaces create|list|add-member|remove-member|set-quota --data DIR|--db URL [NAME] [flags]

Manages a hub's workspaces, in its database: SQLite under DIR, or the
PostgreSQL database --db names. A workspace owns sites, and so their forms,
submissions, files and deliveries; its members sign in to the console and
see its sites alone, each with one role:

  admin    members, tokens and settings, and all an editor may do
  editor   builds, saves, publishes and rolls back forms; reads and manages
           submissions; retries deliveries
  viewer   reads forms, reads and exports submissions

A hub starts with the workspace default, which holds the forms directory's
sites (see hubform hub --forms-workspace) and all a hub held before it had
workspaces. A site belongs to the first workspace that creates a form in it.

  create NAME --admin EMAIL     a workspace, with an existing user as its admin
  list                          the workspaces, with their members and sites
  add-member NAME --email EMAIL --role ROLE
                                make a user a member, or change their role
  remove-member NAME --email EMAIL
                                end a membership; the last admin stays
  set-quota NAME [--submissions-per-month N] [--stored-bytes N] [--mail-per-day N]
                                limit what a workspace takes; a flag left out
                                keeps its setting. Submissions and bytes: 0 is
                                no limit, and a submission over quota is
                                refused with 429. E-mails a day (UTC) the hub
                                sends for the workspace (notifications,
                                confirmations, requests to confirm an address,
                                draft links): 0 is the default, 500; over it,
                                e-mail is not sent that day.
`

const workspacesTail = `
Example:
  hubform workspaces create --data ./hub-data agency --admin ann@example.com
  hubform workspaces add-member --data ./hub-data agency --email bob@example.com --role editor
  hubform workspaces set-quota --data ./hub-data agency --submissions-per-month 10000 --stored-bytes 5000000000
  hubform workspaces set-quota --data ./hub-data agency --mail-per-day 2000
  hubform workspaces list --data ./hub-data
`

func runWorkspaces(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("workspaces", workspacesHelp, workspacesTail, stderr)
	data, dbURL := dbFlags(fs)
	admin := fs.String("admin", "", "create: the e-mail `ADDRESS` of the workspace's first admin, an existing user")
	email := fs.String("email", "", "add-member, remove-member: the member's e-mail `ADDRESS`")
	roleName := fs.String("role", "", "add-member: the member's `ROLE`, admin, editor or viewer")
	perMonth := fs.Int64("submissions-per-month", 0, "set-quota: the most submissions a calendar month (UTC), `N`; 0 is no limit")
	storedBytes := fs.Int64("stored-bytes", 0, "set-quota: the most bytes of files stored, `N`; 0 is no limit")
	mailPerDay := fs.Int64("mail-per-day", 0, fmt.Sprintf("set-quota: the most e-mails a day (UTC) the hub sends for the workspace, `N`;\n0 is the default, %d", accounts.DefaultMailPerDay))
	verb, args, status, ok := fs.parseVerb(args, stdout, "create", "list", "add-member", "remove-member", "set-quota")
	if !ok {
		return status
	}
	fail := fs.fail
	var name, addr string
	var role accounts.Role
	switch verb {
	case "list":
		if len(args) != 0 {
			return fail(2, "list takes no name")
		}
	case "create", "add-member", "remove-member", "set-quota":
		if len(args) != 1 {
			return fail(2, "%s takes one workspace NAME", verb)
		}
		if name = args[0]; !accounts.ValidWorkspaceName(name) {
			return fail(2, "%q: a workspace's name is 1 to 64 letters, digits, '.', '_' or '-'", name)
		}
		if verb == "set-quota" {
			if *perMonth < 0 || *storedBytes < 0 || *mailPerDay < 0 {
				return fail(2, "a quota is 0 or more")
			}
			break
		}
		flag, value := "--email", *email
		if verb == "create" {
			flag, value = "--admin", *admin
		}
		var err error
		if addr, err = accounts.NormalizeEmail(value); err != nil {
			return fail(2, "%s: %v", flag, err)
		}
		if verb == "add-member" {
			if role, err = accounts.ParseRole(*roleName); err != nil {
				return fail(2, "--role: %v", err)
			}
		}
	}
	db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, verb == "list")
	if err != nil {
		return fail(1, "%v", err)
	}
	defer db.Close()
	services, operator := operatorServices(db, stderr), manage.Operator(name)
	switch verb {
	case "create":
		err = manage.NewWorkspaces(services, db).Create(ctx, operator, addr)
		switch {
		case errors.Is(err, accounts.ErrExists):
			return fail(1, "a workspace %s exists already", name)
		case errors.Is(err, hub.ErrNotFound):
			return fail(1, "no user %s: add them first (hubform users add)", addr)
		case err == nil:
			fmt.Fprintf(stdout, "created workspace %s with admin %s\n", name, addr)
		}
	case "add-member":
		err = manage.NewMembers(services, db).Add(ctx, operator, addr, role)
		if msg, ok := membershipError(err, name, addr); ok {
			return fail(1, "%s", msg)
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s is %s of workspace %s\n", addr, role.Article(), name)
			if u, err := db.User(ctx, addr); err == nil && !u.Proved() {
				fmt.Fprintf(stderr, "hubform workspaces: warning: nobody proved that %s is its owner's address: whoever opened the shown invitation that made it holds the account; hubform users prove hands it to the owner\n", addr)
			}
		}
	case "remove-member":
		err = manage.NewMembers(services, db).Remove(ctx, operator, addr)
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "%s is not a member of workspace %s", addr, name)
		}
		if msg, ok := membershipError(err, name, addr); ok {
			return fail(1, "%s", msg)
		}
		if err == nil {
			fmt.Fprintf(stdout, "removed %s from workspace %s\n", addr, name)
		}
	case "set-quota":
		var w accounts.Workspace
		w, err = db.Workspace(ctx, name)
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no workspace %s (hubform workspaces list)", name)
		}
		if err != nil {
			break
		}
		q := w.Quota
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "submissions-per-month":
				q.SubmissionsPerMonth = *perMonth
			case "stored-bytes":
				q.StoredBytes = *storedBytes
			case "mail-per-day":
				q.MailPerDay = *mailPerDay
			}
		})
		err = manage.NewQuotas(services, db).Set(ctx, operator, q)
		if errors.Is(err, hub.ErrNotFound) {
			return fail(1, "no workspace %s (hubform workspaces list)", name)
		}
		if err == nil {
			fmt.Fprintf(stdout, "workspace %s: %s\n", name, manage.QuotaText(q))
		}
	case "list":
		err = listWorkspaces(ctx, db, stdout)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// membershipError says in a sentence why a change of membership was
// refused, when it was for a reason people can act on.
func membershipError(err error, workspace, email string) (string, bool) {
	switch {
	case errors.Is(err, accounts.ErrLastAdmin):
		return fmt.Sprintf("%s is the last admin of workspace %s: make another member admin first", email, workspace), true
	case errors.Is(err, hub.ErrNotFound):
		return fmt.Sprintf("no workspace %s, or no user %s (hubform workspaces list, hubform users list)", workspace, email), true
	}
	return "", false
}

func listWorkspaces(ctx context.Context, db *hubserver.Database, w io.Writer) error {
	all, err := db.Workspaces(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tMEMBERS\tSITES\tCREATED\tQUOTA")
	for _, ws := range all {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", ws.Name, ws.Members, ws.Sites, ws.CreatedAt.Format(time.RFC3339), manage.QuotaText(ws.Quota))
	}
	return tw.Flush()
}

// operatorServices is the configuration of the services the operator acts
// through on db: a change they make whose audit entry cannot be recorded
// stands, and the failure is an error on stderr.
func operatorServices(db *hubserver.Database, stderr io.Writer) manage.Config {
	return manage.Config{Sites: db, Audit: db, Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))}
}

// audit records in the audit log what the operator did from the command
// line. The change is made: a failure to record is a warning.
func audit(ctx context.Context, db *hubserver.Database, stderr io.Writer, e accounts.Event) {
	e.Actor, e.At = accounts.Operator, time.Now()
	if err := db.RecordEvents(ctx, e); err != nil {
		fmt.Fprintf(stderr, "hubform: warning: not recorded in the audit log: %v\n", err)
	}
}
