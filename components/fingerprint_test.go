package components

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestFingerprintCoversEverything changes, one at a time, every member of
// a schema with every member set: each change must change the
// fingerprint, or the memo would serve a schema changed in place stale.
func TestFingerprintCoversEverything(t *testing.T) {
	n := 0
	for {
		var s hubclient.Schema
		fill(t, reflectValue(&s))
		base := fingerprint(&s, "k")
		if base != fingerprint(&s, "k") {
			t.Fatal("the fingerprint is not the same twice")
		}
		i := n
		path, ok := change(t, reflectValue(&s), "Schema", &i)
		if !ok {
			break
		}
		if fingerprint(&s, "k") == base {
			t.Errorf("changing %s leaves the fingerprint as it was", path)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d members changed: the walk missed most", n)
	}
}

func reflectValue(s *hubclient.Schema) reflect.Value { return reflect.ValueOf(s).Elem() }

// fill sets every member of v: text "v", true, 1, 1.5, JSON "v", one
// element in a list, one entry under "k" in a map.
// filling holds the struct types fill is filling.
var filling = map[reflect.Type]bool{}

func fill(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString("v")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(`"v"`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, v.Index(0))
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			t.Fatalf("a map keyed by %s: teach fingerprint and this test", v.Type().Key())
		}
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("k").Convert(v.Type().Key()), filled(t, v.Type().Elem()))
	case reflect.Struct:
		// A type within itself (a group's child fields) is filled once: the
		// inner one stays empty, its members changed from nothing.
		if filling[v.Type()] {
			return
		}
		filling[v.Type()] = true
		defer delete(filling, v.Type())
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				t.Fatalf("%s has an unexported member %s: teach fingerprint and this test", v.Type(), v.Type().Field(i).Name)
			}
			fill(t, v.Field(i))
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem())
	default:
		t.Fatalf("a member of kind %s: teach fingerprint and this test", v.Kind())
	}
}

func filled(t *testing.T, typ reflect.Type) reflect.Value {
	v := reflect.New(typ).Elem()
	fill(t, v)
	return v
}

// change changes the member number *n of v, counting in the order fill
// sets them, with a list's length and a map's keys as members too. It
// returns the member's path, or false when v has fewer members.
func change(t *testing.T, v reflect.Value, path string, n *int) (string, bool) {
	t.Helper()
	leaf := func() bool {
		if *n == 0 {
			return true
		}
		*n--
		return false
	}
	switch v.Kind() {
	case reflect.String:
		if leaf() {
			v.SetString(v.String() + "x")
			return path, true
		}
	case reflect.Bool:
		if leaf() {
			v.SetBool(!v.Bool())
			return path, true
		}
	case reflect.Int:
		if leaf() {
			v.SetInt(v.Int() + 1)
			return path, true
		}
	case reflect.Float64:
		if leaf() {
			v.SetFloat(v.Float() + 1)
			return path, true
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if leaf() {
				v.SetBytes([]byte(`"w"`))
				return path, true
			}
			return "", false
		}
		if leaf() {
			v.Set(reflect.Append(v, filled(t, v.Type().Elem())))
			return path + " (one more)", true
		}
		for i := range v.Len() {
			if p, ok := change(t, v.Index(i), fmt.Sprintf("%s[%d]", path, i), n); ok {
				return p, true
			}
		}
	case reflect.Map:
		key := func(s string) reflect.Value { return reflect.ValueOf(s).Convert(v.Type().Key()) }
		if v.IsNil() {
			// The map of a member fill left empty (a group's child's).
			if leaf() {
				v.Set(reflect.MakeMap(v.Type()))
				v.SetMapIndex(key("k2"), filled(t, v.Type().Elem()))
				return path + " (one more)", true
			}
			return "", false
		}
		if leaf() {
			v.SetMapIndex(key("k2"), filled(t, v.Type().Elem()))
			return path + " (one more)", true
		}
		if leaf() {
			e := v.MapIndex(key("k"))
			v.SetMapIndex(key("k"), reflect.Value{})
			v.SetMapIndex(key("k3"), e)
			return path + " (a key)", true
		}
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(v.MapIndex(key("k")))
		if p, ok := change(t, e, path+`["k"]`, n); ok {
			v.SetMapIndex(key("k"), e)
			return p, true
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if p, ok := change(t, v.Field(i), path+"."+v.Type().Field(i).Name, n); ok {
				return p, true
			}
		}
	case reflect.Pointer:
		// Set or not is a member, then what it points to.
		if leaf() {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
				return path + " (set)", true
			}
			v.Set(reflect.Zero(v.Type()))
			return path + " (unset)", true
		}
		if !v.IsNil() {
			return change(t, v.Elem(), path, n)
		}
	default:
		t.Fatalf("%s: a member of kind %s: teach fingerprint and this test", path, v.Kind())
	}
	return "", false
}
