package storetest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
)

func testFormVersions(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if _, err := a.LiveVersion(ctx, "acme", "contact"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("LiveVersion of a missing form: %v", err)
	}
	v1, err := a.SaveFormVersion(ctx, "acme", "contact", []byte(`{"title":"one"}`), "ci", T0)
	if err != nil || v1 != 1 {
		t.Fatalf("first save = %d, %v; want version 1", v1, err)
	}
	if _, err := b.LiveVersion(ctx, "acme", "contact"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("LiveVersion of a form never published: %v, want ErrNotFound", err)
	}
	v2, err := b.SaveFormVersion(ctx, "acme", "contact", []byte(`{"title":"two"}`), "jane", T0.Add(time.Minute))
	if err != nil || v2 != 2 {
		t.Fatalf("second save = %d, %v; want version 2", v2, err)
	}
	if err := a.PublishFormVersion(ctx, "acme", "contact", 3, T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("publishing a missing version: %v", err)
	}
	if err := a.PublishFormVersion(ctx, "acme", "other", 1, T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("publishing a missing form: %v", err)
	}
	for _, n := range []int64{2, 1} { // publish, then roll back
		if err := a.PublishFormVersion(ctx, "acme", "contact", n, T0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		// The other handle, as another hub, sees it at once.
		if live, err := b.LiveVersion(ctx, "acme", "contact"); err != nil || live != n {
			t.Errorf("LiveVersion after publishing %d = %d, %v", n, live, err)
		}
	}
	v, err := b.FormVersion(ctx, "acme", "contact", 2)
	if err != nil || string(v.Body) != `{"title":"two"}` || v.CreatedBy != "jane" || !v.CreatedAt.Equal(T0.Add(time.Minute)) {
		t.Errorf("FormVersion(2) = %+v %s, %v", v, v.Body, err)
	}
	if _, err := b.FormVersion(ctx, "acme", "contact", 9); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("FormVersion of a missing version: %v", err)
	}
	vs, err := a.FormVersions(ctx, "acme", "contact")
	if err != nil || len(vs) != 2 || vs[0].Version != 2 || vs[1].Version != 1 || vs[1].CreatedBy != "ci" || vs[0].Body != nil {
		t.Errorf("FormVersions = %+v, %v; want 2 then 1, without bodies", vs, err)
	}
	if _, err := a.FormVersions(ctx, "acme", "nope"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("FormVersions of a missing form: %v", err)
	}
	for _, slug := range []string{"about", "Zed", "a-b", "a"} {
		if _, err := a.SaveFormVersion(ctx, "acme", slug, []byte(`{}`), "ci", T0); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := b.FormRecords(ctx)
	var slugs []string
	for _, r := range recs {
		slugs = append(slugs, r.Slug)
	}
	// Byte order on every database, whatever its collation.
	if err != nil || strings.Join(slugs, " ") != "Zed a a-b about contact" {
		t.Fatalf("FormRecords = %q, %v", slugs, err)
	}
	c := recs[4]
	if c.LastVersion != 2 || c.LiveVersion != 1 || !c.CreatedAt.Equal(T0) || !c.PublishedAt.Equal(T0.Add(time.Hour)) {
		t.Errorf("record = %+v", c)
	}
	if recs[0].LiveVersion != 0 || !recs[0].PublishedAt.IsZero() {
		t.Errorf("unpublished record = %+v", recs[0])
	}
	if _, err := a.FormRecord(ctx, "nope", "contact"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("FormRecord of a missing form: %v", err)
	}
}

// testFormSaveRace saves one form from several hubs at once: every save
// gets a number of its own.
func testFormSaveRace(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	const n = 8
	var wg sync.WaitGroup
	got := make([]int64, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = dbs[i%2].SaveFormVersion(ctx, "acme", "contact", []byte(`{}`), "ci", T0)
		}()
	}
	wg.Wait()
	seen := make(map[int64]bool)
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("save %d: %v", i, errs[i])
		}
		seen[got[i]] = true
	}
	if len(seen) != n {
		t.Errorf("versions %v: want %d distinct", got, n)
	}
	if vs, err := dbs[0].FormVersions(ctx, "acme", "contact"); err != nil || len(vs) != n || vs[0].Version != n {
		t.Errorf("FormVersions = %d versions, newest %v, %v", len(vs), vs, err)
	}
}

