package hubclient

// Prefillable reports whether the field may take its value from the query
// string of the page the form is on, by its name: a hidden field, or one
// marked Prefill. Honeypots, file fields and content never do.
func (f *Field) Prefillable() bool {
	if IsHoneypot(f.Name) || f.TypeOf().IsFiles() || !f.TypeOf().HasValue() {
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
		list := query[f.Name]
		if len(list) == 0 || !f.Prefillable() {
			continue
		}
		if !f.TypeOf().IsList() {
			list = list[:1]
		}
		v := Values(l.schema, map[string][]string{f.Name: list})[f.Name]
		if IsEmptyValue(v) || l.checkField(f, false, v).Code != "" {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[f.Name] = list
	}
	return out
}
