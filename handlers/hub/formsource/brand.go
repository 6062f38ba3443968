package formsource

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// BrandReader tells the brand of the workspace that owns a site, a theme
// as JSON, nil for none: sqldb.DB does.
type BrandReader interface {
	SiteBrand(ctx context.Context, site string) ([]byte, error)
}

// BrandTTL is how long a hub keeps a site's brand before asking the
// database again: a brand changed through another hub on the database is
// served within it, one changed through this hub at once (Layered.
// BrandChanged). Asking at every lookup would cost the schema route a
// third of its rate.
const BrandTTL = 2 * time.Second

// brands gives forms the brand of the workspace that owns their site,
// keeping each form it made for as long as neither the form nor the
// brand changes, and each site's brand for BrandTTL.
type brands struct {
	mu    sync.Mutex
	forms map[brandedKey]*hub.Form
	sites map[string]siteBrand
}

// siteBrand is a site's brand as read at a time.
type siteBrand struct {
	brand []byte
	read  time.Time
}

// of returns the brand of site, read from src unless read within
// BrandTTL before now.
func (b *brands) of(ctx context.Context, src BrandReader, site string, now time.Time) ([]byte, error) {
	b.mu.Lock()
	sb, ok := b.sites[site]
	b.mu.Unlock()
	if ok && now.Sub(sb.read) < BrandTTL && !now.Before(sb.read) {
		return sb.brand, nil
	}
	brand, err := src.SiteBrand(ctx, site)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sites == nil || len(b.sites) >= maxParsed {
		b.sites = make(map[string]siteBrand)
	}
	b.sites[site] = siteBrand{brand, now}
	return brand, nil
}

// forget drops the brands kept, so that the next lookups read them again.
func (b *brands) forget() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.sites)
}

type brandedKey struct {
	form  *hub.Form
	brand string
}

// apply returns form with the theme it inherits from brand, a theme as
// JSON; form itself when brand is nil.
func (b *brands) apply(form *hub.Form, brand []byte) (*hub.Form, error) {
	if brand == nil {
		return form, nil
	}
	k := brandedKey{form, string(brand)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if f := b.forms[k]; f != nil {
		return f, nil
	}
	var theme hubclient.Theme
	if err := json.Unmarshal(brand, &theme); err != nil {
		return nil, fmt.Errorf("the brand of site %s: %w", form.Site, err)
	}
	schema := *form.Schema
	schema.Theme = form.Schema.Theme.Inherit(&theme)
	js, err := json.Marshal(&schema)
	if err != nil {
		return nil, fmt.Errorf("encoding schema: %w", err)
	}
	sum := sha256.Sum256(js)
	f := *form
	f.Schema, f.JSON, f.Tag = &schema, js, hex.EncodeToString(sum[:12])
	if b.forms == nil || len(b.forms) >= maxParsed {
		b.forms = make(map[brandedKey]*hub.Form)
	}
	b.forms[k] = &f
	return &f, nil
}
