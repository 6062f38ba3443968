package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

func testSubmissionRoundTrip(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	a, b := Upload("uploads/a"), Upload("uploads/b")
	b.MIME, b.Size = "image/png", 99
	MustCreateUpload(t, db, a)
	MustCreateUpload(t, db, b)

	plain := Submission("01")
	plain.ClientAddr, plain.UserAgent = "", ""
	empty := Submission("02")
	empty.Payload = nil
	withFiles := Submission("03", Attachment(a), Attachment(b))
	withFiles.IdempotencyKey = "key 03 ~!"
	unicode := Submission("04")
	unicode.Payload = json.RawMessage(`{"name":"Zoë \"Z\" 🦊","tags":["a","b"],"nested":{"x":null},"nul":"\u0000"}`)
	// Headers may hold any bytes; what TEXT cannot hold is replaced.
	oddHeaders := Submission("05")
	oddHeaders.UserAgent = "bot\xff\x00/1"

	for _, s := range []hub.Submission{plain, empty, withFiles, unicode, oddHeaders} {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", s.ID, err)
		}
	}
	// Stored as given, except that an absent payload is {} and absent
	// attachments are an empty list.
	empty.Payload = json.RawMessage(`{}`)
	oddHeaders.UserAgent = "bot\uFFFD\uFFFD/1"
	for _, s := range []*hub.Submission{&plain, &empty, &unicode, &oddHeaders} {
		s.Attachments = []hubclient.Attachment{}
	}
	want := []hub.Submission{plain, empty, withFiles, unicode, oddHeaders}
	if got := ListAll(t, db, hub.Filter{}); !reflect.DeepEqual(got, want) {
		t.Errorf("ListSubmissions =\n %+v\nwant\n %+v", got, want)
	}
	for _, u := range []hub.Upload{a, b} {
		got, err := db.Upload(ctx, u.Key)
		if err != nil || got.SubmissionID != "03" {
			t.Errorf("Upload(%q) = %+v, %v; want claimed by 03", u.Key, got, err)
		}
	}
}

func testCreateSubmissionRefuses(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.CreateSubmission(ctx, Submission("dup")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    hub.Submission
	}{
		{"no id", Submission("")},
		{"no site", func() hub.Submission { s := Submission("x"); s.Site = ""; return s }()},
		{"no form", func() hub.Submission { s := Submission("x"); s.Slug = ""; return s }()},
		{"bad payload", func() hub.Submission { s := Submission("x"); s.Payload = json.RawMessage(`{"a":`); return s }()},
		{"payload not UTF-8", func() hub.Submission { s := Submission("x"); s.Payload = json.RawMessage("{\"a\":\"\xff\"}"); return s }()},
		{"duplicate id", Submission("dup")},
		{"key too long", func() hub.Submission {
			s := Submission("x")
			s.IdempotencyKey = strings.Repeat("k", hubclient.MaxIdempotencyKeyLength+1)
			return s
		}()},
		{"key not ASCII", func() hub.Submission { s := Submission("x"); s.IdempotencyKey = "kéy"; return s }()},
	}
	for _, tt := range tests {
		if err := db.CreateSubmission(ctx, tt.s); err == nil {
			t.Errorf("%s: CreateSubmission succeeded", tt.name)
		}
	}
	if n := Count(t, db, hub.Filter{}); n != 1 {
		t.Errorf("count = %d, want 1", n)
	}
}

