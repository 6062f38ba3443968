package components

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"math/bits"

	"github.com/hubform/hubform/hubclient"
)

// fingerprintSeed is secret to the process, so that no schema author can
// make two schemas collide on purpose.
var fingerprintSeed = maphash.MakeSeed()

// fingerprint sums up everything that Localize(s, locale) reads when the
// locale matches the translation key tr ("" for none): every member of the
// schema outside its translations, the translations' keys (they decide
// which one a locale matches) and translation tr. Any change to one of
// them, in place or not, changes the sum but for a chance of 2⁻⁶⁴.
//
// TestFingerprintCoversEverything changes every member the types have, so
// a member added to the schema's types must be added here too.
func fingerprint(s *hubclient.Schema, tr string) uint64 {
	var h sum
	h.str(s.Title)
	h.str(s.Description)
	h.add(uint64(len(s.Fields)))
	for i := range s.Fields {
		h.field(&s.Fields[i])
	}
	h.add(uint64(len(s.Steps)))
	for i := range s.Steps {
		st := &s.Steps[i]
		h.str(st.ID)
		h.str(st.Title)
		h.strs(st.Fields)
		h.raw(st.VisibleIf)
		h.extra(st.Extra)
	}
	h.add(uint64(len(s.Endings)))
	for i := range s.Endings {
		e := &s.Endings[i]
		h.str(e.ID)
		h.str(e.Title)
		h.str(e.Text)
		h.str(e.RedirectURL)
		h.raw(e.If)
		h.extra(e.Extra)
	}
	h.calculations(s)
	h.buttons(s.Buttons)
	h.str(s.Meta.CaptchaProvider)
	h.str(s.Meta.CaptchaSiteKey)
	h.str(s.Meta.RedirectURL)
	h.bool(s.Meta.Closed)
	h.bool(s.Meta.Resume)
	h.extra(s.Meta.Extra)
	h.extra(s.I18n.Extra)
	h.raw(s.Submit)
	h.extra(s.Extra)
	h.add(unordered(s.I18n.Translations, func(h sum, _ hubclient.Translation) sum { return h }))
	if t, ok := s.I18n.Translations[tr]; ok {
		h.translation(t)
	}
	return uint64(h)
}

// sum is a running hash: each step is a bijection of the state for a given
// input, so changing any one input always changes the result.
type sum uint64

func (h *sum) add(x uint64) { *h = sum((bits.RotateLeft64(uint64(*h), 23) ^ x) * 0x9e3779b97f4a7c15) }

// str and raw take the empty string, as most members are, without hashing.
func (h *sum) str(s string) {
	if s == "" {
		h.add(0)
		return
	}
	h.add(maphash.String(fingerprintSeed, s))
}

func (h *sum) raw(b json.RawMessage) {
	if len(b) == 0 {
		h.add(0)
		return
	}
	h.add(maphash.Bytes(fingerprintSeed, b))
}

func (h *sum) bool(b bool) {
	if b {
		h.add(1)
	} else {
		h.add(0)
	}
}

func (h *sum) strs(list []string) {
	h.add(uint64(len(list)))
	for _, s := range list {
		h.str(s)
	}
}

func (h *sum) field(f *hubclient.Field) {
	h.str(f.Name)
	h.str(f.Type)
	h.str(f.Label)
	h.str(f.Placeholder)
	h.str(f.Help)
	h.bool(f.Required)
	h.bool(f.Multiple)
	h.add(uint64(len(f.Fields)))
	for i := range f.Fields {
		h.field(&f.Fields[i])
	}
	h.str(f.AddLabel)
	h.options(f.Options)
	h.options(f.Rows)
	h.options(f.Columns)
	h.add(uint64(len(f.Countries)))
	for _, c := range f.Countries {
		h.str(c)
	}
	h.str(f.Accept)
	h.add(uint64(f.MinLength))
	h.add(uint64(f.MaxLength))
	h.str(f.Pattern)
	h.str(string(f.Min))
	h.str(string(f.Max))
	h.add(math.Float64bits(f.Step))
	h.str(f.MinLabel)
	h.str(f.MaxLabel)
	h.str(f.Text)
	h.str(f.Src)
	h.str(f.Alt)
	h.add(uint64(f.MinItems))
	h.add(uint64(f.MaxItems))
	h.texts(f.Messages)
	h.raw(f.VisibleIf)
	h.raw(f.RequiredIf)
	h.bool(f.Prefill)
	h.extra(f.Extra)
}

