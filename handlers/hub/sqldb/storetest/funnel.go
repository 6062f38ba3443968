package storetest

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// day0 is the UTC midnight of T0's day.
var day0 = T0.Truncate(24 * time.Hour)

// funnelCount returns n events of "site"/slug on the day days after day0.
func funnelCount(slug string, days int, event, step string, n int64) hub.FunnelCount {
	return hub.FunnelCount{Site: "site", Slug: slug, Day: day0.AddDate(0, 0, days), Event: event, Step: step, N: n}
}

// mustAddFunnel adds counts or fails the test.
func mustAddFunnel(t *testing.T, db *sqldb.DB, counts ...hub.FunnelCount) {
	t.Helper()
	if err := db.AddFunnelCounts(context.Background(), counts); err != nil {
		t.Fatalf("AddFunnelCounts(%v): %v", counts, err)
	}
}

// checkFunnel checks the counts of site/slug from from to to.
func checkFunnel(t *testing.T, db *sqldb.DB, site, slug string, from, to time.Time, want ...hub.FunnelCount) {
	t.Helper()
	got, err := db.FunnelCounts(context.Background(), site, slug, from, to)
	if err != nil {
		t.Fatalf("FunnelCounts(%s/%s, %v, %v): %v", site, slug, from, to, err)
	}
	for _, c := range got {
		if c.Day.Location() != time.UTC {
			t.Errorf("FunnelCounts: day %v is not in UTC", c.Day)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FunnelCounts(%s/%s, %s, %s) =\n%s\nwant\n%s", site, slug, from.Format(time.DateOnly), to.Format(time.DateOnly),
			formatFunnel(got), formatFunnel(want))
	}
}

func formatFunnel(counts []hub.FunnelCount) string {
	var b strings.Builder
	for _, c := range counts {
		fmt.Fprintf(&b, "\t%s/%s %s %s %q %d\n", c.Site, c.Slug, c.Day.Format(time.DateOnly), c.Event, c.Step, c.N)
	}
	return b.String()
}

// testFunnelCounts checks that counts added are summed by form, day,
// event and step, and read back by form and days.
func testFunnelCounts(t *testing.T, open Open) {
	db := open1(t, open)
	far := day0.AddDate(1, 0, 0)
	checkFunnel(t, db, "site", "form", day0, far)

	mustAddFunnel(t, db,
		funnelCount("form", 0, "view", "", 10),
		funnelCount("form", 0, "start", "", 4),
		funnelCount("form", 0, "step", "b", 3),
		funnelCount("form", 0, "step", "c", 1),
		funnelCount("form", 1, "view", "", 7),
		funnelCount("form", 2, "view", "", 5),
		funnelCount("other", 0, "view", "", 100),
		funnelCount("form", 0, "view", "", 1), // twice in one batch
	)
	other := funnelCount("form", 0, "view", "", 1000)
	other.Site = "elsewhere" // another site's form of the same slug
	mustAddFunnel(t, db, other)
	// Adding again sums.
	mustAddFunnel(t, db, funnelCount("form", 0, "view", "", 2), funnelCount("form", 0, "step", "b", 2), funnelCount("form", 1, "view", "", 1))

	checkFunnel(t, db, "site", "form", day0, far,
		funnelCount("form", 0, "start", "", 4),
		funnelCount("form", 0, "step", "b", 5),
		funnelCount("form", 0, "step", "c", 1),
		funnelCount("form", 0, "view", "", 13),
		funnelCount("form", 1, "view", "", 8),
		funnelCount("form", 2, "view", "", 5),
	)
	checkFunnel(t, db, "site", "other", day0, far, funnelCount("other", 0, "view", "", 100))
	checkFunnel(t, db, "elsewhere", "form", day0, far, other)
	checkFunnel(t, db, "site", "none", day0, far)

	// From is included, to excluded.
	checkFunnel(t, db, "site", "form", day0.AddDate(0, 0, 1), day0.AddDate(0, 0, 2), funnelCount("form", 1, "view", "", 8))
	checkFunnel(t, db, "site", "form", day0.AddDate(0, 0, 1), day0.AddDate(0, 0, 3),
		funnelCount("form", 1, "view", "", 8), funnelCount("form", 2, "view", "", 5))
	checkFunnel(t, db, "site", "form", day0.Add(-time.Millisecond), day0.Add(time.Millisecond),
		funnelCount("form", 0, "start", "", 4),
		funnelCount("form", 0, "step", "b", 5),
		funnelCount("form", 0, "step", "c", 1),
		funnelCount("form", 0, "view", "", 13),
	)
	checkFunnel(t, db, "site", "form", day0.Add(time.Millisecond), day0.AddDate(0, 0, 1))
	checkFunnel(t, db, "site", "form", day0.AddDate(0, 0, -5), day0)
	checkFunnel(t, db, "site", "form", day0.AddDate(0, 0, 3), far)

	// A batch of more rows than one statement writes.
	var many, wantMany []hub.FunnelCount
	for i := range 1201 {
		c := funnelCount("many", 0, "step", fmt.Sprintf("s%04d", i), int64(i+1))
		many = append(many, c)
		c.N *= 2
		wantMany = append(wantMany, c)
	}
	mustAddFunnel(t, db, slices.Concat(many, many)...)
	checkFunnel(t, db, "site", "many", day0, far, wantMany...)

	// A day given in another location, at a UTC midnight, is that day.
	paris, err := time.LoadLocation("Europe/Paris")
	if err == nil {
		c := funnelCount("form", 2, "view", "", 1)
		c.Day = c.Day.In(paris)
		mustAddFunnel(t, db, c)
		checkFunnel(t, db, "site", "form", day0.AddDate(0, 0, 2), far, funnelCount("form", 2, "view", "", 6))
	}
}