func testClaimRules(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)

	good := Upload("uploads/good")
	MustCreateUpload(t, db, good)
	otherSite := Upload("uploads/other-site")
	otherSite.Site = "elsewhere"
	MustCreateUpload(t, db, otherSite)
	otherForm := Upload("uploads/other-form")
	otherForm.Slug = "survey"
	MustCreateUpload(t, db, otherForm)
	pending := Upload("uploads/pending")
	pending.UploadedAt = time.Time{}
	MustCreateUpload(t, db, pending)
	taken := Upload("uploads/taken")
	MustCreateUpload(t, db, taken)
	if err := db.CreateSubmission(ctx, Submission("first", Attachment(taken))); err != nil {
		t.Fatal(err)
	}

	wrongSize := Attachment(good)
	wrongSize.Size++
	wrongMIME := Attachment(good)
	wrongMIME.MIME = "application/x-msdownload"
	missing := Attachment(Upload("uploads/missing"))

	tests := []struct {
		name   string
		atts   []hubclient.Attachment
		bad    string // key the error must name
		reason string
	}{
		{"missing", []hubclient.Attachment{missing}, missing.Key, "no such upload"},
		{"other site", []hubclient.Attachment{Attachment(otherSite)}, otherSite.Key, "another form"},
		{"other form", []hubclient.Attachment{Attachment(otherForm)}, otherForm.Key, "another form"},
		{"not uploaded", []hubclient.Attachment{Attachment(pending)}, pending.Key, "not received"},
		{"claimed", []hubclient.Attachment{Attachment(taken)}, taken.Key, "already claimed"},
		{"size", []hubclient.Attachment{wrongSize}, good.Key, "size"},
		{"mime", []hubclient.Attachment{wrongMIME}, good.Key, "type"},
		{"same upload twice", []hubclient.Attachment{Attachment(good), Attachment(good)}, good.Key, "already claimed"},
		{"good then bad", []hubclient.Attachment{Attachment(good), missing}, missing.Key, "no such upload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.CreateSubmission(ctx, Submission("second", tt.atts...))
			if !errors.Is(err, hub.ErrUploadClaim) {
				t.Fatalf("CreateSubmission: %v, want ErrUploadClaim", err)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.bad)) || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q does not name %q and %q", err, tt.bad, tt.reason)
			}
			// Nothing stored: no submission, no upload claimed.
			if n := Count(t, db, hub.Filter{}); n != 1 {
				t.Errorf("count = %d, want 1", n)
			}
			for _, key := range []string{good.Key, otherSite.Key, otherForm.Key, pending.Key} {
				if u, _ := db.Upload(ctx, key); u.SubmissionID != "" {
					t.Errorf("upload %q claimed by %q", key, u.SubmissionID)
				}
			}
			if u, _ := db.Upload(ctx, taken.Key); u.SubmissionID != "first" {
				t.Errorf("upload %q now claimed by %q", taken.Key, u.SubmissionID)
			}
		})
	}

	// After all refusals, the good upload can still be claimed.
	if err := db.CreateSubmission(ctx, Submission("second", Attachment(good))); err != nil {
		t.Errorf("claiming the good upload: %v", err)
	}
}