func (h *sum) options(list []hubclient.Option) {
	h.add(uint64(len(list)))
	for i := range list {
		h.str(list[i].Value)
		h.str(list[i].Label)
		h.str(list[i].Image)
		h.str(list[i].Alt)
		h.add(math.Float64bits(list[i].Points))
		h.bool(list[i].Correct)
		h.extra(list[i].Extra)
	}
}

// fieldTranslation sums a field's translation, a group's fields' within.
func fieldTranslation(h sum, ft hubclient.FieldTranslation) sum {
	h.str(ft.Label)
	h.str(ft.Placeholder)
	h.str(ft.Help)
	h.texts(ft.Options)
	h.texts(ft.Rows)
	h.texts(ft.Columns)
	h.str(ft.MinLabel)
	h.str(ft.MaxLabel)
	h.str(ft.Text)
	h.str(ft.Alt)
	h.str(ft.AddLabel)
	h.add(unordered(ft.Fields, fieldTranslation))
	h.texts(ft.Messages)
	h.extra(ft.Extra)
	return h
}

// calculations sums the schema's calculations and its quiz.
func (h *sum) calculations(s *hubclient.Schema) {
	h.add(uint64(len(s.Calculations)))
	for i := range s.Calculations {
		c := &s.Calculations[i]
		h.str(c.Name)
		h.str(c.Label)
		h.raw(c.Expr)
		h.str(c.Format)
		h.str(c.Currency)
		h.bool(c.Decimals != nil)
		if c.Decimals != nil {
			h.add(uint64(*c.Decimals))
		}
		h.bool(c.Show)
		h.extra(c.Extra)
	}
	h.bool(s.Quiz != nil)
	if s.Quiz != nil {
		h.bool(s.Quiz.ShowAnswers)
		h.extra(s.Quiz.Extra)
	}
	h.bool(s.Theme != nil)
	if t := s.Theme; t != nil {
		for _, v := range []string{t.Accent, t.Background, t.Text, t.Mode, t.Radius, t.Font, t.Buttons, t.Density} {
			h.str(v)
		}
		h.extra(t.Extra)
		h.bool(t.Dark != nil)
		if t.Dark != nil {
			h.str(t.Dark.Accent)
			h.str(t.Dark.Background)
			h.str(t.Dark.Text)
			h.extra(t.Dark.Extra)
		}
		for _, img := range []*hubclient.ThemeImage{t.Logo, t.Cover} {
			h.bool(img != nil)
			if img != nil {
				h.str(img.Src)
				h.str(img.Alt)
				h.extra(img.Extra)
			}
		}
	}
}

func (h *sum) buttons(b hubclient.Buttons) {
	h.str(b.Submit)
	h.str(b.Next)
	h.str(b.Back)
	h.extra(b.Extra)
}

func (h *sum) translation(t hubclient.Translation) {
	h.str(t.Title)
	h.str(t.Description)
	h.add(unordered(t.Fields, fieldTranslation))
	h.add(unordered(t.Steps, func(h sum, st hubclient.StepTranslation) sum {
		h.str(st.Title)
		h.extra(st.Extra)
		return h
	}))
	h.add(unordered(t.Endings, func(h sum, et hubclient.EndingTranslation) sum {
		h.str(et.Title)
		h.str(et.Text)
		h.extra(et.Extra)
		return h
	}))
	h.buttons(t.Buttons)
	h.texts(t.Texts)
	h.texts(t.Calculations)
	h.extra(t.Extra)
}

func (h *sum) texts(m map[string]string) {
	h.add(unordered(m, func(h sum, s string) sum {
		h.str(s)
		return h
	}))
}

func (h *sum) extra(m hubclient.Extra) {
	h.add(unordered(m, func(h sum, b json.RawMessage) sum {
		h.raw(b)
		return h
	}))
}

// unordered sums up a map whatever the order its entries come in: each
// entry is summed on its own, with its key, and the entries' sums added.
func unordered[V any](m map[string]V, value func(sum, V) sum) uint64 {
	if len(m) == 0 {
		return 0
	}
	total := uint64(len(m))
	for k, v := range m {
		var e sum
		e.str(k)
		total += uint64(value(e, v))
	}
	return total
}
