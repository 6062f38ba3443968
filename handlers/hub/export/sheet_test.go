package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// sheetOf is a sheet of an order form: a choice, a checkbox, a file.
func sheetOf(file bool) Sheet {
	sh := Sheet{Title: "Order form", Location: time.FixedZone("IST", 19800), FileURL: func(id string, n int) string {
		return "https://hub.example/console/forms/acme/order/submissions/" + id + "/files/" + strconv.Itoa(n)
	}, Columns: []SheetColumn{
		{Name: "plan", Label: "Plan", Options: map[string]string{"pro": "Professional"}},
		{Name: "agree", Label: "I agree"},
	}}
	if file {
		sh.Columns = append(sh.Columns, SheetColumn{Name: "cv", Label: "CV", File: true})
	}
	return sh
}

var sheetRows = submissions{
	{ID: "S1", CreatedAt: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"agree":true,"plan":"pro","_hp":"","old":"=1"}`),
		Attachments: []hubclient.Attachment{{Filename: "a.pdf", Field: "cv"}, {Filename: "b.pdf", Field: "cv"}}},
	{ID: "S2", CreatedAt: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"agree":false,"plan":["pro","other"]}`)},
}

// TestSheetCSV writes labels then names, the form's order, answers in
// words, files as links, a name the form lacks after the form's, and no
// honeypot.
func TestSheetCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := SheetCSV(context.Background(), sheetRows, hub.Filter{}, sheetOf(true), &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	link := "https://hub.example/console/forms/acme/order/submissions/S1/files/"
	want := [][]string{
		{"Submission", "Received (IST)", "Plan", "I agree", "CV", "old"},
		{"id", "createdAt", "plan", "agree", "cv", "old"},
		{"S1", "2026-11-28 14:30:00", "Professional", "Yes", link + "0\n" + link + "1", "'=1"},
		{"S2", "2026-11-28 15:30:00", "Professional; other", "No", "", ""},
	}
	if got, _ := json.Marshal(rows); string(got) != mustJSON(want) {
		t.Errorf("sheet CSV:\n%s\nwant\n%s", got, mustJSON(want))
	}

	// Without a file column, the files get one of their own, last.
	buf.Reset()
	SheetCSV(context.Background(), sheetRows, hub.Filter{}, sheetOf(false), &buf)
	rows, _ = csv.NewReader(&buf).ReadAll()
	if got := strings.Join(rows[1], "|"); got != "id|createdAt|plan|agree|old|attachments" || !strings.HasPrefix(rows[2][5], link+"0") {
		t.Errorf("sheet CSV without a file column: %q", rows)
	}
}

