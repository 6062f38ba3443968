// Command hubform works with hosted forms that speak the hubform protocol:
// it serves a hub (hub) and a demo site with its own hub (demo), submits
// to a hub (submit) and checks one against the protocol (conformance),
// writes Go types for forms (gen), and manages a hub's data: its forms,
// submissions, deliveries, users and API tokens. "hubform --help" lists
// the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand of hubform.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"submit":      {"send one submission, with files, to a hub", runSubmit},
	"hub":         {"serve a hub: forms from its database or a directory, SQLite, local files", runHub},
	"submissions": {"list or export the submissions a hub stored", runSubmissions},
	"demo":        {"serve a site that renders hub forms with HubForm", runDemo},
	"version":     {"print hubform's version (also: hubform --version)", runVersion},
	"users":       {"add, prove, list or remove the people who sign in to a hub's console", runUsers},
	"tokens":      {"create, list or revoke API tokens of a hub's admin API", runTokens},
	"workspaces":  {"create workspaces and manage their members and roles", runWorkspaces},
	"conformance": {"check a live hub against the protocol, rule by rule", runConformance},
	"forms":       {"push a form file to a hub's database, or pull one, with an API token", runForms},
	"deliveries":  {"list or retry the webhooks and e-mail of submissions", runDeliveries},
	"gen":         {"write a Go struct for a form's values, for handlers.Bind", runGen},
	"backup":      {"copy a hub's database and files while it serves, with a manifest", runBackup},
	"restore":     {"restore a backup into an empty data directory, checked file by file", runRestore},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status:
// 0 success, 1 failure, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, []string{"--help"}, stdout, stderr)
			}
		}
		usage(stdout)
		return 0
	case "-version", "--version":
		return runVersion(ctx, args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "hubform: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `hubform works with hosted forms that speak the hubform protocol.

Usage:
  hubform <command> [flags] [arguments]

Commands:
`)
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-12s %s\n", name, commands[name].summary)
	}
	fmt.Fprint(w, `
Examples:
  hubform demo                                      # a site with example forms, and its own hub
  hubform hub --forms ./forms --data ./hub-data     # serve a hub
  hubform submit --hub-url http://127.0.0.1:8081/v1 --site acme --form contact \
      name=Jane email=jane@example.com files=@report.pdf
  hubform submissions export --data ./hub-data --format csv
  hubform users add --data ./hub-data --email jane@example.com --password-stdin --workspace default --role admin
  hubform conformance --hub-url http://127.0.0.1:8081/v1 --site acme --form conformance
  hubform gen --package forms forms/acme/contact.json > contact.go

Run "hubform <command> --help" for a command's flags and an example,
and "hubform --version" for the version.
`)
}
