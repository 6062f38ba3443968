package hubclient

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func FuzzSchemaRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`{"title":"Contact","fields":[{"name":"a","type":"text","x-ui":{"w":3}}],"steps":[{"id":"s","fields":["a"]}],"future":[1,2]}`,
		`{"fields":[{"name":"t","type":"select","options":["a",{"value":"b","label":"B","icon":"i"}]}],"steps":[]}`,
		`{"meta":{"captchaProvider":"turnstile","captchaSiteKey":"k","theme":"dark"},"i18n":{"translations":{"de":{"fields":{"a":{"label":"A","options":{"x":"y"},"hint":1}},"texts":{"thanks":"Danke"}}},"fallback":"en"}}`,
		`{"Title":"case","TITLE":"more","submit":{"to":"x"},"buttons":{"submit":"Go","cancel":"No"}}`,
		`{}`, `null`, `[]`, `{"fields":null}`, `{"a":"\u0000"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s1 Schema
		if json.Unmarshal(data, &s1) != nil {
			return
		}
		out1, err := json.Marshal(s1)
		if err != nil {
			t.Fatalf("encoding a decoded schema: %v", err)
		}
		var s2 Schema
		if err := json.Unmarshal(out1, &s2); err != nil {
			t.Fatalf("decoding our own encoding %s: %v", out1, err)
		}
		out2, err := json.Marshal(s2)
		if err != nil || !bytes.Equal(out1, out2) {
			t.Fatalf("round trip not stable:\n%s\n%s", out1, out2)
		}
		// Every member the schema type does not declare survives as it was.
		var in, out map[string]json.RawMessage
		if json.Unmarshal(data, &in) != nil {
			return
		}
		json.Unmarshal(out1, &out)
		names := jsonNames(typeOf[Schema]())
		for k, v := range in {
			if names[strings.ToLower(k)] {
				continue
			}
			// json.Marshal escapes <, > and & in strings; the same
			// value either way.
			var compact, want, got bytes.Buffer
			json.Compact(&compact, v)
			json.HTMLEscape(&want, compact.Bytes())
			json.Compact(&got, out[k])
			if want.String() != got.String() {
				t.Fatalf("member %q: %s became %s", k, want.String(), got.String())
			}
		}
	})
}

func FuzzSplitValues(f *testing.F) {
	f.Add([]byte(`{"name":"Jane","_hp":"","_hp_x":"bot","_hpn":3,"_captchaToken":"t","_turnstile":"old","tags":["a","b"]}`), uint8(3), "files")
	f.Add([]byte(`{"_hp":["a","b"],"_captchaToken":["",""],"x":{"y":[1]}}`), uint8(0), "_hp")
	f.Add([]byte(`{"_turnstile":5}`), uint8(1), "_captchaToken")
	f.Add([]byte(`{"_idempotencyKey":"k-1","name":"Jane"}`), uint8(0), "")
	f.Add([]byte(`{"_idempotencyKey":["","k\n"]}`), uint8(1), "_idempotencyKey")
	f.Add([]byte(`{}`), uint8(2), "")
	f.Fuzz(func(t *testing.T, data []byte, nfiles uint8, fileField string) {
		values := map[string]any{}
		if json.Unmarshal(data, &values) != nil {
			return
		}
		if nfiles > 0 {
			files := make([]File, nfiles%5)
			for i := range files {
				files[i] = NewFile("f", "", 1, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("x")), nil })
			}
			values[fileField] = files
		}
		s, err := splitValues(values)
		if err != nil {
			return // refusing is fine; panicking or misplacing is not
		}
		if CheckIdempotencyKey(s.idempotencyKey) != nil {
			t.Fatalf("idempotency key %q accepted", s.idempotencyKey)
		}
		placed := map[string]int{}
		for k, v := range s.payload {
			placed[k]++
			if hasFile(v) {
				t.Fatalf("payload %q holds a file", k)
			}
			if k == TokenField || k == LegacyTokenField || k == IdempotencyKeyField || k == "_hp" {
				t.Fatalf("special value %q left in the payload", k)
			}
		}
		for k := range s.honeypots {
			placed[k]++
			if !IsHoneypot(k) {
				t.Fatalf("%q sent as a honeypot", k)
			}
		}
		fileCount := map[string]int{}
		for _, ff := range s.files {
			fileCount[ff.field]++
		}
		for k, n := range fileCount {
			placed[k]++
			if files, _ := values[k].([]File); n != len(files) {
				t.Fatalf("field %q: %d files uploaded of %d", k, n, len(files))
			}
		}
		for k := range values {
			want := 1
			if k == TokenField || k == LegacyTokenField || k == IdempotencyKeyField {
				want = 0
			}
			if placed[k] != want {
				t.Fatalf("value %q placed %d times, want %d", k, placed[k], want)
			}
		}
	})
}

// FuzzCondition: a condition either is refused or evaluates, without a
// panic, within the parse-time limits, whatever the rule and the values.
func FuzzCondition(f *testing.F) {
	for _, seed := range []string{
		`{"==":[{"var":"a"},"other"]}`, `{"if":[{"var":"a"},{"var":"b"},true]}`, `{"in":["x",{"var":"l"}]}`,
		`{"<":[1,{"var":"n"},3]}`, `{"cat":[{"var":"a"},{"var":"l"}]}`, `{"/":[1,0]}`, `{"%":[{"var":"a"},{"var":"l"}]}`,
		`{"missing":["a","b"]}`, `{"var":["a",1]}`, `{"!":[]}`, `[{"var":"a"}]`, `{"min":[{"var":"l"}]}`, `{"-":[{"var":"l"}]}`,
	} {
		f.Add([]byte(seed), "other", 2.5)
	}
	known := func(name string) bool { return name == "a" || name == "b" || name == "l" || name == "n" }
	f.Fuzz(func(t *testing.T, rule []byte, a string, n float64) {
		c, err := ParseCondition(rule, known)
		if err != nil {
			return
		}
		c.Holds(map[string]any{"a": a, "b": n > 0, "l": []any{a, "x"}, "n": n})
		c.Holds(map[string]any{})
	})
}
