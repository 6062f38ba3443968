package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

const submissionsHelp = `
Usage: hubform submissions list|export --data DIR|--db URL [--site SITE --form FORM] [--format FORMAT]

Prints the submissions a hub stored under DIR, or in the PostgreSQL database
--db names, oldest first, those an owner marked as spam in the console
included. It only reads, and is safe to run while hubs serve.

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
`

const submissionsTail = `
Example:
  hubform submissions export --data ./hub-data --site acme --form contact --format csv > contact.csv
  hubform submissions list --db 'postgres://reader:PASSWORD@db.internal/hub'
`

func runSubmissions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("submissions", submissionsHelp, submissionsTail, stderr)
	data := fs.String("data", "hubform-data", "the hub's data `DIR` (HUBFORM_DATA)")
	dbURL := fs.String("db", "", "the hubs' database `URL`, postgres://…; empty: SQLite in DIR (HUBFORM_DB)")
	site := fs.String("site", "", "only this `SITE`")
	form := fs.String("form", "", "only this form `SLUG`")
	format := fs.String("format", "", "`FORMAT`: table, json or csv")
	args, status, ok := fs.parse(args, stdout)
	if !ok {
		return status
	}
	if len(args) != 1 || args[0] != "list" && args[0] != "export" {
		fmt.Fprintln(stderr, "hubform submissions: say list or export (see hubform submissions --help)")
		return 2
	}
	if *format == "" {
		*format = map[string]string{"list": "table", "export": "json"}[args[0]]
	}
	write, ok := map[string]func(context.Context, *sqldb.DB, hub.Filter, io.Writer) error{
		"table": writeTable, "json": writeJSON, "csv": writeCSV,
	}[*format]
	if !ok {
		fmt.Fprintf(stderr, "hubform submissions: --format %q: want table, json or csv\n", *format)
		return 2
	}
	db, err := openDB(ctx, *dbURL, *data, true)
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

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