// testFunnelCountsRefuses checks that a batch with an invalid count is
// refused whole, with an error that says which.
func testFunnelCountsRefuses(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.AddFunnelCounts(ctx, nil); err != nil {
		t.Errorf("AddFunnelCounts(nil) = %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(*hub.FunnelCount)
		want string
	}{
		{"no site", func(c *hub.FunnelCount) { c.Site = "" }, "no site"},
		{"no slug", func(c *hub.FunnelCount) { c.Slug = "" }, "no slug"},
		{"no event", func(c *hub.FunnelCount) { c.Event = "" }, "no event"},
		{"n 0", func(c *hub.FunnelCount) { c.N = 0 }, "n 0 is not positive"},
		{"n negative", func(c *hub.FunnelCount) { c.N = -3 }, "n -3 is not positive"},
		{"no day", func(c *hub.FunnelCount) { c.Day = time.Time{} }, "not a midnight UTC"},
		{"a time of day", func(c *hub.FunnelCount) { c.Day = T0 }, "not a midnight UTC"},
		{"a millisecond after midnight", func(c *hub.FunnelCount) { c.Day = c.Day.Add(time.Millisecond) }, "not a midnight UTC"},
		{"a local midnight", func(c *hub.FunnelCount) {
			c.Day = time.Date(c.Day.Year(), c.Day.Month(), c.Day.Day(), 0, 0, 0, 0, time.FixedZone("CET", 3600))
		}, "not a midnight UTC"},
	} {
		bad := funnelCount("form", 1, "view", "", 5)
		tt.edit(&bad)
		err := db.AddFunnelCounts(ctx, []hub.FunnelCount{funnelCount("form", 0, "view", "", 1), bad})
		if err == nil || !strings.Contains(err.Error(), "counts[1]") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: AddFunnelCounts = %v; want an error of counts[1]: %s", tt.name, err, tt.want)
		}
	}
	// Nothing of a refused batch is stored.
	checkFunnel(t, db, "site", "form", day0.AddDate(-1, 0, 0), day0.AddDate(1, 0, 0))
}

// testFunnelCountsRace checks that hubs adding to the same counts at once
// lose none of them, whatever the order of their batches.
func testFunnelCountsRace(t *testing.T, open Open) {
	dbs := open(t, 2)
	const (
		writers = 8
		rounds  = 20
	)
	keys := []hub.FunnelCount{
		funnelCount("form", 0, "view", "", 1),
		funnelCount("form", 0, "start", "", 1),
		funnelCount("form", 0, "step", "b", 1),
		funnelCount("form", 1, "view", "", 1),
		funnelCount("other", 0, "view", "", 1),
	}
	// batch returns the batch of writer w's round r: each key once, in an
	// order of its own, so that writes in the batch's order could
	// deadlock, and one key, whose index it returns, counted thrice.
	batch := func(w, r int) ([]hub.FunnelCount, int) {
		extra := (w*rounds + r) % len(keys)
		b := slices.Clone(keys)
		b[extra].N = 3
		rot := (w + r) % len(b)
		b = slices.Concat(b[rot:], b[:rot])
		if w%2 == 1 {
			slices.Reverse(b)
		}
		return b, extra
	}
	want := make([]int64, len(keys))
	for w := range writers {
		for r := range rounds {
			_, extra := batch(w, r)
			for i := range want {
				want[i]++
			}
			want[extra] += 2
		}
	}
	var wg sync.WaitGroup
	for w := range writers {
		db := dbs[w%len(dbs)]
		wg.Go(func() {
			for r := range rounds {
				b, _ := batch(w, r)
				if err := db.AddFunnelCounts(context.Background(), b); err != nil {
					t.Errorf("writer %d, round %d: AddFunnelCounts: %v", w, r, err)
					return
				}
			}
		})
	}
	wg.Wait()
	var wantForm, wantOther []hub.FunnelCount
	for i, k := range keys {
		k.N = want[i]
		if k.Slug == "form" {
			wantForm = append(wantForm, k)
		} else {
			wantOther = append(wantOther, k)
		}
	}
	sortFunnel(wantForm)
	checkFunnel(t, dbs[1], "site", "form", day0, day0.AddDate(0, 0, 2), wantForm...)
	checkFunnel(t, dbs[0], "site", "other", day0, day0.AddDate(0, 0, 2), wantOther...)
}

// sortFunnel sorts counts of one form as FunnelCounts returns them.
func sortFunnel(counts []hub.FunnelCount) {
	slices.SortFunc(counts, func(a, b hub.FunnelCount) int {
		return cmp.Or(a.Day.Compare(b.Day), strings.Compare(a.Event, b.Event), strings.Compare(a.Step, b.Step))
	})
}
