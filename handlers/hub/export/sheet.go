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
	"github.com/hubform/hubform/hubclient"
)

// Sheet lays an export out for people, as the console's table shows the
// submissions: a column per question of the form, in the form's order,
// under its label, answers in words, files as links.
type Sheet struct {
	// Title is the form's title.
	Title   string
	Columns []SheetColumn
	// FileURL returns the absolute link that downloads the n-th file of
	// submission id.
	FileURL func(id string, n int) string
	// Location is the time zone of the times; nil is UTC.
	Location *time.Location
	// Endings are the titles of the form's endings by id, nil for a form
	// without any. When set, the sheet says which ending each submission
	// reached (Ending): a column "Ending" (for programs "ending") after
	// its time, in JSON a member "ending".
	Endings map[string]string
}

// Ending is how the sheet names the ending id: its title, the id itself
// for an ending the form no longer has (or one without a title), "" for
// none, the default ending.
func (sh Sheet) Ending(id string) string {
	if id == "" {
		return ""
	}
	if t := sh.Endings[id]; t != "" {
		return t
	}
	return id
}

// SheetColumn is a question of the form.
type SheetColumn struct {
	Name, Label string
	// File marks a file field: its cells link to the files chosen in it.
	File bool
	// Options name a choice's value in words, by value.
	Options map[string]string
	// Part, when set, is the member of the field's object value the
	// column holds: a matrix's row, an address's part. Its name for
	// programs is "name.part".
	Part string
	// Calculation, when set, makes the column a calculation's: its cells
	// are the values stored with the submissions, written by it.
	Calculation func(v any) string
}

// key is the column's name for programs: the field's, or "name.part".
func (c SheetColumn) key() string {
	if c.Part == "" {
		return c.Name
	}
	return c.Name + "." + c.Part
}

// SheetTime is how a sheet writes a submission's time, in its Location:
// a form spreadsheets read as a date and time.
const SheetTime = "2006-01-02 15:04:05"

// layout returns the sheet's columns followed by those of the names in
// extra that the form lacks, and whether the form has no file column, so
// that the files need one of their own.
func (sh Sheet) layout(extra []string) (cols []SheetColumn, otherFiles bool) {
	cols = append([]SheetColumn(nil), sh.Columns...)
	known := make(map[string]bool, len(cols))
	otherFiles = true
	for _, c := range cols {
		known[c.Name] = true
		if c.File {
			otherFiles = false
		}
	}
	for _, name := range extra {
		if !known[name] {
			cols = append(cols, SheetColumn{Name: name, Label: name})
		}
	}
	return cols, otherFiles
}

func (sh Sheet) location() *time.Location {
	if sh.Location == nil {
		return time.UTC
	}
	return sh.Location
}

