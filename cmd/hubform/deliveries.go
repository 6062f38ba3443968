package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/hubserver"
)

const deliveriesHelp = `
Usage: hubform deliveries list --site SITE --form FORM [--data DIR|--db URL] [--format FORMAT]
       hubform deliveries retry [--data DIR|--db URL] ID...

Shows and retries the deliveries of submissions, the webhooks and e-mail
their forms' settings ask for, kept as jobs in the hub's database.
Both open the database read-write, as a hub does (River's tables are created
if missing), and may run while hubs serve it.

  list   a form's deliveries, newest first: id, submission, target, outcome,
         attempts and the last error
  retry  has each delivery ID attempted again within seconds by a running
         hub, whatever its outcome; a webhook keeps its webhook-id. An e-mail
         to a visitor or to an address that has not confirmed, once delivered
         or cancelled, is never sent again

Outcomes: pending (not attempted yet, or under way), retrying (failed, to be
attempted again), delivered, failed (retried for 24 hours in vain),
cancelled (its submission, form or receiver was removed).

Formats of list:
  table  for people
  json   one array of objects with every attempt's error
`

const deliveriesTail = `
Example:
  hubform deliveries list --data ./hub-data --site acme --form contact
  hubform deliveries retry --data ./hub-data 42 43
`

func runDeliveries(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("deliveries", deliveriesHelp, deliveriesTail, stderr)
	data, dbURL := dbFlags(fs)
	site := fs.String("site", "", "the form's `SITE` (list)")
	form := fs.String("form", "", "the form's `SLUG` (list)")
	format := fs.String("format", "table", "`FORMAT` of list: table or json")
	verb, args, status, ok := fs.parseVerb(args, stdout, "list", "retry")
	if !ok {
		return status
	}
	fail := fs.fail
	var ids []int64
	switch verb {
	case "list":
		if *site == "" || *form == "" || len(args) > 0 {
			return fail(2, "list takes --site and --form, and no arguments")
		}
		if *format != "table" && *format != "json" {
			return fail(2, "--format %q: want table or json", *format)
		}
	case "retry":
		if len(args) == 0 {
			return fail(2, "retry takes the ids of deliveries, as list shows them")
		}
		for _, a := range args {
			id, err := strconv.ParseInt(a, 10, 64)
			if err != nil || id <= 0 {
				return fail(2, "%q is not a delivery id", a)
			}
			ids = append(ids, id)
		}
	}
	db, err := hubserver.OpenDatabase(ctx, *dbURL, *data, false)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer db.Close()
	q, err := db.OpenQueue(ctx, delivery.Config{Submissions: db}, delivery.Options{})
	if err != nil {
		return fail(1, "%v", err)
	}
	defer q.Close()

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if verb == "retry" {
		for _, id := range ids {
			d, err := q.Retry(ctx, id)
			if err != nil {
				out.Flush()
				return fail(1, "%v", err)
			}
			fmt.Fprintf(out, "%d\t%s\tto be attempted again (attempts so far: %d)\n", d.ID, d.SubmissionID, d.Attempts)
		}
		return 0
	}
	list, err := q.List(ctx, *site, *form)
	if err != nil {
		return fail(1, "%v", err)
	}
	if *format == "json" {
		if list == nil {
			list = []delivery.Delivery{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSUBMISSION\tTARGET\tOUTCOME\tATTEMPTS\tCREATED\tLAST ERROR")
	for _, d := range list {
		last := ""
		if n := len(d.Errors); n > 0 {
			last = oneLine(d.Errors[n-1].Error, 60)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\n", d.ID, d.SubmissionID, d.Target, d.Outcome,
			d.Attempts, d.MaxAttempts, d.CreatedAt.UTC().Format(time.DateTime), last)
	}
	if err := tw.Flush(); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// oneLine shortens s to n runes on one line, for a table cell.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