// testFormDraft saves a form's draft: an overwrite of the newest version
// until it is published, a new version after, each save refused when the
// form was saved since the revision it names.
func testFormDraft(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if _, err := a.SaveFormDraft(ctx, "acme", "contact", []byte(`{}`), "ann", T0, 1); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a draft of a missing form: %v", err)
	}
	if _, err := a.SaveFormVersion(ctx, "acme", "contact", []byte(`{"title":"one"}`), "ann", T0); err != nil {
		t.Fatal(err)
	}
	rec, err := b.FormRecord(ctx, "acme", "contact")
	if err != nil || !rec.Draft || rec.Revision != 1 || rec.LastVersion != 1 {
		t.Fatalf("record of a new form = %+v, %v; want version 1, a draft, revision 1", rec, err)
	}
	// Two saves of the draft overwrite version 1, each from the revision
	// the other left.
	for i, by := range []string{"bob", "cat"} {
		db := dbs[i%2]
		s, err := db.SaveFormDraft(ctx, "acme", "contact", []byte(`{"title":"`+by+`"}`), by, T0.Add(time.Duration(i+1)*time.Minute), rec.Revision)
		if err != nil || s.Version != 1 || s.New || s.Revision != rec.Revision+1 {
			t.Fatalf("save %d of the draft = %+v, %v; want version 1 overwritten, revision %d", i, s, err, rec.Revision+1)
		}
		rec.Revision = s.Revision
	}
	v, err := a.FormVersion(ctx, "acme", "contact", 1)
	if err != nil || string(v.Body) != `{"title":"cat"}` || v.CreatedBy != "ann" || !v.CreatedAt.Equal(T0) ||
		v.SavedBy != "cat" || !v.SavedAt.Equal(T0.Add(2*time.Minute)) {
		t.Errorf("the overwritten draft = %+v %s, %v; want cat's body, first saved by ann", v, v.Body, err)
	}
	if vs, err := b.FormVersions(ctx, "acme", "contact"); err != nil || len(vs) != 1 || vs[0].SavedBy != "cat" {
		t.Errorf("versions after overwrites = %+v, %v; want version 1 alone", vs, err)
	}
	// A page built from an older revision saves nothing.
	if _, err := b.SaveFormDraft(ctx, "acme", "contact", []byte(`{"title":"old"}`), "dan", T0, rec.Revision-1); !errors.Is(err, formsource.ErrChanged) {
		t.Errorf("a save from an older revision: %v, want ErrChanged", err)
	}
	if _, err := b.PublishFormDraft(ctx, "acme", "contact", rec.Revision-1, T0); !errors.Is(err, formsource.ErrChanged) {
		t.Errorf("a publish from an older revision: %v, want ErrChanged", err)
	}
	if _, err := b.PublishFormDraft(ctx, "acme", "nope", 1, T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("publishing a missing form: %v, want ErrNotFound", err)
	}
	if live, err := a.LiveVersion(ctx, "acme", "contact"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("LiveVersion after refused publishes = %d, %v; want none", live, err)
	}
	n, err := b.PublishFormDraft(ctx, "acme", "contact", rec.Revision, T0.Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("publishing the draft = %d, %v; want version 1", n, err)
	}
	if rec, err = a.FormRecord(ctx, "acme", "contact"); err != nil || rec.Draft || rec.LiveVersion != 1 || !rec.PublishedAt.Equal(T0.Add(time.Hour)) {
		t.Fatalf("record after publishing = %+v, %v; want version 1 live, no draft", rec, err)
	}
	// After a publish, the next save starts version 2, and the live
	// version stays as it was.
	s, err := a.SaveFormDraft(ctx, "acme", "contact", []byte(`{"title":"two"}`), "bob", T0.Add(2*time.Hour), rec.Revision)
	if err != nil || s.Version != 2 || !s.New {
		t.Fatalf("a save after publishing = %+v, %v; want a new version 2", s, err)
	}
	if v, err := b.FormVersion(ctx, "acme", "contact", 1); err != nil || string(v.Body) != `{"title":"cat"}` {
		t.Errorf("the published version after a save = %s, %v; want it unchanged", v.Body, err)
	}
	if s, err = a.SaveFormDraft(ctx, "acme", "contact", []byte(`{"title":"two again"}`), "bob", T0.Add(3*time.Hour), s.Revision); err != nil || s.Version != 2 || s.New {
		t.Fatalf("the second save after publishing = %+v, %v; want version 2 overwritten", s, err)
	}
	// A rollback to an earlier version leaves the draft a draft.
	if err := b.PublishFormVersion(ctx, "acme", "contact", 1, T0.Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if rec, err = a.FormRecord(ctx, "acme", "contact"); err != nil || !rec.Draft || rec.LastVersion != 2 || rec.LiveVersion != 1 {
		t.Errorf("record after a rollback = %+v, %v; want version 2 still a draft", rec, err)
	}
	// Publishing a version through its number seals it too, and a push
	// (SaveFormVersion) always adds a version.
	if err := b.PublishFormVersion(ctx, "acme", "contact", 2, T0.Add(5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if rec, err = a.FormRecord(ctx, "acme", "contact"); err != nil || rec.Draft {
		t.Errorf("record after publishing version 2 by number = %+v, %v; want no draft", rec, err)
	}
	if n, err := a.SaveFormVersion(ctx, "acme", "contact", []byte(`{}`), "ci", T0); err != nil || n != 3 {
		t.Errorf("a push = %d, %v; want version 3", n, err)
	}
	if n, err := a.SaveFormVersion(ctx, "acme", "contact", []byte(`{}`), "ci", T0); err != nil || n != 4 {
		t.Errorf("a second push = %d, %v; want version 4", n, err)
	}
	if rec, err = a.FormRecord(ctx, "acme", "contact"); err != nil || !rec.Draft || rec.LastVersion != 4 {
		t.Errorf("record after pushes = %+v, %v; want version 4, a draft", rec, err)
	}
	if s, err = b.SaveFormDraft(ctx, "acme", "contact", []byte(`{"title":"four"}`), "ann", T0, rec.Revision); err != nil || s.Version != 4 || s.New {
		t.Errorf("a save after pushes = %+v, %v; want version 4 overwritten", s, err)
	}
}

// testFormDraftRace saves one form's draft from several hubs at once, all
// from the same revision: one save passes, the others are refused.
func testFormDraftRace(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	if _, err := dbs[0].SaveFormVersion(ctx, "acme", "contact", []byte(`{}`), "ci", T0); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = dbs[i%2].SaveFormDraft(ctx, "acme", "contact", []byte(`{}`), "ci", T0, 1)
		}()
	}
	wg.Wait()
	passed := 0
	for i, err := range errs {
		switch {
		case err == nil:
			passed++
		case !errors.Is(err, formsource.ErrChanged):
			t.Errorf("save %d: %v", i, err)
		}
	}
	if passed != 1 {
		t.Errorf("%d saves from one revision passed, want 1", passed)
	}
	if rec, err := dbs[1].FormRecord(ctx, "acme", "contact"); err != nil || rec.Revision != 2 || rec.LastVersion != 1 {
		t.Errorf("record = %+v, %v; want revision 2, version 1", rec, err)
	}
}
