package hubclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestSubmitSendsTheIdempotencyKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value any // under IdempotencyKeyField; nil leaves it out
		want  string
	}{
		{"string", "key-1", "key-1"},
		{"list from a form post", []string{"", "key-2"}, "key-2"},
		{"longest", strings.Repeat("k", hubclient.MaxIdempotencyKeyLength), strings.Repeat("k", hubclient.MaxIdempotencyKeyLength)},
		{"every printable byte", " !~azAZ09", " !~azAZ09"},
		{"empty", "", ""},
		{"absent", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHub(t)
			values := map[string]any{"name": "Jane"}
			if tc.value != nil {
				values[hubclient.IdempotencyKeyField] = tc.value
			}
			if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values); err != nil {
				t.Fatal(err)
			}
			sub := h.Submissions()[0]
			var body map[string]json.RawMessage
			if err := json.Unmarshal(sub.Body, &body); err != nil {
				t.Fatal(err)
			}
			raw, sent := body["idempotencyKey"]
			if tc.want == "" {
				if sent {
					t.Errorf("body %s sends an idempotencyKey", sub.Body)
				}
			} else if want, _ := json.Marshal(tc.want); string(raw) != string(want) {
				t.Errorf("idempotencyKey %s, want %s", raw, want)
			}
			if sub.Request.IdempotencyKey != tc.want {
				t.Errorf("hub read key %q, want %q", sub.Request.IdempotencyKey, tc.want)
			}
			if !reflect.DeepEqual(sub.Request.Payload, map[string]any{"name": "Jane"}) {
				t.Errorf("payload %v, want only the name", sub.Request.Payload)
			}
		})
	}
}

func TestSubmitRefusesBadIdempotencyKeys(t *testing.T) {
	for name, key := range map[string]any{
		"not a string": 12,
		"too long":     strings.Repeat("k", hubclient.MaxIdempotencyKeyLength+1),
		"newline":      "key\n",
		"not ASCII":    "kéy",
		"NUL":          "k\x00",
		"DEL":          "k\x7f",
	} {
		t.Run(name, func(t *testing.T) {
			h := newHub(t)
			values := map[string]any{hubclient.IdempotencyKeyField: key, "f": memFile("f", "", "1")}
			_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values)
			var serr *hubclient.SubmitError
			if !errors.As(err, &serr) || !strings.Contains(err.Error(), hubclient.IdempotencyKeyField) {
				t.Fatalf("error %v, want a *SubmitError naming %s", err, hubclient.IdempotencyKeyField)
			}
			if n := len(h.Requests()); n != 0 {
				t.Errorf("%d requests sent for a bad key; want none, uploads included", n)
			}
		})
	}
}

func TestCheckIdempotencyKey(t *testing.T) {
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"", true},
		{"01JD3Z5QK8V4W6XH2N9R7T0B1C", true},
		{"a b", true},
		{"~", true},
		{strings.Repeat("x", 128), true},
		{strings.Repeat("x", 129), false},
		{"tab\t", false},
		{"\x1f", false},
		{"\x7f", false},
		{"ü", false},
		{"\xff", false},
	} {
		if err := hubclient.CheckIdempotencyKey(tc.key); (err == nil) != tc.ok {
			t.Errorf("CheckIdempotencyKey(%q) = %v, want ok %v", tc.key, err, tc.ok)
		}
	}
}

func TestSubmitRequestIdempotencyKeyJSON(t *testing.T) {
	req := hubclient.SubmitRequest{
		Payload:        map[string]any{"a": "1"},
		CaptchaToken:   "t",
		IdempotencyKey: "key-1",
		Honeypots:      map[string]string{"_hp": ""},
	}
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"payload":{"a":"1"},"captchaToken":"t","idempotencyKey":"key-1","_hp":""}`; string(data) != want {
		t.Errorf("marshalled %s, want %s", data, want)
	}
	var back hubclient.SubmitRequest
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, req) {
		t.Errorf("unmarshalled %+v, want %+v", back, req)
	}

	// Without a key the member is left out, as hubs before it expect.
	req.IdempotencyKey = ""
	if data, _ := json.Marshal(req); strings.Contains(string(data), "idempotencyKey") {
		t.Errorf("marshalled %s, want no idempotencyKey", data)
	}

	// Reading: unknown members are still ignored, a key that is not a
	// string is an error.
	if err := json.Unmarshal([]byte(`{"payload":{},"idempotencyKey":"k","somethingNew":1}`), &back); err != nil || back.IdempotencyKey != "k" {
		t.Errorf("unmarshalled %+v, %v; want key k", back, err)
	}
	if err := json.Unmarshal([]byte(`{"payload":{},"idempotencyKey":7}`), &back); err == nil {
		t.Error("a numeric idempotencyKey unmarshalled without error")
	}
}
