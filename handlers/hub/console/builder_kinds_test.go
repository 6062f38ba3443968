package console

import (
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestFieldKinds: each line of the palette's table is a known type, once,
// in one of its groups, with words and an icon.
func TestFieldKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range fieldKinds {
		switch {
		case seen[k.Type]:
			t.Errorf("%s is offered twice", k.Type)
		case k.Word == "" || k.About == "" || k.Icon == "":
			t.Errorf("%s has no word, description or icon: %+v", k.Type, k)
		}
		seen[k.Type] = true
		found := false
		for _, g := range kindsByGroup(anyKind) {
			for _, gk := range g.Kinds {
				found = found || gk.Type == k.Type && g.Name == k.Group
			}
		}
		if !found {
			t.Errorf("%s is in no group of the palette (%q)", k.Type, k.Group)
		}
	}
	for _, typ := range hubclient.FieldTypes {
		if !seen[typ] {
			t.Errorf("the palette does not offer %s", typ)
		}
	}
	// A type the palette does not offer keeps its type: the panel would
	// show another chosen; so does a type made of parts of its own.
	if canRetype(&hubclient.Field{Name: "x", Type: "nope"}) || canRetype(&hubclient.Field{Name: "grid", Type: hubclient.FieldMatrix}) {
		t.Error("a type the palette does not offer, or a matrix, may be changed")
	}
	if !canRetype(&hubclient.Field{Name: "n", Type: hubclient.FieldNumber}) || canRetype(&hubclient.Field{Name: "_hp", Type: hubclient.FieldText}) {
		t.Error("canRetype: a number may change, a honeypot may not")
	}
}
