package manage

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/hubclient"
)

// BrandStore keeps each workspace's brand, a theme as JSON, as sqldb.DB
// does.
type BrandStore interface {
	// Brand returns the workspace's brand, nil for none.
	Brand(ctx context.Context, workspace string) ([]byte, error)
	// SetBrand sets it, nil for none.
	SetBrand(ctx context.Context, workspace string, brand []byte) error
}

// Brands reads and sets a workspace's brand: the theme its forms start
// from, each form's own theme winning member by member
// (hubclient.Theme.Inherit).
type Brands struct {
	guard
	store BrandStore
	// Changed, when set, is told of each brand set: the hub's forms
	// read the brands again (formsource.Layered.BrandChanged).
	Changed func()
}

// NewBrands returns the brands' service on store.
func NewBrands(cfg Config, store BrandStore) *Brands {
	return &Brands{guard: newGuard(cfg), store: store}
}

// What reading and setting a brand need: any member may see it, as any
// may see a form's Design tab; an admin sets what every form inherits.
var (
	readBrand = Need{Role: accounts.Viewer, Scope: accounts.ScopeForms}
	setBrand  = Need{Role: accounts.Admin, Scope: accounts.ScopeForms}
)

// Brand returns the brand of the actor's workspace, nil for none.
func (s *Brands) Brand(ctx context.Context, a Actor) (*hubclient.Theme, error) {
	if err := s.allow(a, readBrand); err != nil {
		return nil, err
	}
	b, err := s.store.Brand(ctx, a.Workspace)
	if err != nil {
		return nil, hub.Internal("reading the brand", err)
	}
	if b == nil {
		return nil, nil
	}
	var t hubclient.Theme
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, hub.Internal("reading the brand", err)
	}
	return &t, nil
}

// SetBrand sets the brand of the actor's workspace, nil for none. A theme
// Check finds fault with is refused with 422, each problem by its path.
func (s *Brands) SetBrand(ctx context.Context, a Actor, t *hubclient.Theme) error {
	if err := s.allow(a, setBrand); err != nil {
		return err
	}
	if problems := t.Check(); len(problems) > 0 {
		fields := make(map[string]string, len(problems))
		for _, p := range problems {
			fields[p.Path] = p.Message
		}
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: "The brand was not saved: " + problems[0].Path + ": " + problems[0].Message + ".", Fields: fields}
	}
	var b []byte
	detail := "taken away"
	if t != nil {
		var err error
		if b, err = json.Marshal(t); err != nil {
			return hub.Internal("saving the brand", err)
		}
		detail = string(b)
	}
	if err := s.store.SetBrand(ctx, a.Workspace, b); err != nil {
		return hub.Internal("saving the brand", err)
	}
	if s.Changed != nil {
		s.Changed()
	}
	s.record(ctx, a, accounts.ActionBrandSet, a.Workspace, detail)
	return nil
}
