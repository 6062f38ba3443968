package storetest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
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
