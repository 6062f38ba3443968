package manage

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// TestFormsDraft saves into one draft until it is published, then starts
// a new one; a save or a publish from an older revision is refused with
// 409. The audit log keeps a draft's first save and each publication.
func TestFormsDraft(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		s := newServices(t, db)
		ed := member(acme, accounts.Editor)
		logged := len(s.events(t, acme))
		// acme/contact: version 1 live, version 2 a draft, revision 2.
		for i, title := range []string{"One", "Two"} {
			got, err := s.forms.SaveDraft(ctx, ed, "acme", "contact", []byte(`{"title":"`+title+`"}`), int64(2+i))
			if err != nil || got.Version != 2 || got.New || got.Revision != int64(3+i) {
				t.Fatalf("save %d = %+v, %v; want version 2 overwritten, revision %d", i, got, err, 3+i)
			}
		}
		if _, err := s.forms.SaveDraft(ctx, ed, "acme", "contact", []byte(`{"title":"Old"}`), 3); status(err) != http.StatusConflict || !errors.Is(err, formsource.ErrChanged) {
			t.Errorf("a save from an older revision: %v, want 409", err)
		}
		if _, err := s.forms.PublishDraft(ctx, ed, "acme", "contact", 3); status(err) != http.StatusConflict {
			t.Errorf("a publish from an older revision: %v, want 409", err)
		}
		if v, err := db.FormVersion(ctx, "acme", "contact", 2); err != nil || string(v.Body) != `{"title":"Two"}` || v.SavedBy != ed.Name {
			t.Errorf("the draft = %+v %s, %v; want the second save, by the editor", v, v.Body, err)
		}
		if es := s.events(t, acme); len(es) != logged {
			t.Errorf("saves of a draft recorded %v", es[logged:])
		}
		if n, err := s.forms.PublishDraft(ctx, ed, "acme", "contact", 4); err != nil || n != 2 {
			t.Fatalf("published %d, %v; want version 2", n, err)
		}
		got, err := s.forms.SaveDraft(ctx, ed, "acme", "contact", []byte(`{"title":"Three"}`), 4)
		if err != nil || got.Version != 3 || !got.New {
			t.Fatalf("a save after publishing = %+v, %v; want a new version 3", got, err)
		}
		if live, err := db.LiveVersion(ctx, "acme", "contact"); err != nil || live != 2 {
			t.Errorf("live version after a new draft = %d, %v; want 2", live, err)
		}
		var recorded []string
		for _, e := range s.events(t, acme)[logged:] {
			recorded = append(recorded, e.Action+" | "+e.Detail)
		}
		want := []string{"form published | " + accounts.PublishedDetail(2, 1), "form saved | version 3"}
		if strings.Join(recorded, "\n") != strings.Join(want, "\n") {
			t.Errorf("recorded %q, want %q", recorded, want)
		}
		if _, err := s.forms.SaveDraft(ctx, ed, "acme", "nope", []byte(`{}`), 1); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("a draft of a missing form: %v", err)
		}
	})
}
