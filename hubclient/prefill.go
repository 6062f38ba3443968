package hubclient

// Prefillable reports whether the field may take its value from the query
// string of the page the form is on, by its name: a hidden field, or one
// marked Prefill. Honeypots, file fields, signatures and content never do.
func (f *Field) Prefillable() bool {
	if IsHoneypot(f.Name) || f.TypeOf().TakesFiles() || !f.TypeOf().HasValue() {
		return false
	}
	return f.Type == FieldHidden || f.Prefill
}

// Prefill returns the values of query ("?utm_source=newsletter") that
// prefill the form: those of prefillable fields (Field.Prefillable), each
// kept only when it breaks none of its field's rules, judged as a typed
// value is (an option that does not exist, a text too long, a pattern not
// matched). Empty values are left out, and a field that is required is
// not asked for a value. It returns nil when nothing prefills the form.
func (l *Logic) Prefill(query map[string][]string) map[string][]string {
	var out map[string][]string
	for i := range l.schema.Fields {
		f := &l.schema.Fields[i]
		if !f.Prefillable() {
			continue
		}
		given := prefillKeys(f, query)
		if len(given) == 0 {
			continue
		}
		v, _ := f.ValueIn(given)
		if IsEmptyValue(v) || l.checkField(f, false, v).Code != "" {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		for k, list := range given {
			out[k] = list
		}
	}
	return out
}

// prefillKeys returns what query holds for the field, by key: its name,
// or its parts' keys ("?addr.country=FR") for a composite field; one text
// a key but for a list.
func prefillKeys(f *Field, query map[string][]string) map[string][]string {
	keys := []string{f.Name}
	if parts := f.Parts(); parts != nil {
		keys = keys[:0]
		for _, part := range parts {
			keys = append(keys, f.PartKey(part))
		}
	}
	var given map[string][]string
	for _, k := range keys {
		list := query[k]
		if len(list) == 0 {
			continue
		}
		if !f.TypeOf().IsList() && !(f.Type == FieldMatrix && f.Multiple) {
			list = list[:1]
		}
		if given == nil {
			given = map[string][]string{}
		}
		given[k] = list
	}
	return given
}
