package handlers

import (
	"crypto/hmac"
	"encoding/base64"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// PropsOption changes the props PropsFor returns, once the form's schema
// is known: WithValues.
type PropsOption interface {
	apply(h *Handler, f Form, schema *hubclient.Schema, v *pageValues)
}

// WithValues fills hidden fields of the form from the host app, as
// PropsFor's option: an id the app knows (a customer's, an order's), a
// campaign's UTM tags read elsewhere than from the page's query. Values
// are by field name; a name that is not a hidden field of the form is
// ignored, and a value that breaks its field's rules is dropped, as a
// query's is. The app's values win over the page's query.
//
// Signed values cannot be changed by the visitor: the app signs each
// name with its value (with Config.StampKey, as the time trap's stamp),
// the form posts the signature back (components.SignedField), and a post
// whose value for a signed field differs from the one signed is refused,
// the form shown again with the field's error and nothing sent to the
// hub. To refuse as well a post that drops the signature, list the
// fields in FormOptions.SignedValues: their value is then taken from a
// signature alone, never from the page's query.
type WithValues struct {
	Values map[string]string
	Signed bool
}

// pageValues are the values PropsFor's options set, and the names of
// those signed.
type pageValues struct {
	values url.Values
	signed []string
}

func (w WithValues) apply(h *Handler, f Form, schema *hubclient.Schema, v *pageValues) {
	asked := url.Values{}
	for name, value := range w.Values {
		if fd := schema.Field(name); fd != nil && fd.Type == hubclient.FieldHidden {
			asked.Set(name, value)
		}
	}
	if len(asked) == 0 {
		return
	}
	logic, err := hubclient.Compile(schema)
	if err != nil {
		return
	}
	for name, vs := range logic.Prefill(asked) {
		v.values[name] = vs
		if w.Signed && !slices.Contains(v.signed, name) {
			v.signed = append(v.signed, name)
		}
	}
}

// withValues sets the values of opts into p's, over the query's
// prefill, and signs those marked signed. The fields the form's
// registration signs never take the query's value.
func (h *Handler) withValues(p *components.HubFormProps, f Form, reg registered, schema *hubclient.Schema, opts []PropsOption) {
	for _, name := range reg.SignedValues {
		delete(p.State.Values, name)
	}
	if len(opts) == 0 {
		return
	}
	v := &pageValues{values: url.Values{}}
	for _, o := range opts {
		o.apply(h, f, schema, v)
	}
	if len(v.values) == 0 {
		return
	}
	if p.State.Values == nil {
		p.State.Values = url.Values{}
	}
	maps.Copy(p.State.Values, v.values)
	if len(v.signed) > 0 {
		p.Signed = h.stamps.signValues(f, v.signed, p.State.Values)
	}
}

// signValues returns the signature of the values of names: the names,
// sorted and joined by commas, a dot, and the HMAC of each name with its
// value.
func (s stamper) signValues(f Form, names []string, values url.Values) string {
	names = slices.Sorted(slices.Values(names))
	return strings.Join(names, ",") + "." + base64.RawURLEncoding.EncodeToString(s.valuesMAC(f, names, values))
}

func (s stamper) valuesMAC(f Form, names []string, values url.Values) []byte {
	parts := []string{"hubform values", f.Site, f.Slug}
	for _, name := range names {
		parts = append(parts, name, values.Get(name))
	}
	return s.mac(parts...)
}

// tampered returns the names of the signed fields whose posted value the
// app did not sign, sig the post's signature (components.SignedField): every field a signature names when it does not hold
// for the values posted (or cannot be read), and a field of required
// (FormOptions.SignedValues) posted with a value that no signature holds
// for. ok reports whether the post's signature held, to carry it into
// the form shown again.
func (s stamper) tampered(f Form, sig string, posted url.Values, required []string) (names []string, ok bool) {
	covered := map[string]bool{}
	if sig != "" {
		list, mac, found := strings.Cut(sig, ".")
		signed := strings.Split(list, ",")
		got, err := base64.RawURLEncoding.DecodeString(mac)
		if found && err == nil && list != "" && hmac.Equal(got, s.valuesMAC(f, signed, posted)) {
			ok = true
			for _, name := range signed {
				covered[name] = true
			}
		} else if found && list != "" {
			names = append(names, signed...)
		} else {
			// Not a signature this app writes: what it covered is unknown.
			names = append(names, components.SignedField)
		}
	}
	for _, name := range required {
		if !covered[name] && posted.Get(name) != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, ok
}
