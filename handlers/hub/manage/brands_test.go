package manage

import (
	"context"
	"net/http"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

func TestBrands(t *testing.T) {
	violet := &hubclient.Theme{Accent: "#7c3aed", Radius: "large"}
	setTo := func(theme *hubclient.Theme) func(ctx context.Context, db *sqldb.DB, a Actor) error {
		return func(ctx context.Context, db *sqldb.DB, a Actor) error {
			return NewBrands(config(db), db).SetBrand(ctx, a, theme)
		}
	}
	// Each action is on acme's brand: a rival's admin sets the brand of
	// their own workspace, never acme's.
	isSet := func(t *testing.T, db *sqldb.DB) bool {
		b, err := db.Brand(context.Background(), "acme")
		if err != nil {
			t.Fatal(err)
		}
		return string(b) == `{"accent":"#7c3aed","radius":"large"}`
	}
	runCases(t, []serviceCase{
		{name: "admin", ws: "acme", by: acmeAdmin, do: setTo(violet), done: isSet, in: "acme", action: accounts.ActionBrandSet, target: "acme"},
		{name: "editor", ws: "acme", by: acmeEditor, do: setTo(violet), done: isSet, status: http.StatusForbidden},
		{name: "a colour that does not read", ws: "acme", by: acmeAdmin, do: setTo(&hubclient.Theme{Accent: "#eeeeee"}), done: isSet,
			status: http.StatusUnprocessableEntity},
	})
	onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		brands := NewBrands(config(db), db)
		if err := brands.SetBrand(ctx, memberOf(t, db, "rival", rivalAdmin), violet); err != nil {
			t.Fatal(err)
		}
		if isSet(t, db) {
			t.Error("a rival's brand is acme's")
		}
		for _, by := range []string{acmeViewer, acmeAdmin} {
			if got, err := brands.Brand(ctx, memberOf(t, db, "acme", by)); got != nil || err != nil {
				t.Errorf("acme's brand read by %s: %+v, %v; want none", by, got, err)
			}
		}
		got, err := brands.Brand(ctx, memberOf(t, db, "rival", rivalAdmin))
		if err != nil || got == nil || got.Accent != "#7c3aed" {
			t.Errorf("the rival's own brand: %+v, %v", got, err)
		}
		if _, err := brands.Brand(ctx, Actor{}); status(err) != http.StatusForbidden {
			t.Errorf("no one read a brand: %v", err)
		}
	})
}
