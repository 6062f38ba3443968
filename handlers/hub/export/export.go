// Package export writes submissions out for people and programs, as JSON
// and as CSV safe to open in a spreadsheet, streaming them from the
// database: nothing holds the whole set in memory.
package export

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// Lister streams submissions, as sqldb.DB does.
type Lister interface {
	ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error
}

// JSON writes the submissions f selects as one JSON array, streamed a
// submission at a time.
func JSON(ctx context.Context, db Lister, f hub.Filter, w io.Writer) error {
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

// CSV writes the submissions f selects as CSV: a header row, then a row
// per submission, a column per value name, every cell neutralised against
// spreadsheet formulas. The names are gathered in a first pass, so no
// submission is held in memory.
func CSV(ctx context.Context, db Lister, f hub.Filter, w io.Writer) error {
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
		row := []string{s.ID, s.Site, s.Slug, s.CreatedAt.UTC().Format(time.RFC3339Nano)}
		for _, k := range names {
			row = append(row, Cell(payload[k]))
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

// Cell renders a value of a payload as text, for a spreadsheet or a page:
// text as is, lists joined, anything else as JSON. It does not neutralise
// formulas; CSV does that when it writes the cell.
func Cell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = Cell(e)
		}
		return strings.Join(parts, "; ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}