func testListSubmissions(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	// Inserted out of id order, over two sites and forms.
	for _, x := range []struct{ id, site, form string }{
		{"05", "s1", "contact"},
		{"01", "s1", "contact"},
		{"03", "s2", "contact"},
		{"02", "s1", "survey"},
		{"04", "s1", "contact"},
		{"06", "s2", "survey"},
	} {
		s := Submission(x.id)
		s.Site, s.Slug = x.site, x.form
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		f    hub.Filter
		want []string
	}{
		{hub.Filter{}, []string{"01", "02", "03", "04", "05", "06"}},
		{hub.Filter{Site: "s1"}, []string{"01", "02", "04", "05"}},
		{hub.Filter{Site: "s1", Slug: "contact"}, []string{"01", "04", "05"}},
		{hub.Filter{Slug: "contact"}, []string{"01", "03", "04", "05"}},
		{hub.Filter{Site: "s2", Slug: "survey"}, []string{"06"}},
		{hub.Filter{Site: "s3"}, nil},
		{hub.Filter{Site: "s1", Slug: "nope"}, nil},
		{hub.Filter{Newest: true}, []string{"06", "05", "04", "03", "02", "01"}},
		{hub.Filter{Site: "s1", Slug: "contact", Newest: true}, []string{"05", "04", "01"}},
		{hub.Filter{Before: "04"}, []string{"01", "02", "03"}},
		{hub.Filter{After: "04"}, []string{"05", "06"}},
		{hub.Filter{After: "01", Before: "05"}, []string{"02", "03", "04"}},
		{hub.Filter{Before: "04", Newest: true}, []string{"03", "02", "01"}},
		{hub.Filter{Site: "s1", Before: "05", Newest: true}, []string{"04", "02", "01"}},
		{hub.Filter{Before: "01"}, nil},
		{hub.Filter{After: "06"}, nil},
		// A cursor need not be an id that exists.
		{hub.Filter{Before: "035"}, []string{"01", "02", "03"}},
	}
	for _, tt := range tests {
		var ids []string
		for _, s := range ListAll(t, db, tt.f) {
			if (tt.f.Site != "" && s.Site != tt.f.Site) || (tt.f.Slug != "" && s.Slug != tt.f.Slug) {
				t.Errorf("filter %+v let through %+v", tt.f, s)
			}
			ids = append(ids, s.ID)
		}
		if !reflect.DeepEqual(ids, tt.want) {
			t.Errorf("ListSubmissions(%+v) = %v, want %v", tt.f, ids, tt.want)
		}
		if n := Count(t, db, tt.f); n != len(tt.want) {
			t.Errorf("CountSubmissions(%+v) = %d, want %d", tt.f, n, len(tt.want))
		}
	}

	t.Run("limit", func(t *testing.T) {
		for _, tt := range []struct {
			f    hub.Filter
			want []string
		}{
			{hub.Filter{Limit: 2}, []string{"01", "02"}},
			{hub.Filter{Limit: 2, Newest: true}, []string{"06", "05"}},
			{hub.Filter{Limit: 2, Before: "05", Newest: true}, []string{"04", "03"}},
			{hub.Filter{Limit: 2, Site: "s2", After: "03"}, []string{"06"}},
			{hub.Filter{Limit: 10}, []string{"01", "02", "03", "04", "05", "06"}},
		} {
			var ids []string
			for _, s := range ListAll(t, db, tt.f) {
				ids = append(ids, s.ID)
			}
			if !reflect.DeepEqual(ids, tt.want) {
				t.Errorf("ListSubmissions(%+v) = %v, want %v", tt.f, ids, tt.want)
			}
			// Counting ignores the limit.
			f := tt.f
			f.Limit = 0
			if n, all := Count(t, db, tt.f), len(ListAll(t, db, f)); n != all {
				t.Errorf("CountSubmissions(%+v) = %d, want %d", tt.f, n, all)
			}
		}
	})

	t.Run("pages", func(t *testing.T) {
		// Each page's last id is the next page's cursor, both ways, and
		// the pages together hold every submission once.
		for _, newest := range []bool{true, false} {
			var ids []string
			f := hub.Filter{Newest: newest, Limit: 4}
			for pages := 0; ; pages++ {
				if pages > 6 {
					t.Fatalf("newest %v: still paging after %d pages: %v", newest, pages, ids)
				}
				page := ListAll(t, db, f)
				for _, s := range page {
					ids = append(ids, s.ID)
				}
				if len(page) < f.Limit {
					break
				}
				if last := page[len(page)-1].ID; newest {
					f.Before = last
				} else {
					f.After = last
				}
			}
			want := []string{"01", "02", "03", "04", "05", "06"}
			if newest {
				want = []string{"06", "05", "04", "03", "02", "01"}
			}
			if !reflect.DeepEqual(ids, want) {
				t.Errorf("pages newest %v: %v, want %v", newest, ids, want)
			}
		}
	})

	t.Run("early stop", func(t *testing.T) {
		stop := errors.New("stop")
		var seen []string
		err := db.ListSubmissions(ctx, hub.Filter{}, func(s hub.Submission) error {
			seen = append(seen, s.ID)
			if len(seen) == 2 {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Errorf("error = %v, want fn's error as is", err)
		}
		if !reflect.DeepEqual(seen, []string{"01", "02"}) {
			t.Errorf("fn saw %v, want 01 02", seen)
		}
	})

	t.Run("streams", func(t *testing.T) {
		// While fn runs, the query is still open: rows are read as fn
		// asks for them, not collected first.
		var open []int
		err := db.ListSubmissions(ctx, hub.Filter{}, func(hub.Submission) error {
			open = append(open, db.Reader().Stats().InUse)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// At least: the DB's indexing of the search queue may hold another.
		for i, n := range open {
			if n < 1 {
				t.Errorf("row %d: %d connections in use during fn, want the query's", i, n)
			}
		}
		if len(open) != 6 {
			t.Errorf("fn called %d times, want 6", len(open))
		}
	})

	t.Run("canceled", func(t *testing.T) {
		// A context canceled in fn ends the listing before the next row.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var seen int
		err := db.ListSubmissions(ctx, hub.Filter{}, func(hub.Submission) error {
			seen++
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
		if seen != 1 {
			t.Errorf("fn called %d times after cancel, want 1", seen)
		}
	})
}

func testConcurrentCreateSubmission(t *testing.T, open Open) {
	// With two handles on one database, as with two processes, the
	// handles' writers contend in the database itself, which must keep
	// every write: 32 writers of 50 submissions each, all counted.
	onOneAndTwoHandles(t, open, func(t *testing.T, dbs []*sqldb.DB) {
		const workers, each = 32, 50
		var (
			wg     sync.WaitGroup
			failed atomic.Int64
		)
		for w := range workers {
			db := dbs[w%len(dbs)]
			wg.Go(func() {
				for i := range each {
					s := Submission(hub.NewID(time.Now()))
					s.Slug = fmt.Sprintf("form%d", w%4)
					s.Payload = json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))
					if err := db.CreateSubmission(context.Background(), s); err != nil {
						failed.Add(1)
						t.Errorf("worker %d, submission %d: %v", w, i, err)
						return
					}
				}
			})
		}
		wg.Wait()
		if n := Count(t, dbs[0], hub.Filter{}); n != workers*each {
			t.Errorf("count = %d, want %d (%d calls failed)", n, workers*each, failed.Load())
		}
		if n := Count(t, dbs[0], hub.Filter{Site: "site", Slug: "form1"}); n != workers*each/4 {
			t.Errorf("count of form1 = %d, want %d", n, workers*each/4)
		}
	})
}

func testClaimRace(t *testing.T, open Open) {
	ctx := context.Background()
	onOneAndTwoHandles(t, open, func(t *testing.T, dbs []*sqldb.DB) {
		const rounds, racers = 20, 8
		for r := range rounds {
			u := Upload(fmt.Sprintf("uploads/race/%d", r))
			MustCreateUpload(t, dbs[0], u)
			var (
				wg              sync.WaitGroup
				mu              sync.Mutex
				winners, others []string
			)
			for i := range racers {
				db := dbs[i%len(dbs)]
				wg.Go(func() {
					id := fmt.Sprintf("r%02d-%d", r, i)
					err := db.CreateSubmission(ctx, Submission(id, Attachment(u)))
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						winners = append(winners, id)
					case errors.Is(err, hub.ErrUploadClaim):
						others = append(others, id)
					default:
						t.Errorf("racer %s: %v", id, err)
					}
				})
			}
			wg.Wait()
			if len(winners) != 1 || len(others) != racers-1 {
				t.Fatalf("round %d: winners %v, refused %v; want exactly one winner", r, winners, others)
			}
			if got, _ := dbs[0].Upload(ctx, u.Key); got.SubmissionID != winners[0] {
				t.Errorf("round %d: upload claimed by %q, winner %q", r, got.SubmissionID, winners[0])
			}
		}
		if n := Count(t, dbs[0], hub.Filter{}); n != rounds {
			t.Errorf("count = %d, want %d", n, rounds)
		}
	})
}

func testContextCanceled(t *testing.T, open Open) {
	db := open1(t, open)
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := db.CreateSubmission(ctx, Submission("01")); err == nil {
		t.Error("CreateSubmission with a done context succeeded")
	}
	if n := Count(t, db, hub.Filter{}); n != 0 {
		t.Errorf("count = %d, want 0", n)
	}
}
