package formsource

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"
)

// fakeBrands is a BrandReader holding each site's brand.
type fakeBrands map[string]string

func (b fakeBrands) SiteBrand(_ context.Context, site string) ([]byte, error) {
	if site == "down" {
		return nil, errors.New("the database is down")
	}
	if s, ok := b[site]; ok {
		return []byte(s), nil
	}
	return nil, nil
}

func TestLayeredBrands(t *testing.T) {
	src := &fakeSource{
		live: map[string]int64{"acme/contact": 1, "plain/contact": 1, "down/contact": 1},
		versions: map[string][]byte{
			"acme/contact/1":  []byte(`{"title":"Contact","theme":{"radius":"none"}}`),
			"plain/contact/1": []byte(`{"title":"Contact","theme":{"radius":"none"}}`),
			"down/contact/1":  []byte(`{"title":"Contact"}`),
		},
	}
	brands := fakeBrands{"acme": `{"accent":"#7c3aed","radius":"large","font":"serif"}`}
	clock := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	l := &Layered{Stored: NewStored(src, nil), Brands: brands, Now: func() time.Time { return clock }}
	unbranded, err := l.Stored.Lookup("acme", "contact")
	if err != nil {
		t.Fatal(err)
	}
	f, err := l.Lookup("acme", "contact")
	if err != nil {
		t.Fatal(err)
	}
	if th := f.Schema.Theme; th == nil || th.Accent != "#7c3aed" || th.Font != "serif" || th.Radius != "none" {
		t.Errorf("the form's theme %+v, want the brand's accent and font, its own corners", th)
	}
	if !bytes.Contains(f.JSON, []byte(`"font":"serif"`)) || f.Tag == unbranded.Tag {
		t.Errorf("the schema served %s, tag %s: want the brand in it and a tag of its own", f.JSON, f.Tag)
	}
	if unbranded.Schema.Theme.Font != "" || bytes.Contains(unbranded.JSON, []byte("serif")) {
		t.Error("the brand changed the stored version's form, which lookups share")
	}
	if again, _ := l.Lookup("acme", "contact"); again != f {
		t.Error("the same form and brand made another form")
	}
	// A brand changed through another hub is served once BrandTTL has
	// passed; through this one, at once.
	brands["acme"] = `{"font":"mono"}`
	clock = clock.Add(BrandTTL - time.Millisecond)
	if again, _ := l.Lookup("acme", "contact"); again != f {
		t.Error("the brand was read again within BrandTTL")
	}
	clock = clock.Add(time.Millisecond)
	if again, _ := l.Lookup("acme", "contact"); again == f || again.Schema.Theme.Font != "mono" {
		t.Error("a changed brand is not served after BrandTTL")
	}
	brands["acme"] = `{"font":"rounded"}`
	l.BrandChanged()
	if again, _ := l.Lookup("acme", "contact"); again.Schema.Theme.Font != "rounded" {
		t.Error("a brand changed through this hub is not served at once")
	}
	plain, err := l.Lookup("plain", "contact")
	if err != nil || plain != l.Stored.parsed[versionKey{"plain", "contact", 1}] {
		t.Errorf("a site without a brand: %v, %v; want the stored form itself", plain, err)
	}
	if _, err := l.Lookup("down", "contact"); err == nil {
		t.Error("a brand that cannot be read: served without it")
	}
}
