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

	"github.com/tidwall/gjson"

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
	list := arrayWriter{w: w}
	if err := db.ListSubmissions(ctx, f, func(s hub.Submission) error { return list.add(s) }); err != nil {
		return err
	}
	return list.end("\n")
}

// arrayWriter writes the elements of a JSON array whose "[" is written,
// one a line, indented by two spaces.
type arrayWriter struct {
	w io.Writer
	n int
}

func (a *arrayWriter) add(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if a.n > 0 {
		io.WriteString(a.w, ",")
	}
	a.n++
	io.WriteString(a.w, "\n  ")
	_, err = a.w.Write(data)
	return err
}

// end closes the array, then writes after.
func (a *arrayWriter) end(after string) error {
	if a.n > 0 {
		io.WriteString(a.w, "\n")
	}
	_, err := io.WriteString(a.w, "]"+after)
	return err
}

// PayloadLister is a Lister that also streams the payloads alone, as
// sqldb.DB does: CSV gathers its columns from them.
type PayloadLister interface {
	Lister
	// ListPayloads calls fn with the payload of each submission f
	// selects; the payload is valid until fn returns.
	ListPayloads(ctx context.Context, f hub.Filter, fn func(payload []byte) error) error
}

// CSV writes the submissions f selects as CSV: a header row, then a row
// per submission, a column per value name, then its files, the id of the
// ending it reached ("ending", empty for none) and the values the hub
// worked out for it ("calculations", a JSON object by calculation name,
// empty for none), every cell neutralised against spreadsheet formulas. The names are gathered in a first pass, of the
// payloads alone when db is a PayloadLister, so no submission is held in
// memory.
func CSV(ctx context.Context, db Lister, f hub.Filter, w io.Writer) error {
	seen := map[string]bool{}
	gather := func(payload []byte) error {
		gjson.ParseBytes(payload).ForEach(func(key, _ gjson.Result) bool {
			if name := jsonString(key); !seen[name] {
				seen[name] = true
			}
			return true
		})
		return nil
	}
	var err error
	if pl, ok := db.(PayloadLister); ok {
		err = pl.ListPayloads(ctx, f, gather)
	} else {
		err = db.ListSubmissions(ctx, f, func(s hub.Submission) error { return gather(s.Payload) })
	}
	if err != nil {
		return err
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	slices.Sort(names)
	column := make(map[string]int, len(names))
	for i, name := range names {
		column[name] = i
	}
	const before = 4 // id, site, form, createdAt
	cw := &safeCSV{w: csv.NewWriter(w)}
	cw.Write(slices.Concat([]string{"id", "site", "form", "createdAt"}, names, []string{"attachments", "ending", "calculations"}))
	row := make([]string, before+len(names)+3)
	err = db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		clear(row)
		row[0], row[1], row[2], row[3] = s.ID, s.Site, s.Slug, s.CreatedAt.UTC().Format(time.RFC3339Nano)
		gjson.ParseBytes(s.Payload).ForEach(func(key, value gjson.Result) bool {
			// A name the first pass did not see, of a submission stored
			// between the passes, has no column.
			if i, ok := column[jsonString(key)]; ok {
				row[before+i] = jsonCell(value)
			}
			return true
		})
		var files []string
		for _, a := range s.Attachments {
			files = append(files, a.Filename+" ("+a.Key+")")
		}
		row[len(row)-3] = strings.Join(files, "; ")
		row[len(row)-2] = s.Ending
		if len(s.Calculations) > 0 {
			b, err := json.Marshal(s.Calculations)
			if err != nil {
				return err
			}
			row[len(row)-1] = string(b)
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.w.Flush()
	return cw.w.Error()
}

// jsonString returns the text of a JSON string as encoding/json decodes
// it. gjson splits the payload; encoding/json decodes what has escapes, so
// that the export reads every payload as the rest of the hub does.
func jsonString(r gjson.Result) string {
	if !strings.Contains(r.Raw, `\`) {
		return r.Str
	}
	var s string
	json.Unmarshal([]byte(r.Raw), &s)
	return s
}

// jsonCell is Cell of a payload's value.
func jsonCell(r gjson.Result) string {
	if r.Type == gjson.String {
		return jsonString(r)
	}
	var v any
	json.Unmarshal([]byte(r.Raw), &v)
	return Cell(v)
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
