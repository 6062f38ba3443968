package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

const submissionsHelp = `
Usage: hubform submissions list|export --data DIR|--db URL [--site SITE --form FORM] [--format FORMAT]
       hubform submissions export|erase --data DIR|--db URL [--blob URL] --workspace NAME --email ADDRESS

Prints the submissions a hub stored under DIR, or in the PostgreSQL database
--db names, oldest first, those an owner marked as spam in the console
included. list and export only read, and are safe to run while hubs serve.

  list     a table for people (--format table unless given)
  export   every detail (--format json unless given)

Formats:
  table  id, time, form, number of files and the start of the values
  json   one array of objects: id, site, form, createdAt, payload, attachments,
         and clientAddr, userAgent, idempotencyKey, formVersion and spam
         when known or set
  csv    a header row, then a row per submission: id, site, form, createdAt,
         a column per value name, attachments; a cell starting with = + - @
         is prefixed with ' so that spreadsheets show it as text (-5 is '-5)

A person's data, for the requests people make about it: the submissions of
every form of workspace NAME with a value, or a value in a list, that is the
e-mail address ADDRESS in any case of letters (a longer text quoting it does
not count).

  export --email  prints them as one JSON object: {"email", "workspace",
                  "submissions": [{"site", "form", "id", "createdAt", "values",
                  "attachments": [{"filename", "size", "mime"}]}]}, and records
                  the export in the workspace's audit log
  erase --email   deletes them, their files (under DIR/files, or in the bucket
                  --blob names) and their deliveries not yet made, prints how
                  many of each, and records the counts in the workspace's audit
                  log, with the address masked (a***@example.com)

The other workspaces' submissions are untouched, even with the same address.
erase is safe to run while hubs serve too.
`

const submissionsTail = `
Example:
  hubform submissions export --data ./hub-data --site acme --form contact --format csv > contact.csv
  hubform submissions list --db 'postgres://reader:PASSWORD@db.internal/hub'
  hubform submissions export --data ./hub-data --workspace agency --email jo@example.com > jo.json
  hubform submissions erase --data ./hub-data --workspace agency --email jo@example.com
`

func runSubmissions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("submissions", submissionsHelp, submissionsTail, stderr)
	data, dbURL := dbFlags(fs)
	site := fs.String("site", "", "only this `SITE`")
	form := fs.String("form", "", "only this form `SLUG`")
	format := fs.String("format", "", "`FORMAT`: table, json or csv")
	workspace := fs.String("workspace", "", "export --email, erase: the `NAME` of the workspace whose forms to search")
	email := fs.String("email", "", "export, erase: the person's e-mail `ADDRESS`")
	blobURL := fs.String("blob", "", "erase: the hubs' file storage `URL`, s3://…; empty: DIR/files")
	verb, args, status, ok := fs.parseVerb(args, stdout, "list", "export", "erase")
	if !ok {
		return status
	}
	switch {
	case len(args) != 0:
		return fs.fail(2, "%s takes no arguments", verb)
	case verb == "erase" || *email != "" || *workspace != "":
		if verb == "list" || *site != "" || *form != "" || *format != "" && *format != "json" {
			return fs.fail(2, "a person's data is export or erase with --workspace and --email alone, from every form")
		}
		return runPerson(ctx, verb, personFlags{data: *data, db: *dbURL, blob: *blobURL, workspace: *workspace, email: *email}, stdout, stderr)
	}
	if *format == "" {
		*format = map[string]string{"list": "table", "export": "json"}[verb]
	}
	write, ok := map[string]func(context.Context, *sqldb.DB, hub.Filter, io.Writer) error{
		"table": writeTable, "json": writeJSON, "csv": writeCSV,
	}[*format]
	if !ok {
		fmt.Fprintf(stderr, "hubform submissions: --format %q: want table, json or csv\n", *format)
		return 2
	}
	db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, true)
	if err != nil {
		fmt.Fprintf(stderr, "hubform submissions: %v\n", err)
		return 1
	}
	defer db.Close()
	out := bufio.NewWriter(stdout)
	if err := write(ctx, db.DB, hub.Filter{Site: *site, Slug: *form}, out); err != nil {
		fmt.Fprintf(stderr, "hubform submissions: %v\n", err)
		return 1
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "hubform submissions: %v\n", err)
		return 1
	}
	return 0
}

func writeJSON(ctx context.Context, db *sqldb.DB, f hub.Filter, w io.Writer) error {
	return export.JSON(ctx, db, f, w)
}

func writeCSV(ctx context.Context, db *sqldb.DB, f hub.Filter, w io.Writer) error {
	return export.CSV(ctx, db, f, w)
}

