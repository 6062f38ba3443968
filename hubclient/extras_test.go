package hubclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

func TestSubmitCarriesTheContextsLocaleTimingAndDraft(t *testing.T) {
	h := newHub(t)
	ctx := hubclient.WithTiming(hubclient.WithLocale(context.Background(), "de-AT"), hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 12.5})
	ctx = hubclient.WithDraft(ctx, "draft-token")
	if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(ctx, map[string]any{"name": "Jane"}); err != nil {
		t.Fatal(err)
	}
	if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{"name": "Joe"}); err != nil {
		t.Fatal(err)
	}
	subs := h.Submissions()
	if len(subs) != 2 {
		t.Fatalf("%d submissions", len(subs))
	}
	var body map[string]json.RawMessage
	json.Unmarshal(subs[0].Body, &body)
	if string(body["locale"]) != `"de-AT"` || string(body["timing"]) != `{"stamp":"valid","seconds":12.5}` || string(body["draft"]) != `"draft-token"` {
		t.Errorf("locale %s, timing %s, draft %s", body["locale"], body["timing"], body["draft"])
	}
	if _, ok := body["payload"]; !ok {
		t.Error("no payload")
	}
	body = nil
	json.Unmarshal(subs[1].Body, &body)
	if _, ok := body["locale"]; ok {
		t.Errorf("a context without a locale sent %s", body["locale"])
	}
	if _, ok := body["timing"]; ok {
		t.Errorf("a context without timing sent %s", body["timing"])
	}
	if _, ok := body["draft"]; ok {
		t.Errorf("a context without a draft sent %s", body["draft"])
	}
}

func TestHubRefusalsMatchTheirSentinels(t *testing.T) {
	h := newHub(t)
	h.FailNext(fakehub.RouteSubmit, http.StatusForbidden, hubclient.ErrorClosed)
	h.FailNext(fakehub.RouteSubmit, http.StatusForbidden, "captcha refused")
	submit := func() error {
		_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{"name": "Jane"})
		return err
	}
	if err := submit(); !errors.Is(err, hubclient.ErrFormClosed) || errors.Is(err, hubclient.ErrDuplicate) {
		t.Errorf("403 closed: %v, want ErrFormClosed alone", err)
	}
	if err := submit(); errors.Is(err, hubclient.ErrFormClosed) {
		t.Errorf("another 403 matches ErrFormClosed: %v", err)
	}
	dup := &hubclient.HubError{StatusCode: http.StatusConflict, Message: "already sent", Fields: map[string]string{"email": "sent"}}
	if !errors.Is(&hubclient.SubmitError{Err: dup}, hubclient.ErrDuplicate) {
		t.Error("409 with a field error does not match ErrDuplicate")
	}
	if errors.Is(&hubclient.HubError{StatusCode: http.StatusConflict}, hubclient.ErrDuplicate) {
		t.Error("409 without a field error matches ErrDuplicate")
	}
}

func TestMetaRedirect(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com/thanks?from=form": "https://example.com/thanks?from=form",
		"http://example.com":                   "http://example.com",
		"":                                     "",
		"/thanks?from=form":                    "/thanks?from=form",
		"//example.com/thanks":                 "",
		"/\\example.com/thanks":                "",
		"/thanks\\x":                           "",
		"thanks":                               "",
		"javascript:alert(1)":                  "",
		"JavaScript:alert(1)":                  "",
		" javascript:alert(1)":                 "",
		"java\tscript:alert(1)":                "",
		"data:text/html,<script>alert(1)</script>": "",
		"https://example.com/\u2028":               "",
		"ftp://example.com/x":                      "",
		"https://user:pw@example.com/":             "",
		"https://exa mple.com/":                    "",
	} {
		if got := (hubclient.Meta{RedirectURL: raw}).Redirect(); got != want {
			t.Errorf("Redirect of %q = %q, want %q", raw, got, want)
		}
	}
	// A schema holding only the redirect and the closed mark keeps them.
	data, err := json.Marshal(hubclient.Schema{Meta: hubclient.Meta{RedirectURL: "https://example.com/", Closed: true}})
	if err != nil {
		t.Fatal(err)
	}
	var back hubclient.Schema
	json.Unmarshal(data, &back)
	if back.Meta.RedirectURL != "https://example.com/" || !back.Meta.Closed {
		t.Errorf("meta lost in %s", data)
	}
}

func TestPrefill(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "utm_source", Type: hubclient.FieldHidden},
		{Name: "plan", Type: hubclient.FieldSelect, Prefill: true, Options: []hubclient.Option{{Value: "basic"}, {Value: "pro"}}},
		{Name: "extras", Type: hubclient.FieldCheckboxes, Prefill: true, Options: []hubclient.Option{{Value: "a"}, {Value: "b"}}},
		{Name: "code", Type: hubclient.FieldText, Prefill: true, Pattern: "[A-Z]{2}"},
		{Name: "seats", Type: hubclient.FieldNumber, Prefill: true, Min: "1", Max: "9", Required: true},
		{Name: "name", Type: hubclient.FieldText, Required: true},
		{Name: "_hp", Type: hubclient.FieldHidden},
		{Name: "files", Type: hubclient.FieldFile, Prefill: true},
	}, Steps: []hubclient.Step{{ID: "s", Fields: []string{"plan", "extras", "code", "seats", "name", "files"}}}}
	logic, err := hubclient.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	got := logic.Prefill(map[string][]string{
		"utm_source": {"newsletter", "ignored"},
		"plan":       {"pro"},
		"extras":     {"a", "b"},
		"code":       {"AB"},
		"seats":      {"3"},
		"name":       {"Mallory"},
		"_hp":        {"x"},
		"files":      {"a.txt"},
		"other":      {"x"},
	})
	want := map[string][]string{"utm_source": {"newsletter"}, "plan": {"pro"}, "extras": {"a", "b"}, "code": {"AB"}, "seats": {"3"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Prefill = %v, want %v", got, want)
	}
	bad := logic.Prefill(map[string][]string{
		"utm_source": {strings.Repeat("x", hubclient.MaxLineLength+1)},
		"plan":       {"enterprise"},
		"extras":     {"a", "c"},
		"code":       {"abc"},
		"seats":      {"12"},
	})
	if bad != nil {
		t.Errorf("values breaking their rules prefilled: %v", bad)
	}
	if got := logic.Prefill(map[string][]string{"seats": {""}}); got != nil {
		t.Errorf("an empty value prefilled: %v", got)
	}
}
