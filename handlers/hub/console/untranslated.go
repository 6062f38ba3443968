package console

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hubform/hubform/hubclient"
)

// localeGaps is what one translation of a form leaves in the base
// language.
type localeGaps struct {
	Locale string
	// Missing are the overlay's members, as JSON paths below the
	// locale's translation, that the base language has and it has not.
	Missing []string
	// Total is how many texts of the base language could be translated.
	Total int
}

// untranslated lists, per locale of s, the texts of the base language
// that its overlay does not translate, which visitors read untranslated.
func untranslated(s *hubclient.Schema) []localeGaps {
	if s == nil {
		return nil
	}
	ts := texts(s)
	var out []localeGaps
	for _, loc := range slices.Sorted(maps.Keys(s.I18n.Translations)) {
		tr := s.I18n.Translations[loc]
		g := localeGaps{Locale: loc, Total: len(ts)}
		for _, t := range ts {
			if t.get(tr) == "" {
				g.Missing = append(g.Missing, t.Path)
			}
		}
		out = append(out, g)
	}
	return out
}

// text is one translatable text of a form: its base language's wording
// and where a translation overlay holds it.
type text struct {
	// Path is the overlay's member, as a JSON path below the locale's
	// translation.
	Path string
	Base string
	get  func(hubclient.Translation) string
	set  func(*hubclient.Translation, string)
}

