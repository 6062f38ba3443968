package formsource

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// BrandReader tells the brand of the workspace that owns a site, a theme
// as JSON, nil for none: sqldb.DB does.
type BrandReader interface {
	SiteBrand(ctx context.Context, site string) ([]byte, error)
}

// brands gives forms the brand of the workspace that owns their site,
// keeping each form it made for as long as neither the form nor the
// brand changes.
type brands struct {
	mu    sync.Mutex
	forms map[brandedKey]*hub.Form
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
