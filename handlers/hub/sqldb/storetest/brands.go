package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// agency creates the workspace agency, whose admin is ann@example.com.
func agency(t *testing.T, db *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	if err := db.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "agency", "ann@example.com", T0); err != nil {
		t.Fatal(err)
	}
}

// testBrands sets a workspace's brand on one handle and reads it on the
// other, by workspace and by a site it owns.
func testBrands(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	agency(t, a)
	if _, err := a.ClaimSite(ctx, "acme", "agency", T0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ClaimSite(ctx, "other", accounts.DefaultWorkspace, T0); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Brand(ctx, "agency"); got != nil || err != nil {
		t.Fatalf("a new workspace's brand: %q, %v; want none", got, err)
	}
	brand := []byte(`{"accent":"#7c3aed","radius":"large"}`)
	if err := a.SetBrand(ctx, "agency", brand); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Brand(ctx, "agency"); string(got) != string(brand) || err != nil {
		t.Errorf("Brand(agency) = %q, %v; want %s", got, err, brand)
	}
	for site, want := range map[string]string{"acme": string(brand), "other": "", "nobody": ""} {
		if got, err := b.SiteBrand(ctx, site); string(got) != want || err != nil {
			t.Errorf("SiteBrand(%s) = %q, %v; want %q", site, got, err, want)
		}
	}
	if err := a.SetBrand(ctx, "agency", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := b.SiteBrand(ctx, "acme"); got != nil || err != nil {
		t.Errorf("the brand taken away: %q, %v", got, err)
	}
	if err := a.SetBrand(ctx, "nobody", brand); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("SetBrand of no workspace: %v, want ErrNotFound", err)
	}
	if _, err := a.Brand(ctx, "nobody"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Brand of no workspace: %v, want ErrNotFound", err)
	}
}
