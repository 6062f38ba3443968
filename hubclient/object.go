package hubclient

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Extra holds the members of a JSON object that the Go type does not
// declare. Keeping them means a decode followed by an encode loses nothing a
// hub or a newer schema version put there.
type Extra map[string]json.RawMessage

// knownNames caches, per struct type, the JSON member names it declares,
// lower-cased: encoding/json matches member names without regard to case,
// so "Title" fills the same field as "title" and is no unknown member.
var knownNames sync.Map // reflect.Type -> map[string]bool

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

func jsonNames(t reflect.Type) map[string]bool {
	if v, ok := knownNames.Load(t); ok {
		return v.(map[string]bool)
	}
	names := make(map[string]bool, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		names[strings.ToLower(name)] = true
	}
	knownNames.Store(t, names)
	return names
}

// decodeObject decodes data into known (a pointer to a struct type without
// JSON methods) and returns the members known does not declare.
func decodeObject(data []byte, known any) (Extra, error) {
	if err := json.Unmarshal(data, known); err != nil {
		return nil, err
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	names := jsonNames(reflect.TypeOf(known).Elem())
	var extra Extra
	for k, v := range all {
		if names[strings.ToLower(k)] {
			continue
		}
		if extra == nil {
			extra = make(Extra)
		}
		extra[k] = v
	}
	return extra, nil
}

// encodeObject encodes known (a struct value without JSON methods) and
// appends the extra members in a stable order, skipping any that shadow a
// declared member.
func encodeObject(known any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return data, err
	}
	names := jsonNames(reflect.TypeOf(known))
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !names[strings.ToLower(k)] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Write(data[:len(data)-1]) // drop the closing brace
	first := len(data) == 2       // "{}"
	for _, k := range keys {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		name, _ := json.Marshal(k)
		buf.Write(name)
		buf.WriteByte(':')
		value := extra[k]
		if len(bytes.TrimSpace(value)) == 0 {
			value = json.RawMessage("null")
		}
		if err := json.Compact(&buf, value); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
