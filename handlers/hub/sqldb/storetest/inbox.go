package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// ids returns the ids of the submissions f selects, checking that the
// count agrees.
func ids(t *testing.T, db interface {
	ListSubmissions(context.Context, hub.Filter, func(hub.Submission) error) error
	CountSubmissions(context.Context, hub.Filter) (int, error)
}, f hub.Filter) []string {
	t.Helper()
	var out []string
	if err := db.ListSubmissions(context.Background(), f, func(s hub.Submission) error {
		out = append(out, s.ID)
		return nil
	}); err != nil {
		t.Fatalf("ListSubmissions(%+v): %v", f, err)
	}
	n, err := db.CountSubmissions(context.Background(), f)
	if err != nil || (f.Limit == 0 && n != len(out)) {
		t.Errorf("CountSubmissions(%+v) = %d, %v; listed %d", f, n, err, len(out))
	}
	return out
}

func testInboxFilters(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	for i, payload := range []string{
		`{"name":"Jane Doe","message":"Hello there"}`,
		`{"name":"John","message":"50% off, click_here"}`,
		`{"name":"Zoë \"Z\"","message":"<b>bold</b>"}`,
		`{"name":"Ann","tags":["Red","green"]}`,
		`{"name":"Bob","message":"a\\b"}`,
	} {
		s := Submission(fmt.Sprintf("%02d", i+1))
		s.CreatedAt = T0.Add(time.Duration(i) * 24 * time.Hour)
		// As the hub stores them: encoded by encoding/json.
		var v any
		if err := json.Unmarshal([]byte(payload), &v); err != nil {
			t.Fatal(err)
		}
		s.Payload, _ = json.Marshal(v)
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	other := Submission("09")
	other.Slug, other.Payload = "other", json.RawMessage(`{"name":"Jane Doe"}`)
	if err := db.CreateSubmission(ctx, other); err != nil {
		t.Fatal(err)
	}
	if n, err := db.SetSpam(ctx, "site", "form", []string{"02", "09"}, true); err != nil || n != 1 {
		t.Fatalf("SetSpam(02, 09 of another form) = %d, %v; want 1", n, err)
	}
	form := hub.Filter{Site: "site", Slug: "form"}
	with := func(change func(*hub.Filter)) hub.Filter { f := form; change(&f); return f }
	tests := []struct {
		name string
		f    hub.Filter
		want []string
	}{
		{"all", form, []string{"01", "02", "03", "04", "05"}},
		{"search ignores ASCII case", with(func(f *hub.Filter) { f.Search = "jane DOE" }), []string{"01"}},
		{"search in lists", with(func(f *hub.Filter) { f.Search = "green" }), []string{"04"}},
		{"percent is literal", with(func(f *hub.Filter) { f.Search = "50%" }), []string{"02"}},
		{"percent alone", with(func(f *hub.Filter) { f.Search = "%" }), []string{"02"}},
		{"underscore is literal", with(func(f *hub.Filter) { f.Search = "k_h" }), []string{"02"}},
		{"quotes as typed", with(func(f *hub.Filter) { f.Search = `Zoë "Z"` }), []string{"03"}},
		{"angle brackets as typed", with(func(f *hub.Filter) { f.Search = "<b>" }), []string{"03"}},
		{"backslash as typed", with(func(f *hub.Filter) { f.Search = `a\b` }), []string{"05"}},
		{"no match", with(func(f *hub.Filter) { f.Search = "nobody" }), nil},
		{"two characters", with(func(f *hub.Filter) { f.Search = "oE" }), []string{"01"}},
		{"one letter with a diacritic", with(func(f *hub.Filter) { f.Search = "ë" }), []string{"03"}},
		{"a page of dates", with(func(f *hub.Filter) { f.From, f.Newest, f.Limit = T0.Add(2*24*time.Hour), true, 5 }), []string{"05", "04", "03"}},
		{"a page of dates before a cursor", with(func(f *hub.Filter) { f.To, f.Newest, f.Limit, f.Before = T0.Add(3*24*time.Hour), true, 2, "03" }), []string{"02", "01"}},
		{"a page of spam and dates", with(func(f *hub.Filter) { f.To, f.Spam, f.Limit = T0.Add(2*24*time.Hour), hub.OnlySpam, 5 }), []string{"02"}},
		{"a page of a search", with(func(f *hub.Filter) { f.Search, f.Newest, f.Limit = "JANE", true, 1 }), []string{"01"}},
		{"from", with(func(f *hub.Filter) { f.From = T0.Add(3 * 24 * time.Hour) }), []string{"04", "05"}},
		{"to excludes its instant", with(func(f *hub.Filter) { f.To = T0.Add(2 * 24 * time.Hour) }), []string{"01", "02"}},
		{"from and to", with(func(f *hub.Filter) { f.From, f.To = T0.Add(time.Hour), T0.Add(3*24*time.Hour+time.Millisecond) }), []string{"02", "03", "04"}},
		{"not spam", with(func(f *hub.Filter) { f.Spam = hub.NotSpam }), []string{"01", "03", "04", "05"}},
		{"only spam", with(func(f *hub.Filter) { f.Spam = hub.OnlySpam }), []string{"02"}},
		{"all together, newest first, paged", with(func(f *hub.Filter) {
			f.Search, f.From, f.Spam, f.Newest, f.Before, f.Limit = "n", T0.Add(time.Hour), hub.NotSpam, true, "05", 1
		}), []string{"04"}},
	}
	// As stored, then once the submissions queued for search (on SQLite)
	// are indexed.
	for _, when := range []string{"stored", "indexed"} {
		if when == "indexed" {
			if _, err := db.IndexQueued(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, tt := range tests {
			if got := ids(t, db, tt.f); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s, %s: %+v selects %v, want %v", when, tt.name, tt.f, got, tt.want)
			}
			checkPayloads(t, db, tt.f)
		}
	}
	// The mark is kept and read back; taking it off restores the default.
	s, err := db.Submission(ctx, "02")
	if err != nil || !s.Spam {
		t.Errorf("Submission(02) = %+v, %v; want marked as spam", s, err)
	}
	if s, err := db.Submission(ctx, "09"); err != nil || s.Spam {
		t.Errorf("the other form's submission: %+v, %v; want not marked", s, err)
	}
	if n, err := db.SetSpam(ctx, "site", "form", []string{"02"}, false); err != nil || n != 1 {
		t.Fatalf("SetSpam(02, false) = %d, %v", n, err)
	}
	if got := ids(t, db, with(func(f *hub.Filter) { f.Spam = hub.NotSpam })); len(got) != 5 {
		t.Errorf("after unmarking, not spam: %v", got)
	}
}

func testFormVersionKept(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	versioned, directory := Submission("01"), Submission("02")
	versioned.FormVersion = 7
	for _, s := range []hub.Submission{versioned, directory} {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]int64{"01": 7, "02": 0} {
		if s, err := db.Submission(ctx, id); err != nil || s.FormVersion != want {
			t.Errorf("Submission(%s).FormVersion = %d, %v; want %d", id, s.FormVersion, err, want)
		}
	}
}

// withFiles stores a submission of site and form carrying n uploads, and
// returns their keys.
func withFiles(t *testing.T, db submissionsAndUploads, id, site, form string, created time.Time, n int) []string {
	s := Submission(id)
	s.Site, s.Slug, s.CreatedAt = site, form, created
	return storeWithFiles(t, db, s, n)
}

// submissionsAndUploads is what storeWithFiles stores through: a
// database, or one that fails on purpose.
type submissionsAndUploads interface {
	CreateSubmission(context.Context, hub.Submission) error
	CreateUpload(context.Context, hub.Upload) error
}

// storeWithFiles stores s carrying n new uploads of its form, and returns
// their keys.
func storeWithFiles(t *testing.T, db submissionsAndUploads, s hub.Submission, n int) []string {
	t.Helper()
	var keys []string
	s.Attachments = nil
	for i := range n {
		u := Upload(fmt.Sprintf("uploads/%s-%d", s.ID, i))
		u.Site, u.Slug = s.Site, s.Slug
		if err := db.CreateUpload(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		keys, s.Attachments = append(keys, u.Key), append(s.Attachments, Attachment(u))
	}
	if err := db.CreateSubmission(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return keys
}

func testDeleteSubmissions(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	keys1 := withFiles(t, db, "01", "site", "form", T0, 2)
	withFiles(t, db, "02", "site", "form", T0, 0)
	keys3 := withFiles(t, db, "03", "site", "form", T0, 1)
	keysOther := withFiles(t, db, "04", "site", "other", T0, 1)

	d, err := db.DeleteSubmissions(ctx, "site", "form", []string{"01", "02", "04", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(d.Files)
	if d.Submissions != 2 || !reflect.DeepEqual(d.Files, keys1) {
		t.Errorf("DeleteSubmissions(01, 02, 04 of another form, nope) = %+v; want 2 and files %v", d, keys1)
	}
	if got := ids(t, db, hub.Filter{}); !reflect.DeepEqual(got, []string{"03", "04"}) {
		t.Errorf("left %v, want 03 and 04", got)
	}
	for _, k := range keys1 {
		if _, err := db.Upload(ctx, k); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("Upload(%s) of a deleted submission: %v, want not found", k, err)
		}
	}
	for _, k := range append(keys3, keysOther...) {
		if _, err := db.Upload(ctx, k); err != nil {
			t.Errorf("Upload(%s) of a kept submission: %v", k, err)
		}
	}
	if d, err := db.DeleteSubmissions(ctx, "site", "form", []string{"01"}); err != nil || d.Submissions != 0 || len(d.Files) != 0 {
		t.Errorf("deleting again: %+v, %v; want nothing", d, err)
	}
	// More ids than one statement takes.
	many := make([]string, 0, 1200)
	for i := range 1200 {
		many = append(many, fmt.Sprintf("x%04d", i))
	}
	many = append(many, "03")
	if d, err := db.DeleteSubmissions(ctx, "site", "form", many); err != nil || d.Submissions != 1 || !reflect.DeepEqual(d.Files, keys3) {
		t.Errorf("DeleteSubmissions(1201 ids) = %+v, %v; want 03 and its file", d, err)
	}
}

func testDeleteSubmissionsBefore(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	day := 24 * time.Hour
	old1 := withFiles(t, db, "01", "site", "form", T0, 1)
	old2 := withFiles(t, db, "02", "site", "form", T0.Add(day), 1)
	withFiles(t, db, "03", "site", "form", T0.Add(2*day), 1)
	withFiles(t, db, "04", "site", "other", T0, 1)

	forms, err := db.SubmissionForms(ctx)
	slices.SortFunc(forms, func(a, b hubclient.FormID) int { return strings.Compare(a.Slug, b.Slug) })
	if want := []hubclient.FormID{{Site: "site", Slug: "form"}, {Site: "site", Slug: "other"}}; err != nil || !reflect.DeepEqual(forms, want) {
		t.Errorf("SubmissionForms = %v, %v; want %v", forms, err, want)
	}
	// Oldest first, a batch at a time.
	d, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(2*day), 1)
	if err != nil || d.Submissions != 1 || !reflect.DeepEqual(d.Files, old1) {
		t.Fatalf("first batch: %+v, %v; want 01 and %v", d, err, old1)
	}
	d, err = db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(2*day), 10)
	if err != nil || d.Submissions != 1 || !reflect.DeepEqual(d.Files, old2) {
		t.Fatalf("second batch: %+v, %v; want 02 and %v", d, err, old2)
	}
	if d, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(2*day), 10); err != nil || d.Submissions != 0 {
		t.Errorf("nothing older left: %+v, %v", d, err)
	}
	if got := ids(t, db, hub.Filter{}); !reflect.DeepEqual(got, []string{"03", "04"}) {
		t.Errorf("left %v, want 03 and the other form's 04", got)
	}
}

// testDeleteRace has two processes delete the same old submissions at
// once, as two hubs' sweepers do: each is deleted once, its files named
// once.
func testDeleteRace(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	const n = 40
	for i := range n {
		withFiles(t, dbs[0], fmt.Sprintf("%02d", i), "site", "form", T0, 1)
	}
	var (
		mu    sync.Mutex
		total int
		files []string
		wg    sync.WaitGroup
	)
	for _, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				d, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(time.Second), 5)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				total += d.Submissions
				files = append(files, d.Files...)
				mu.Unlock()
				if d.Submissions == 0 && Count(t, db, hub.Filter{}) == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	slices.Sort(files)
	distinct := len(slices.Compact(slices.Clone(files)))
	if total != n || len(files) != n || distinct != n {
		t.Errorf("deleted %d submissions, named %d files (%d distinct); want %d of each", total, len(files), distinct, n)
	}
}

func testCountSubmissionsBy(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	quarter := 15 * time.Minute
	// Three in the first quarter hour, one a millisecond before the next, two
	// in a later one, one of another form in between, and one marked as
	// spam.
	base := T0.Truncate(time.Hour)
	at := []time.Duration{0, time.Minute, quarter - time.Millisecond, quarter, 3*quarter + time.Second, 3 * quarter}
	for i, d := range at {
		s := Submission(fmt.Sprintf("%02d", i+1))
		s.CreatedAt = base.Add(d)
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	other := Submission("09")
	other.Slug, other.CreatedAt = "other", base.Add(2*quarter)
	if err := db.CreateSubmission(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetSpam(ctx, "site", "form", []string{"06"}, true); err != nil {
		t.Fatal(err)
	}
	got, err := db.CountSubmissionsBy(ctx, hub.Filter{Site: "site", Slug: "form", Spam: hub.NotSpam}, quarter)
	if err != nil {
		t.Fatal(err)
	}
	count := func(start time.Time, n int) hub.TimeCount { return hub.TimeCount{Start: start, N: n} }
	want := []hub.TimeCount{count(base, 3), count(base.Add(quarter), 1), count(base.Add(3*quarter), 1)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CountSubmissionsBy(a quarter hour) = %v, want %v", got, want)
	}
	if got, err := db.CountSubmissionsBy(ctx, hub.Filter{Site: "site", Slug: "form", From: base.Add(quarter)}, time.Hour); err != nil || !reflect.DeepEqual(got, []hub.TimeCount{count(base, 3)}) {
		t.Errorf("CountSubmissionsBy(an hour, from the second quarter) = %v, %v; want 3 in the first hour", got, err)
	}
	if _, err := db.CountSubmissionsBy(ctx, hub.Filter{}, 0); err == nil {
		t.Error("CountSubmissionsBy with no step: no error")
	}
}

// checkPayloads checks that ListPayloads lists the payloads of the
// submissions ListSubmissions lists for f.
func checkPayloads(t *testing.T, db *sqldb.DB, f hub.Filter) {
	t.Helper()
	var want, got []string
	for _, s := range ListAll(t, db, f) {
		want = append(want, string(s.Payload))
	}
	if err := db.ListPayloads(context.Background(), f, func(p []byte) error {
		got = append(got, string(p))
		return nil
	}); err != nil {
		t.Fatalf("ListPayloads(%+v): %v", f, err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ListPayloads(%+v) = %q, want the payloads listed, %q", f, got, want)
	}
}
