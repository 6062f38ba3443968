package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/conformance"
)

const conformanceHelp = `
Usage: hubform conformance --hub-url URL --site SITE --form FORM [flags]
       hubform conformance --print-form

Checks a live hub against the hubform protocol: every rule that can be
observed from outside (the schema, submit and upload-url routes, the 415 for
form posts, honeypots, uploads, captcha). Prints one line per check: its
status (PASS, FAIL, SKIP or INFO), its id, what it checks with its section
of the protocol reference (hubclient/PROTOCOL.md), and below a FAIL what was
expected and what came back. INFO lines report what the protocol leaves open
(size limits, CORS, rate limits) and never fail.

The form under test must have the fields of the conformance form, which
--print-form prints as a form file of this project's hub; create a form with
those fields on the hub you check. Its fields of the newer types (ratings,
date and time, a ranking, pictures, content) are optional, a group per
family: a hub that lacks a family gets its types.* check skipped as not
supported, not failed. The run stores two submissions, each with its name
"Conformance check", and one per family of types the form has, and uploads
a few small files in that form; a
hub that takes files in parts also gets one with a file of 64 MiB sent in
parts (the form printed takes files that large), and a hub that keeps drafts
of the form one that finishes a draft (the form printed keeps drafts).
Beside this project's hub, --data or --db lets the honeypot check read the
hub's submissions to see that a trapped one was not stored.
`

const conformanceExample = `
Exit status: 0 when no check failed, 1 when one did or --data or --db cannot
be read, 2 for a bad command line.

Example:
  hubform conformance --print-form > forms/acme/conformance.json
  hubform conformance --hub-url http://127.0.0.1:8081/v1 --site acme --form conformance
`

func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("conformance", conformanceHelp, conformanceExample, stderr)
	hubURL := fs.String("hub-url", hubclient.DefaultHubURL, "hub endpoint base `URL`, ending in the protocol version")
	site := fs.String("site", "", "`SITE` id of the form under test, required")
	form := fs.String("form", "", "`SLUG` of the form under test, required")
	token := fs.String("captcha-token", "", "captcha `TOKEN` sent with the submissions that must be accepted, for a form\n"+
		"that asks for a captcha; without it those checks are skipped")
	oddSite := fs.String("odd-site", "", "`SITE` of a second form whose site and slug need escaping (spaces, slashes,\n"+
		"non-ASCII); with --odd-form, checks that the hub serves its schema")
	oddForm := fs.String("odd-form", "", "`SLUG` of that second form")
	data := fs.String("data", "", "with this project's hub: its data `DIR`, read to see that a honeypot\n"+
		"submission is not stored (SQLite in DIR)")
	dbURL := fs.String("db", "", "with hubs of this project on PostgreSQL: their database `URL`, read for the same")
	timeout := fs.Duration("timeout", 30*time.Second, "give up on each request after this long")
	asJSON := fs.Bool("json", false, "print the results as one JSON document")
	printForm := fs.Bool("print-form", false, "print the conformance form and exit")
	if rest, status, ok := fs.parse(args, stdout); !ok {
		return status
	} else if len(rest) > 0 {
		fmt.Fprintf(stderr, "hubform conformance: unexpected argument %q (see hubform conformance --help)\n", rest[0])
		return 2
	}
	if *printForm {
		fmt.Fprint(stdout, conformance.Form)
		return 0
	}
	if *site == "" || *form == "" {
		fmt.Fprintln(stderr, "hubform conformance: --site and --form are required (see hubform conformance --help)")
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "hubform conformance: --timeout must be positive")
		return 2
	}
	opts := conformance.Options{
		HubURL: *hubURL, Site: *site, Form: *form, CaptchaToken: *token,
		OddSite: *oddSite, OddForm: *oddForm, Timeout: *timeout,
	}
	if *data != "" || *dbURL != "" {
		db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, true)
		if err != nil {
			fmt.Fprintf(stderr, "hubform conformance: %v\n", err)
			return 1
		}
		defer db.Close()
		opts.Stored = func(ctx context.Context) (int, error) {
			return db.CountSubmissions(ctx, hub.Filter{Site: *site, Slug: *form})
		}
	}
	report, err := conformance.Run(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "hubform conformance: %v\n", err)
		return 2
	}
	if *asJSON {
		out, _ := json.MarshalIndent(report, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeReport(stdout, report)
	}
	if len(report.Failed()) > 0 {
		return 1
	}
	return 0
}

// writeReport prints one line per check and, indented below it, the
// detail of a check that did not simply pass.
func writeReport(w io.Writer, report *conformance.Report) {
	for _, r := range report.Results {
		fmt.Fprintf(w, "%-4s  %-20s %s (%s)\n", strings.ToUpper(string(r.Status)), r.ID, r.Checks, r.Section)
		if r.Detail != "" {
			fmt.Fprintf(w, "      %s\n", r.Detail)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped, %d for information\n",
		report.Count(conformance.Pass), report.Count(conformance.Fail), report.Count(conformance.Skip), report.Count(conformance.Info))
}