// SheetCSV writes the submissions f selects as CSV laid out by sh: a row
// of the questions' labels, a row of their names (for programs), then a
// row per submission: its id, its time in sh's time zone, its answers
// and links to its files. A name the form lacks, of a submission sent
// to another version, gets a column after the form's, found in a first
// pass over the payloads as CSV does. Every cell is neutralised against
// spreadsheet formulas.
func SheetCSV(ctx context.Context, db Lister, f hub.Filter, sh Sheet, w io.Writer) error {
	extra, err := names(ctx, db, f)
	if err != nil {
		return err
	}
	cols, otherFiles := sh.layout(extra)
	before := 2 // id, received, and the ending when the form has some
	if sh.Endings != nil {
		before++
	}
	width := before + len(cols)
	if otherFiles {
		width++
	}
	column := make(map[string]int, len(cols))
	firstFile := -1
	labels, machine := make([]string, width), make([]string, width)
	labels[0], labels[1] = "Submission", "Received ("+sh.location().String()+")"
	machine[0], machine[1] = "id", "createdAt"
	if sh.Endings != nil {
		labels[2], machine[2] = "Ending", "ending"
	}
	for i, c := range cols {
		column[c.key()] = before + i
		labels[before+i], machine[before+i] = c.Label, c.key()
		if c.File && firstFile < 0 {
			firstFile = before + i
		}
	}
	if otherFiles {
		labels[width-1], machine[width-1] = "Files", "attachments"
		firstFile = width - 1
	}
	cw := &safeCSV{w: csv.NewWriter(w)}
	cw.Write(labels)
	cw.Write(machine)
	row := make([]string, width)
	loc := sh.location()
	err = db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		clear(row)
		row[0], row[1] = s.ID, s.CreatedAt.In(loc).Format(SheetTime)
		if sh.Endings != nil {
			row[2] = sh.Ending(s.Ending)
		}
		gjson.ParseBytes(s.Payload).ForEach(func(key, value gjson.Result) bool {
			name := jsonString(key)
			if i, ok := column[name]; ok {
				row[i] = sheetCell(value, cols[i-before].Options)
				return true
			}
			// The parts of a matrix or an address, a column each.
			if value.IsObject() {
				value.ForEach(func(part, v gjson.Result) bool {
					if i, ok := column[name+"."+jsonString(part)]; ok {
						row[i] = sheetCell(v, cols[i-before].Options)
					}
					return true
				})
			}
			return true
		})
		for i, c := range cols {
			if c.Calculation != nil {
				row[before+i] = c.Calculation(s.Calculations[c.Name])
			}
		}
		for n, a := range s.Attachments {
			i, ok := column[a.Field]
			if !ok || !cols[i-before].File {
				i = firstFile
			}
			if row[i] != "" {
				row[i] += "\n"
			}
			row[i] += sh.FileURL(s.ID, n)
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.w.Flush()
	return cw.w.Error()
}

// names returns the value names of the payloads f selects, sorted.
func names(ctx context.Context, db Lister, f hub.Filter) ([]string, error) {
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
	out := make([]string, 0, len(seen))
	for k := range seen {
		if !hubclient.IsHoneypot(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, err
}

// sheetCell is a payload's value in words: true and false as Yes and
// No, a choice by its option's label, a list joined by "; ".
func sheetCell(r gjson.Result, options map[string]string) string {
	switch r.Type {
	case gjson.String:
		s := jsonString(r)
		if l, ok := options[s]; ok {
			return l
		}
		return s
	case gjson.True:
		return "Yes"
	case gjson.False:
		return "No"
	case gjson.Null:
		return ""
	case gjson.Number:
		return r.Raw
	}
	if r.IsArray() {
		var parts []string
		for _, e := range r.Array() {
			if s := sheetCell(e, options); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	}
	return jsonCell(r)
}

// sheetAnswer is an answer in a sheet's JSON: a question, its name, and
// the answer in words or the files chosen.
type sheetAnswer struct {
	Question string      `json:"question"`
	Name     string      `json:"name"`
	Answer   string      `json:"answer"`
	Files    []sheetFile `json:"files,omitempty"`
}

type sheetFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// sheetSubmission is a submission in a sheet's JSON.
type sheetSubmission struct {
	ID       string    `json:"id"`
	Received time.Time `json:"received"`
	Spam     bool      `json:"spam,omitempty"`
	// Ending is the title of the ending reached (Sheet.Ending).
	Ending  string        `json:"ending,omitempty"`
	Answers []sheetAnswer `json:"answers"`
}

// SheetJSON writes the submissions f selects as JSON laid out by sh: an
// object holding the form's title, its questions in order, and the
// submissions, each with its answers in the same order under their
// questions (a name the form lacks last, by name), files as links,
// streamed a submission at a time.
func SheetJSON(ctx context.Context, db Lister, f hub.Filter, sh Sheet, w io.Writer) error {
	type question struct {
		Question string `json:"question"`
		Name     string `json:"name"`
	}
	head := struct {
		Form      string     `json:"form"`
		Questions []question `json:"questions"`
	}{Form: sh.Title, Questions: []question{}}
	for _, c := range sh.Columns {
		head.Questions = append(head.Questions, question{c.Label, c.key()})
	}
	b, err := json.Marshal(head)
	if err != nil {
		return err
	}
	// The head's closing brace gives way to the list of submissions.
	io.WriteString(w, string(b[:len(b)-1])+`,"submissions":[`)
	list := arrayWriter{w: w}
	loc := sh.location()
	err = db.ListSubmissions(ctx, f, func(s hub.Submission) error {
		names, err := payloadNames(s.Payload)
		if err != nil {
			return err
		}
		cols, _ := sh.layout(names)
		values := gjson.ParseBytes(s.Payload)
		out := sheetSubmission{ID: s.ID, Received: s.CreatedAt.In(loc), Spam: s.Spam, Ending: sh.Ending(s.Ending), Answers: make([]sheetAnswer, len(cols))}
		byName := make(map[string]int, len(cols))
		firstFile := -1
		for i, c := range cols {
			byName[c.key()] = i
			out.Answers[i] = sheetAnswer{Question: c.Label, Name: c.key()}
			if c.File && firstFile < 0 {
				firstFile = i
			}
			path := gjson.Escape(c.Name)
			if c.Part != "" {
				path += "." + gjson.Escape(c.Part)
			}
			if c.Calculation != nil {
				out.Answers[i].Answer = c.Calculation(s.Calculations[c.Name])
			} else if v := values.Get(path); v.Exists() {
				out.Answers[i].Answer = sheetCell(v, c.Options)
			}
		}
		for n, a := range s.Attachments {
			i, ok := byName[a.Field]
			if !ok || !cols[i].File {
				i = firstFile
			}
			if i < 0 {
				out.Answers = append(out.Answers, sheetAnswer{Question: "Files", Name: "attachments"})
				i, firstFile = len(out.Answers)-1, len(out.Answers)-1
			}
			out.Answers[i].Files = append(out.Answers[i].Files, sheetFile{Name: a.Filename, Size: a.Size, URL: sh.FileURL(s.ID, n)})
		}
		return list.add(out)
	})
	if err != nil {
		return err
	}
	return list.end("}\n")
}

// payloadNames returns the names of a payload's values, sorted.
func payloadNames(payload []byte) ([]string, error) {
	var out []string
	gjson.ParseBytes(payload).ForEach(func(key, _ gjson.Result) bool {
		if name := jsonString(key); !hubclient.IsHoneypot(name) {
			out = append(out, name)
		}
		return true
	})
	slices.Sort(out)
	return out, nil
}