func writeTable(ctx context.Context, db *sqldb.DB, f hub.Filter, w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCREATED\tFORM\tFILES\tVALUES")
	count := 0
	err := db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		count++
		summary := strings.Join(strings.Fields(string(s.Payload)), " ")
		if r := []rune(summary); len(r) > 60 {
			summary = string(r[:59]) + "…"
		}
		_, err := fmt.Fprintf(tw, "%s\t%s\t%s/%s\t%d\t%s\n", s.ID, s.CreatedAt.UTC().Format("2006-01-02 15:04:05"), s.Site, s.Slug, len(s.Attachments), summary)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(tw, plural(count, "submission"))
	return tw.Flush()
}

func plural(n int, noun string) string { return plurals(n, noun, noun+"s") }

// plurals counts n of a noun whose plural is not its singular and "s".
func plurals(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// personFlags are the flags of a request about a person's data.
type personFlags struct {
	data, db, blob   string
	workspace, email string
}

// runPerson exports or erases, as verb says, the submissions of a
// workspace that hold a person's address. Either is recorded in the
// workspace's audit log with the address masked, as the admin API and the
// console record them: the log must not keep what the person asked to
// have forgotten.
func runPerson(ctx context.Context, verb string, f personFlags, stdout, stderr io.Writer) int {
	fail := func(status int, format string, a ...any) int {
		fmt.Fprintf(stderr, "hubform submissions: "+format+"\n", a...)
		return status
	}
	switch {
	case f.workspace == "" || f.email == "":
		return fail(2, "%s of a person's data takes --workspace NAME and --email ADDRESS", verb)
	case !accounts.ValidWorkspaceName(f.workspace):
		return fail(2, "--workspace %q: a workspace's name is 1 to 64 letters, digits, '.', '_' or '-'", f.workspace)
	case !privacy.ValidAddress(f.email):
		return fail(2, "--email %q: want one e-mail address, such as jo@example.com", f.email)
	}
	if _, err := os.Stat(filepath.Join(f.data, "hub.db")); f.db == "" && err != nil {
		// Opened for writing, SQLite would make an empty hub there, and a
		// mistyped data directory would answer that nothing was found to erase.
		return fail(1, "no hub database in %s: give the hub's --data DIR or --db URL", f.data)
	}
	// Errors of the storage go to the log, in full; people read a sentence.
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	db, err := hubserver.OpenDatabase(ctx, f.db, f.data, false)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer db.Close()
	if _, err := db.Workspace(ctx, f.workspace); errors.Is(err, hub.ErrNotFound) {
		return fail(2, "no workspace %s (hubform workspaces list)", f.workspace)
	} else if err != nil {
		logger.Error("reading the workspace", slog.Any("error", err))
		return fail(1, "the database could not be read: see the log above")
	}
	p := &privacy.People{Store: db.DB, Logger: logger}
	// The operator's changes are recorded as the console's and the admin
	// API's are. The log says no more than a failure to record them: what
	// was done, the command prints.
	quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	data := manage.NewPrivacy(manage.Config{Sites: db, Audit: db, Logger: quiet}, p)
	operator := manage.Operator(f.workspace)
	if verb == "export" {
		out := bufio.NewWriter(stdout)
		if err := data.Export(ctx, operator, f.email, out); err != nil {
			out.Flush()
			logger.Error("exporting a person's data", slog.Any("error", err))
			return fail(1, "the export stopped short: see the log above")
		}
		if err := out.Flush(); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}

	// The files and the queue the hubs use, opened as they open them. The
	// command signs no upload URL: the local store's key is any.
	files, _, err := hubserver.OpenFiles(ctx, f.blob, f.data, "http://127.0.0.1", func() ([]byte, error) {
		key := make([]byte, localblob.MinSecretLen)
		rand.Read(key)
		return key, nil
	})
	if err != nil {
		return fail(1, "%v", err)
	}
	defer files.Close()
	q, err := db.OpenQueue(ctx, delivery.Config{Submissions: db}, delivery.Options{})
	if err != nil {
		logger.Error("opening the delivery queue", slog.Any("error", err))
		return fail(1, "the delivery queue could not be opened: see the log above")
	}
	defer q.Close()
	p.Files, p.Deliveries = files, q
	e, err := data.Erase(ctx, operator, f.email)
	if err != nil {
		logger.Error("erasing a person's data", slog.Any("error", err))
		return fail(1, "the erasure stopped after %s: see the log above, and run it again", plural(e.Submissions, "submission"))
	}
	fmt.Fprintf(stdout, "erased %s, %s, %s and %s of %s\n", plural(e.Submissions, "submission"), plural(e.Files, "file"),
		plurals(e.Deliveries, "pending delivery", "pending deliveries"), plural(e.Drafts, "draft"), privacy.Mask(f.email))
	return 0
}
