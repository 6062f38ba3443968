package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// submissions is a Lister of fixed submissions.
type submissions []hub.Submission

func (l submissions) ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error {
	for _, s := range l {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// payloads is a PayloadLister of fixed submissions; it counts the
// submissions it lists whole.
type payloads struct {
	submissions
	listed *int
}

func (l payloads) ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error {
	*l.listed += len(l.submissions)
	return l.submissions.ListSubmissions(ctx, f, fn)
}

func (l payloads) ListPayloads(ctx context.Context, f hub.Filter, fn func([]byte) error) error {
	for _, s := range l.submissions {
		if err := fn(s.Payload); err != nil {
			return err
		}
	}
	return nil
}

// decodedCSV is CSV as it was before the payloads were split with gjson:
// each payload decoded whole by encoding/json. The export must write the
// same bytes.
func decodedCSV(l submissions) string {
	var b bytes.Buffer
	seen := map[string]bool{}
	for _, s := range l {
		var payload map[string]json.RawMessage
		json.Unmarshal(s.Payload, &payload)
		for k := range payload {
			seen[k] = true
		}
	}
	var names []string
	for k := range seen {
		names = append(names, k)
	}
	slices.Sort(names)
	cw := &safeCSV{w: csv.NewWriter(&b)}
	cw.Write(slices.Concat([]string{"id", "site", "form", "createdAt"}, names, []string{"attachments", "ending", "calculations"}))
	for _, s := range l {
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
		calcs := ""
		if len(s.Calculations) > 0 {
			b, _ := json.Marshal(s.Calculations)
			calcs = string(b)
		}
		cw.Write(append(row, strings.Join(files, "; "), s.Ending, calcs))
	}
	cw.w.Flush()
	return b.String()
}

func TestCSVAsDecoded(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 0, 0, 123e6, time.UTC)
	var l submissions
	for i, p := range []string{
		`{"name":"Jane \"JJ\" Roe","message":"\u003cb\u003ehi\u003c/b\u003e, \\ and \t","email":"jane@example.com"}`,
		`{"age":42,"ratio":4.20,"big":1e21,"neg":-5,"yes":true,"none":null}`,
		`{"tags":["red","=1+1",3,null,["x","y"]],"address":{"city":"Zürich","zip":"8001"}}`,
		`{"na\u006de":"escaped key","formula":"=SUM(A1)","plus":"+1","at":"@x","dash":"-","tab":"\tx","cr":"\rx"}`,
		`{"name":"first","name":"second wins"}`,
		`{"emoji":"😀 \ud83d\ude00","nbsp":"a\u00a0b","nl":"line1\nline2"}`,
		`{"lone":"a\ud800b","pair":"\ud83d","bad":"\udc00\ud83d x"}`,
		`{}`,
	} {
		l = append(l, hub.Submission{ID: "0" + string(rune('a'+i)), Site: "acme", Slug: "contact", CreatedAt: at.Add(time.Duration(i) * time.Second),
			Payload: json.RawMessage(p)})
	}
	l[2].Attachments = []hubclient.Attachment{{Key: "uploads/a/b/c.pdf", Filename: "=c.pdf"}, {Key: "uploads/a/b/d.txt", Filename: "d.txt"}}
	l[1].Calculations = map[string]any{"total": 35.0, "score": 2.0}
	want := decodedCSV(l)
	if !strings.Contains(want, `,"{""score"":2,""total"":35}"`) {
		t.Fatalf("the reference CSV lacks the calculations: %s", want)
	}

	var plain bytes.Buffer
	if err := CSV(context.Background(), l, hub.Filter{}, &plain); err != nil {
		t.Fatal(err)
	}
	if plain.String() != want {
		t.Errorf("CSV of a Lister:\n%s\nwant, as decoded:\n%s", plain.String(), want)
	}
	listed := 0
	var split bytes.Buffer
	if err := CSV(context.Background(), payloads{l, &listed}, hub.Filter{}, &split); err != nil {
		t.Fatal(err)
	}
	if split.String() != want {
		t.Errorf("CSV of a PayloadLister:\n%s\nwant, as decoded:\n%s", split.String(), want)
	}
	if listed != len(l) {
		t.Errorf("CSV of a PayloadLister listed %d whole submissions, want %d: the columns come from the payloads alone", listed, len(l))
	}
}

// late is a PayloadLister whose first pass misses the last submission, as
// if it were stored between the passes.
type late struct{ submissions }

func (l late) ListPayloads(ctx context.Context, f hub.Filter, fn func([]byte) error) error {
	for _, s := range l.submissions[:len(l.submissions)-1] {
		if err := fn(s.Payload); err != nil {
			return err
		}
	}
	return nil
}

func TestCSVSubmissionBetweenPasses(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	l := submissions{
		{ID: "01", Site: "acme", Slug: "contact", CreatedAt: at, Payload: json.RawMessage(`{"email":"a@example.com","name":"Ann"}`)},
		{ID: "02", Site: "acme", Slug: "contact", CreatedAt: at, Payload: json.RawMessage(`{"added":"new field","name":"Bo"}`)},
	}
	var b bytes.Buffer
	if err := CSV(context.Background(), late{l}, hub.Filter{}, &b); err != nil {
		t.Fatal(err)
	}
	want := "id,site,form,createdAt,email,name,attachments,ending,calculations\n" +
		"01,acme,contact,2026-11-27T09:00:00Z,a@example.com,Ann,,,\n" +
		"02,acme,contact,2026-11-27T09:00:00Z,,Bo,,,\n"
	if b.String() != want {
		t.Errorf("CSV =\n%s\nwant the late name left out:\n%s", b.String(), want)
	}
}
