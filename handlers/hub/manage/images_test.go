package manage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// memFiles keeps what is put in memory.
type memFiles map[string][]byte

func (m memFiles) Put(_ context.Context, key, _ string, body io.ReadSeeker, _ int64) error {
	data, err := io.ReadAll(body)
	m[key] = data
	return err
}

func logoPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImages(t *testing.T) {
	logo := logoPNG(t)
	files := memFiles{}
	add := func(ctx context.Context, db *sqldb.DB, a Actor) error {
		address, err := NewImages(config(db), db, files, "https://hub.example").Add(ctx, a, bytes.NewReader(logo))
		if err == nil && !strings.HasPrefix(address, "https://hub.example/images/") {
			t.Errorf("the picture's address %s", address)
		}
		return err
	}
	added := func(t *testing.T, db *sqldb.DB) bool {
		u, err := db.WorkspaceUsage(context.Background(), "acme", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return u.StoredBytes == int64(len(logo))
	}
	runCases(t, []serviceCase{
		{name: "viewer", ws: "acme", by: acmeViewer, do: add, done: added, status: http.StatusForbidden},
		{name: "not a picture", ws: "acme", by: acmeEditor, status: http.StatusUnprocessableEntity, done: added,
			do: func(ctx context.Context, db *sqldb.DB, a Actor) error {
				_, err := NewImages(config(db), db, files, "https://hub.example").Add(ctx, a, strings.NewReader("<svg></svg>"))
				return err
			}},
	})
	for key, data := range files {
		if !bytes.Equal(data, logo) || !strings.HasPrefix(key, "images/") {
			t.Errorf("stored %s: %d bytes", key, len(data))
		}
	}
	onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		editor := memberOf(t, db, "acme", acmeEditor)
		if err := add(ctx, db, editor); err != nil || !added(t, db) {
			t.Fatalf("an editor's picture: %v", err)
		}
		es := events(t, db, "acme")
		if e := es[len(es)-1]; e.Action != accounts.ActionImageAdded || !strings.HasPrefix(e.Target, "images/") || e.Actor != acmeEditor {
			t.Errorf("recorded %+v", e)
		}
		for i := range MaxImages - 1 {
			if err := db.AddImage(ctx, hub.Image{Key: fmt.Sprintf("images/%032d.png", i), Workspace: "acme", ContentType: "image/png", Size: 1, CreatedAt: time.Now()}, MaxImages); err != nil {
				t.Fatal(err)
			}
		}
		_, err := NewImages(config(db), db, memFiles{}, "https://hub.example").Add(ctx, editor, bytes.NewReader(logo))
		if status(err) != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "keeps 200 pictures already") {
			t.Errorf("a picture past the workspace's limit: %v", err)
		}
	})
	onEachStoreWithAccounts(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		editor := memberOf(t, db, "acme", acmeEditor)
		usage := func() int64 {
			u, err := db.WorkspaceUsage(ctx, "acme", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			return u.StoredBytes
		}
		// A storage that fails keeps nothing recorded.
		if _, err := NewImages(config(db), db, failingFiles{}, "https://hub.example").Add(ctx, editor, bytes.NewReader(logo)); status(err) != http.StatusInternalServerError || usage() != 0 {
			t.Errorf("a picture the storage refused: %v, %d bytes counted", err, usage())
		}
		// The quota's bytes: one more picture than room is refused.
		if err := db.SetQuota(ctx, "acme", accounts.Quota{StoredBytes: int64(len(logo)) + 10}); err != nil {
			t.Fatal(err)
		}
		images := NewImages(config(db), db, memFiles{}, "https://hub.example")
		if _, err := images.Add(ctx, editor, bytes.NewReader(logo)); err != nil {
			t.Fatalf("a picture within the quota: %v", err)
		}
		_, err := images.Add(ctx, editor, bytes.NewReader(logo))
		if status(err) != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "take all the room its quota allows") || usage() != int64(len(logo)) {
			t.Errorf("a picture past the quota's bytes: %v, %d bytes counted", err, usage())
		}
	})
}

// failingFiles is a storage that refuses every file.
type failingFiles struct{}

func (failingFiles) Put(context.Context, string, string, io.ReadSeeker, int64) error {
	return errors.New("the disk is gone")
}