// texts lists every text of s that the base language has and a
// translation may replace, in the order visitors meet them.
func texts(s *hubclient.Schema) []text {
	var out []text
	add := func(base, path string, get func(hubclient.Translation) string, set func(*hubclient.Translation, string)) {
		if base != "" {
			out = append(out, text{Path: path, Base: base, get: get, set: set})
		}
	}
	add(s.Title, "title", func(t hubclient.Translation) string { return t.Title }, func(t *hubclient.Translation, v string) { t.Title = v })
	add(s.Description, "description", func(t hubclient.Translation) string { return t.Description }, func(t *hubclient.Translation, v string) { t.Description = v })
	for _, f := range s.Fields {
		if f.Type == hubclient.FieldHidden || hubclient.IsHoneypot(f.Name) {
			continue
		}
		name := f.Name
		at := fmt.Sprintf("fields[%q]", name)
		field := func(get func(hubclient.FieldTranslation) string, set func(*hubclient.FieldTranslation, string)) (func(hubclient.Translation) string, func(*hubclient.Translation, string)) {
			return func(t hubclient.Translation) string { return get(t.Fields[name]) },
				func(t *hubclient.Translation, v string) {
					ft, ok := t.Fields[name]
					if !ok && v == "" {
						return
					}
					set(&ft, v)
					if ft.Label == "" && ft.Placeholder == "" && ft.Help == "" && ft.MinLabel == "" && ft.MaxLabel == "" &&
						ft.Text == "" && ft.Alt == "" && len(ft.Options) == 0 && len(ft.Rows) == 0 && len(ft.Columns) == 0 && len(ft.Messages) == 0 && len(ft.Extra) == 0 &&
						ft.AddLabel == "" && len(ft.Fields) == 0 {
						// Nothing left to translate the field with.
						delete(t.Fields, name)
						return
					}
					if t.Fields == nil {
						t.Fields = map[string]hubclient.FieldTranslation{}
					}
					t.Fields[name] = ft
				}
		}
		get, set := field(func(ft hubclient.FieldTranslation) string { return ft.Label }, func(ft *hubclient.FieldTranslation, v string) { ft.Label = v })
		add(f.Label, at+".label", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.Placeholder }, func(ft *hubclient.FieldTranslation, v string) { ft.Placeholder = v })
		add(f.Placeholder, at+".placeholder", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.Help }, func(ft *hubclient.FieldTranslation, v string) { ft.Help = v })
		add(f.Help, at+".help", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.MinLabel }, func(ft *hubclient.FieldTranslation, v string) { ft.MinLabel = v })
		add(f.MinLabel, at+".minLabel", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.MaxLabel }, func(ft *hubclient.FieldTranslation, v string) { ft.MaxLabel = v })
		add(f.MaxLabel, at+".maxLabel", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.Text }, func(ft *hubclient.FieldTranslation, v string) { ft.Text = v })
		add(f.Text, at+".text", get, set)
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.Alt }, func(ft *hubclient.FieldTranslation, v string) { ft.Alt = v })
		add(f.Alt, at+".alt", get, set)
		// An option's label, and a matrix's rows' and columns', by value.
		for _, m := range []struct {
			member string
			list   []hubclient.Option
			labels func(ft *hubclient.FieldTranslation) *map[string]string
		}{
			{"options", f.Options, func(ft *hubclient.FieldTranslation) *map[string]string { return &ft.Options }},
			{"rows", f.Rows, func(ft *hubclient.FieldTranslation) *map[string]string { return &ft.Rows }},
			{"columns", f.Columns, func(ft *hubclient.FieldTranslation) *map[string]string { return &ft.Columns }},
		} {
			for _, o := range m.list {
				value, labels := o.Value, m.labels
				get, set = field(func(ft hubclient.FieldTranslation) string { return (*labels(&ft))[value] }, func(ft *hubclient.FieldTranslation, v string) {
					l := labels(ft)
					if v == "" {
						delete(*l, value)
						return
					}
					if *l == nil {
						*l = map[string]string{}
					}
					(*l)[value] = v
				})
				add(o.Label, fmt.Sprintf("%s.%s[%q]", at, m.member, value), get, set)
			}
		}
		get, set = field(func(ft hubclient.FieldTranslation) string { return ft.AddLabel }, func(ft *hubclient.FieldTranslation, v string) { ft.AddLabel = v })
		add(f.AddLabel, at+".addLabel", get, set)
		// A group's fields: their label, placeholder, help and options.
		for _, c := range f.Fields {
			child := c.Name
			cat := fmt.Sprintf("%s.fields[%q]", at, child)
			sub := func(get func(hubclient.FieldTranslation) string, set func(*hubclient.FieldTranslation, string)) (func(hubclient.Translation) string, func(*hubclient.Translation, string)) {
				return field(func(ft hubclient.FieldTranslation) string { return get(ft.Fields[child]) }, func(ft *hubclient.FieldTranslation, v string) {
					ct := ft.Fields[child]
					set(&ct, v)
					if ct.Label == "" && ct.Placeholder == "" && ct.Help == "" && len(ct.Options) == 0 {
						delete(ft.Fields, child)
						return
					}
					if ft.Fields == nil {
						ft.Fields = map[string]hubclient.FieldTranslation{}
					}
					ft.Fields[child] = ct
				})
			}
			get, set = sub(func(ct hubclient.FieldTranslation) string { return ct.Label }, func(ct *hubclient.FieldTranslation, v string) { ct.Label = v })
			add(c.Label, cat+".label", get, set)
			get, set = sub(func(ct hubclient.FieldTranslation) string { return ct.Placeholder }, func(ct *hubclient.FieldTranslation, v string) { ct.Placeholder = v })
			add(c.Placeholder, cat+".placeholder", get, set)
			get, set = sub(func(ct hubclient.FieldTranslation) string { return ct.Help }, func(ct *hubclient.FieldTranslation, v string) { ct.Help = v })
			add(c.Help, cat+".help", get, set)
			for _, o := range c.Options {
				value := o.Value
				get, set = sub(func(ct hubclient.FieldTranslation) string { return ct.Options[value] }, func(ct *hubclient.FieldTranslation, v string) {
					if v == "" {
						delete(ct.Options, value)
						return
					}
					if ct.Options == nil {
						ct.Options = map[string]string{}
					}
					ct.Options[value] = v
				})
				add(o.Label, fmt.Sprintf("%s.options[%q]", cat, value), get, set)
			}
		}
	}
	for _, st := range s.Steps {
		id := st.ID
		add(st.Title, fmt.Sprintf("steps[%q].title", id), func(t hubclient.Translation) string { return t.Steps[id].Title }, func(t *hubclient.Translation, v string) {
			sv, ok := t.Steps[id]
			if !ok && v == "" {
				return
			}
			sv.Title = v
			if t.Steps == nil {
				t.Steps = map[string]hubclient.StepTranslation{}
			}
			t.Steps[id] = sv
		})
	}
	for _, e := range s.Endings {
		for _, m := range []struct {
			member, base string
			field        func(*hubclient.EndingTranslation) *string
		}{
			{"title", e.Title, func(et *hubclient.EndingTranslation) *string { return &et.Title }},
			{"text", e.Text, func(et *hubclient.EndingTranslation) *string { return &et.Text }},
		} {
			id := e.ID
			add(m.base, fmt.Sprintf("endings[%q].%s", id, m.member), func(t hubclient.Translation) string {
				et := t.Endings[id]
				return *m.field(&et)
			}, func(t *hubclient.Translation, v string) {
				setEnding(t, id, func(et *hubclient.EndingTranslation) { *m.field(et) = v })
			})
		}
	}
	for _, c := range s.Calculations {
		name := c.Name
		add(c.Label, fmt.Sprintf("calculations[%q]", name), func(t hubclient.Translation) string { return t.Calculations[name] }, func(t *hubclient.Translation, v string) {
			if v == "" {
				delete(t.Calculations, name)
				return
			}
			if t.Calculations == nil {
				t.Calculations = map[string]string{}
			}
			t.Calculations[name] = v
		})
	}
	add(s.Buttons.Submit, "buttons.submit", func(t hubclient.Translation) string { return t.Buttons.Submit }, func(t *hubclient.Translation, v string) { t.Buttons.Submit = v })
	add(s.Buttons.Next, "buttons.next", func(t hubclient.Translation) string { return t.Buttons.Next }, func(t *hubclient.Translation, v string) { t.Buttons.Next = v })
	add(s.Buttons.Back, "buttons.back", func(t hubclient.Translation) string { return t.Buttons.Back }, func(t *hubclient.Translation, v string) { t.Buttons.Back = v })
	return out
}

// setEnding changes the overlay of the ending id with set, dropping it once
// it translates nothing.
func setEnding(t *hubclient.Translation, id string, set func(*hubclient.EndingTranslation)) {
	et := t.Endings[id]
	set(&et)
	if et.Title == "" && et.Text == "" && len(et.Extra) == 0 {
		delete(t.Endings, id)
		return
	}
	if t.Endings == nil {
		t.Endings = map[string]hubclient.EndingTranslation{}
	}
	t.Endings[id] = et
}