// TestSheetJSON lists the questions, then each submission's answers in
// the same order, in words, files as links.
func TestSheetJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := SheetJSON(context.Background(), sheetRows, hub.Filter{}, sheetOf(true), &buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Form        string
		Questions   []sheetAnswer
		Submissions []sheetSubmission
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if got.Form != "Order form" || len(got.Questions) != 3 || got.Questions[2].Question != "CV" || len(got.Submissions) != 2 {
		t.Fatalf("sheet JSON: %s", buf.String())
	}
	a := got.Submissions[0].Answers
	if len(a) != 4 || a[0].Answer != "Professional" || a[1].Answer != "Yes" || len(a[2].Files) != 2 ||
		a[2].Files[1].URL != "https://hub.example/console/forms/acme/order/submissions/S1/files/1" || a[3].Name != "old" {
		t.Errorf("the first submission's answers: %+v", a)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSheetParts: a matrix takes a column per row, its columns in words,
// and an address a column per part, in CSV and in JSON.
func TestSheetParts(t *testing.T) {
	good := map[string]string{"good": "Good", "bad": "Bad"}
	sh := Sheet{Title: "Survey", Columns: []SheetColumn{
		{Name: "grid", Part: "speed", Label: "Rate: Speed", Options: good},
		{Name: "grid", Part: "care", Label: "Rate: Care", Options: good},
		{Name: "ship", Part: "city", Label: "Address: City"},
		{Name: "ship", Part: "country", Label: "Address: Country"},
	}, FileURL: func(string, int) string { return "" }}
	rows := submissions{{ID: "S1", CreatedAt: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC),
		Payload: json.RawMessage(`{"grid":{"speed":"good","care":["bad","good"]},"ship":{"city":"Paris","country":"FR"}}`)}}
	var buf bytes.Buffer
	if err := SheetCSV(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Submission", "Received (UTC)", "Rate: Speed", "Rate: Care", "Address: City", "Address: Country", "Files"},
		{"id", "createdAt", "grid.speed", "grid.care", "ship.city", "ship.country", "attachments"},
		{"S1", "2026-11-28 09:00:00", "Good", "Bad; Good", "Paris", "FR", ""},
	}
	if mustJSON(got) != mustJSON(want) {
		t.Errorf("sheet CSV:\n%s\nwant\n%s", mustJSON(got), mustJSON(want))
	}
	buf.Reset()
	if err := SheetJSON(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	var js struct{ Submissions []sheetSubmission }
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	a := js.Submissions[0].Answers
	if len(a) != 4 || a[0].Name != "grid.speed" || a[0].Answer != "Good" || a[1].Answer != "Bad; Good" || a[2].Answer != "Paris" || a[3].Name != "ship.country" || a[3].Answer != "FR" {
		t.Errorf("sheet JSON answers: %+v", a)
	}
}

// TestSheetCalculations: a calculation's column holds the value stored
// with each submission, as the column writes it, in CSV and in JSON.
func TestSheetCalculations(t *testing.T) {
	rows := submissions{
		{ID: "S1", CreatedAt: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"plan":"pro"}`), Calculations: map[string]any{"total": 35.0}},
		{ID: "S2", CreatedAt: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"plan":"pro"}`)},
	}
	sh := sheetOf(false)
	sh.Columns = append(sh.Columns, SheetColumn{Name: "total", Label: "Total", Calculation: func(v any) string {
		if v == nil {
			return ""
		}
		return "EUR " + strconv.FormatFloat(v.(float64), 'f', 2, 64)
	}})
	var buf bytes.Buffer
	if err := SheetCSV(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	got, _ := csv.NewReader(&buf).ReadAll()
	if len(got) != 4 || got[0][4] != "Total" || got[2][4] != "EUR 35.00" || got[3][4] != "" {
		t.Errorf("sheet CSV: %q", got)
	}
	buf.Reset()
	if err := SheetJSON(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `{"question":"Total","name":"total","answer":"EUR 35.00"}`) {
		t.Errorf("sheet JSON lacks the total: %s", buf.String())
	}
}

// TestSheetEndings: a sheet of a form with endings names the ending each
// submission reached, by title, after its time; an ending the form no
// longer has by its id; the default ending by nothing. The raw CSV names
// it by id.
func TestSheetEndings(t *testing.T) {
	sh := sheetOf(false)
	sh.Endings = map[string]string{"big": "A big party!"}
	rows := submissions{
		{ID: "S1", CreatedAt: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"plan":"pro"}`), Ending: "big"},
		{ID: "S2", CreatedAt: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"plan":"pro"}`), Ending: "gone"},
		{ID: "S3", CreatedAt: time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"plan":"pro"}`)},
	}
	var buf bytes.Buffer
	if err := SheetCSV(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var endings []string
	for _, r := range got {
		endings = append(endings, r[2])
	}
	if strings.Join(endings, "|") != "Ending|ending|A big party!|gone|" || got[2][3] != "Professional" {
		t.Errorf("sheet CSV: %q", got)
	}
	buf.Reset()
	if err := SheetJSON(context.Background(), rows, hub.Filter{}, sh, &buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Submissions []struct {
			Ending string `json:"ending"`
		} `json:"submissions"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil || len(doc.Submissions) != 3 ||
		doc.Submissions[0].Ending != "A big party!" || doc.Submissions[1].Ending != "gone" || doc.Submissions[2].Ending != "" {
		t.Errorf("sheet JSON: %s (%v)", buf.String(), err)
	}
	buf.Reset()
	if err := CSV(context.Background(), rows, hub.Filter{}, &buf); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(buf.String(), "\n"); !strings.HasSuffix(lines[0], ",attachments,ending,calculations") || !strings.HasSuffix(lines[1], ",big,") || !strings.HasSuffix(lines[3], ",,") {
		t.Errorf("raw CSV:\n%s", buf.String())
	}
}
