package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testImages records themes' pictures on one handle and reads them on the
// other: each workspace keeps at most the limit, and their bytes count
// in its usage.
func testImages(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	agency(t, a)
	img := func(key, ws string) hub.Image {
		return hub.Image{Key: key, Workspace: ws, ContentType: "image/png", Size: 1000, CreatedAt: T0}
	}
	for _, key := range []string{"images/a.png", "images/b.png"} {
		if err := a.AddImage(ctx, img(key, "agency"), 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddImage(ctx, img("images/c.png", "agency"), 2); !errors.Is(err, hub.ErrQuota) {
		t.Errorf("a third image past a limit of 2: %v, want ErrQuota", err)
	}
	if err := b.AddImage(ctx, img("images/d.png", accounts.DefaultWorkspace), 2); err != nil {
		t.Errorf("another workspace's first image: %v", err)
	}
	got, err := b.Image(ctx, "images/b.png")
	if err != nil || got != img("images/b.png", "agency") {
		t.Errorf("Image = %+v, %v", got, err)
	}
	if _, err := b.Image(ctx, "images/c.png"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("the image refused: %v, want ErrNotFound", err)
	}
	if u, err := b.WorkspaceUsage(ctx, "agency", T0); err != nil || u.StoredBytes != 2000 {
		t.Errorf("usage %+v, %v; want the two images' 2000 bytes", u, err)
	}
}
