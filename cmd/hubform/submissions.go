package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

const submissionsHelp = `
Usage: hubform submissions list|export --data DIR|--db URL [--site SITE --form FORM] [--format FORMAT]

Prints the submissions a hub stored under DIR, or in the PostgreSQL database
--db names, oldest first. It only reads, and is safe to run while hubs serve.

  list     a table for people (--format table unless given)
  export   every detail (--format json unless given)

Formats:
  table  id, time, form, number of files and the start of the values
  json   one array of objects: id, site, form, createdAt, payload, attachments,
         and clientAddr, userAgent and idempotencyKey when known
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
	data := fs.String("data", envOr("HUBFORM_DATA", "hubform-data"), "the hub's data `DIR` (HUBFORM_DATA)")
	dbURL := fs.String("db", envOr("HUBFORM_DB", ""), "the hubs' database `URL`, postgres://…; empty: SQLite in DIR (HUBFORM_DB)")
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
	if err := write(ctx, db, hub.Filter{Site: *site, Form: *form}, out); err != nil {
		fmt.Fprintf(stderr, "hubform submissions: %v\n", err)
		return 1
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "hubform submissions: %v\n", err)
		return 1
	}
	return 0
}

// writeJSON streams one JSON array, a submission at a time.
func writeJSON(ctx context.Context, db *sqldb.DB, f hub.Filter, w io.Writer) error {
	io.WriteString(w, "[")
	first := true
	err := db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		data, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if !first {
			io.WriteString(w, ",")
		}
		first = false
		io.WriteString(w, "\n  ")
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	if !first {
		io.WriteString(w, "\n")
	}
	_, err = io.WriteString(w, "]\n")
	return err
}

// writeCSV writes a column per value name. The names are gathered in a
// first pass, so no submission is held in memory.
func writeCSV(ctx context.Context, db *sqldb.DB, f hub.Filter, w io.Writer) error {
	seen := map[string]bool{}
	err := db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		var payload map[string]json.RawMessage
		json.Unmarshal(s.Payload, &payload)
		for k := range payload {
			seen[k] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	slices.Sort(names)
	cw := &safeCSV{w: csv.NewWriter(w)}
	cw.Write(slices.Concat([]string{"id", "site", "form", "createdAt"}, names, []string{"attachments"}))
	err = db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		var payload map[string]any
		json.Unmarshal(s.Payload, &payload)
		row := []string{s.ID, s.Site, s.Form, s.CreatedAt.UTC().Format(time.RFC3339Nano)}
		for _, k := range names {
			row = append(row, csvCell(payload[k]))
		}
		var files []string
		for _, a := range s.Attachments {
			files = append(files, a.Filename+" ("+a.Key+")")
		}
		return cw.Write(append(row, strings.Join(files, "; ")))
	})
	if err != nil {
		return err
	}
	cw.w.Flush()
	return cw.w.Error()
}

// safeCSV writes rows whose every cell went through csvSafe, the header
// and the hub's own columns included: a value name, a file name or any
// other text a visitor chose must never reach a spreadsheet as a formula.
type safeCSV struct{ w *csv.Writer }

func (s *safeCSV) Write(row []string) error {
	for i, cell := range row {
		row[i] = csvSafe(cell)
	}
	return s.w.Write(row)
}

// csvSafe quotes a cell that a spreadsheet would run as a formula, one
// starting with =, +, -, @, a tab or a carriage return, with a leading '.
// A number such as -5 then reads '-5: text, as every cell of the export is.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// csvCell renders a value for a spreadsheet: text as is, lists joined,
// anything else as JSON. safeCSV neutralises formulas when it is written.
func csvCell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = csvCell(e)
		}
		return strings.Join(parts, "; ")
	}
	b, _ := json.Marshal(v)
	return string(b)
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
		_, err := fmt.Fprintf(tw, "%s\t%s\t%s/%s\t%d\t%s\n", s.ID, s.CreatedAt.UTC().Format("2006-01-02 15:04:05"), s.Site, s.Form, len(s.Attachments), summary)
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
