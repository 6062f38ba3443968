package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// hubform runs the command line and returns its status and output.
func hubform(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(context.Background(), args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestSubmitCommand(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.pdf")
	photo := filepath.Join(dir, "photo.png")
	os.WriteFile(report, []byte("%PDF-1.4 report"), 0o600)
	os.WriteFile(photo, []byte("\x89PNG\r\n\x1a\nphoto"), 0o600)

	status, stdout, stderr := hubform(t, "submit", "--hub-url", h.URL, "--site", "acme co", "--form", "contact",
		"name=Jane", "tags=a", "tags=b", "note=@@home", "files=@"+report, "--timeout", "30s", "files=@"+photo, "_hp=")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	subs := h.Submissions()
	if len(subs) != 1 || stdout != subs[0].ID+"\n" {
		t.Fatalf("stdout %q, submissions %+v", stdout, subs)
	}
	got := subs[0]
	if got.Site != "acme co" || got.Form != "contact" {
		t.Errorf("submitted to %s/%s", got.Site, got.Form)
	}
	want := map[string]any{"name": "Jane", "tags": []any{"a", "b"}, "note": "@home"}
	if !reflect.DeepEqual(got.Request.Payload, want) || got.Request.Honeypots["_hp"] != "" || len(got.Request.Honeypots) != 1 {
		t.Errorf("payload %v honeypots %v", got.Request.Payload, got.Request.Honeypots)
	}
	att := got.Request.Attachments
	if len(att) != 2 || att[0].Filename != "report.pdf" || att[0].MIME != "application/pdf" || att[1].MIME != "image/png" {
		t.Fatalf("attachments %+v", att)
	}
	for i, path := range []string{report, photo} {
		body, _ := os.ReadFile(path)
		if u, _ := h.Upload(att[i].Key); u.SHA256 != sha256.Sum256(body) {
			t.Errorf("%s not stored byte for byte", path)
		}
	}
}

func TestSubmitCommandJSONAndEnvironment(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	t.Setenv("HUBFORM_HUB_URL", h.URL)
	t.Setenv("HUBFORM_SITE", "acme")
	t.Setenv("HUBFORM_FORM", "contact")
	status, stdout, _ := hubform(t, "submit", "--json", "a=1")
	var answer map[string]any
	if status != 0 || json.Unmarshal([]byte(stdout), &answer) != nil || answer["ok"] != true || answer["submissionId"] != "sub-1" {
		t.Errorf("status %d, stdout %q", status, stdout)
	}
}

func TestSubmitCommandFailures(t *testing.T) {
	for _, tc := range []struct {
		route  fakehub.Route
		status int
		prefix string
	}{
		{fakehub.RouteUploadURL, http.StatusRequestEntityTooLarge, "upload-url failed: "},
		{fakehub.RoutePut, http.StatusForbidden, "upload PUT to R2 failed: "},
		{fakehub.RouteSubmit, http.StatusUnprocessableEntity, "submit failed: "},
	} {
		h := fakehub.NewServer()
		h.FailNext(tc.route, tc.status, "refused here")
		file := filepath.Join(t.TempDir(), "a.txt")
		os.WriteFile(file, []byte("a"), 0o600)
		status, stdout, stderr := hubform(t, "submit", "--hub-url", h.URL, "--site", "s", "--form", "f", "f=@"+file)
		h.Close()
		if status != 1 || stdout != "" || !strings.HasPrefix(stderr, tc.prefix) || !strings.Contains(stderr, "refused here") {
			t.Errorf("%s failing: status %d, stdout %q, stderr %q", tc.route, status, stdout, stderr)
		}
	}
}

func TestSubmitCommandUsage(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.txt")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"submit", "a=1"}, "--site and --form are required"},
		{[]string{"submit", "--site", "s", "--form", "f", "novalue"}, `argument "novalue": want NAME=VALUE or FIELD=@PATH`},
		{[]string{"submit", "--site", "s", "--form", "f", "=x"}, "want NAME=VALUE"},
		{[]string{"submit", "--site", "s", "--form", "f", "f=@" + missing}, "no such file"},
		{[]string{"submit", "--site", "s", "--form", "f", "--timeout", "0s"}, "must be positive"},
		{[]string{"submit", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{nil, "Commands:"},
	} {
		status, stdout, stderr := hubform(t, tc.args...)
		if status != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
}

func TestSubmitCommandMixedFilesAndText(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(file, []byte("a"), 0o600)
	status, _, stderr := hubform(t, "submit", "--site", "s", "--form", "f", "x=1", "x=@"+file)
	if status != 2 || !strings.Contains(stderr, "x mixes files and text") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"help"}, {"help", "submit"}, {"submit", "--help"}, {"submit", "-h"}} {
		status, stdout, stderr := hubform(t, args...)
		if status != 0 || stderr != "" || !strings.Contains(stdout, "submit") {
			t.Errorf("%q: status %d, stderr %q", args, status, stderr)
		}
	}
	if _, stdout, _ := hubform(t, "--help"); !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "hubform submit --hub-url") {
		t.Errorf("hubform --help lacks examples:\n%s", stdout)
	}
	_, stdout, _ := hubform(t, "submit", "--help")
	for _, want := range []string{"Example:", "--hub-url URL", "--site SITE", "--timeout duration", "--json\n", "HUBFORM_HUB_URL", "FIELD=@PATH", "RANK=B,A,C", "NAME.PART=VALUE", "sig=@sig.png", "Exit status"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("submit --help lacks %q", want)
		}
	}
}

func TestSubmitCommandIdempotencyKey(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	args := []string{"submit", "--hub-url", h.URL, "--site", "acme", "--form", "contact", "name=Jane"}
	var ids []string
	for _, extra := range [][]string{{"--idempotency-key", "retry-1"}, {"--idempotency-key", "retry-1"}, {"_idempotencyKey=retry-1"}} {
		status, stdout, stderr := hubform(t, append(append([]string{}, args...), extra...)...)
		if status != 0 || stderr != "" {
			t.Fatalf("%q: status %d, stderr %q", extra, status, stderr)
		}
		ids = append(ids, strings.TrimSpace(stdout))
	}
	subs := h.Submissions()
	if len(subs) != 1 || ids[0] != subs[0].ID || ids[1] != ids[0] || ids[2] != ids[0] {
		t.Fatalf("printed %q, stored %+v; want one submission's id three times", ids, subs)
	}
	if got := subs[0].Request; got.IdempotencyKey != "retry-1" || !reflect.DeepEqual(got.Payload, map[string]any{"name": "Jane"}) {
		t.Errorf("sent key %q, payload %v", got.IdempotencyKey, got.Payload)
	}
	if !strings.Contains(string(subs[0].Body), `"idempotencyKey":"retry-1"`) {
		t.Errorf("body %s", subs[0].Body)
	}

	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--idempotency-key", strings.Repeat("k", 129)}, "longer than 128"},
		{[]string{"--idempotency-key", "tab\there"}, "printable ASCII"},
		{[]string{"--idempotency-key", "a", "_idempotencyKey=b"}, "give the idempotency key once"},
		{[]string{"_idempotencyKey=a", "_idempotencyKey=b"}, "give the idempotency key once"},
	} {
		status, stdout, stderr := hubform(t, append(append([]string{}, args...), tc.extra...)...)
		if status != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.extra, status, stdout, stderr, tc.want)
		}
	}
	if n := len(h.Requests()); n != 3 {
		t.Errorf("%d requests sent, want only the first three", n)
	}
}

// TestSubmitCommandRankingAndSignature sends a ranking given as B,A,C,
// a text with commas beside it, and a signature's drawing from a file.
func TestSubmitCommandRankingAndSignature(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	h.SetForm("acme", "feedback", &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "rank", Type: hubclient.FieldRanking, Options: []hubclient.Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}},
		{Name: "order", Type: hubclient.FieldRanking, Options: []hubclient.Option{{Value: "x"}, {Value: "y"}}},
		{Name: "note", Type: hubclient.FieldText},
		{Name: "sig", Type: hubclient.FieldSignature},
	}})
	sig := filepath.Join(t.TempDir(), "sig.png")
	os.WriteFile(sig, pngBytes(), 0o600)
	status, _, stderr := hubform(t, "submit", "--hub-url", h.URL, "--site", "acme", "--form", "feedback",
		"rank=b,a,c", "order=y", "order=x", "note=Hello, world", "sig=@"+sig)
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	subs := h.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions", len(subs))
	}
	want := map[string]any{"rank": []any{"b", "a", "c"}, "order": []any{"y", "x"}, "note": "Hello, world"}
	if got := subs[0].Request.Payload; !reflect.DeepEqual(got, want) {
		t.Errorf("payload %v, want %v", got, want)
	}
	if att := subs[0].Request.Attachments; len(att) != 1 || att[0].Field != "sig" || att[0].MIME != "image/png" || att[0].Filename != "sig.png" {
		t.Errorf("attachments %+v, want sig.png as the field sig's", att)
	}

	// A form that cannot be read leaves a ranking unknown: nothing is sent.
	h.FailNext(fakehub.RouteSchema, http.StatusServiceUnavailable, "resting")
	status, _, stderr = hubform(t, "submit", "--hub-url", h.URL, "--site", "acme", "--form", "feedback", "rank=b,a,c")
	if status != 1 || !strings.Contains(stderr, "reading the form, to know its rankings") || len(h.Submissions()) != 1 {
		t.Errorf("schema failing: status %d, stderr %q, %d submissions", status, stderr, len(h.Submissions()))
	}
}

// TestSubmitCommandParts joins NAME.PART=VALUE into the value of the
// field NAME, a matrix, an address or a group, as the hub takes it.
func TestSubmitCommandParts(t *testing.T) {
	h := fakehub.NewServer()
	defer h.Close()
	opts := []hubclient.Option{{Value: "fair"}, {Value: "good"}}
	h.SetForm("acme", "event", &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "address", Type: hubclient.FieldAddress},
		{Name: "grid", Type: hubclient.FieldMatrix, Rows: []hubclient.Option{{Value: "row1"}, {Value: "row2"}}, Columns: opts, Multiple: true},
		{Name: "team", Type: hubclient.FieldGroup, Fields: []hubclient.Field{{Name: "name", Type: hubclient.FieldText}}},
		{Name: "note", Type: hubclient.FieldText},
	}})
	status, _, stderr := hubform(t, "submit", "--hub-url", h.URL, "--site", "acme", "--form", "event",
		"address.city=Paris", "address.postalCode=75001", "grid.row1=good", "grid.row1=fair", "team.0.name=Ada", "team.1.name=Bo", "note=hi")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	want := map[string]any{"address": map[string]any{"city": "Paris", "postalCode": "75001"}, "grid": map[string]any{"row1": []any{"good", "fair"}},
		"team": []any{map[string]any{"name": "Ada"}, map[string]any{"name": "Bo"}}, "note": "hi"}
	if got := h.Submissions()[0].Request.Payload; !reflect.DeepEqual(got, want) {
		t.Errorf("payload %v, want %v", got, want)
	}

	// Without a dot or a comma, the schema is not read.
	before := len(h.Requests())
	if status, _, stderr := hubform(t, "submit", "--hub-url", h.URL, "--site", "acme", "--form", "event", "note=hello"); status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	for _, r := range h.Requests()[before:] {
		if r.Method == http.MethodGet {
			t.Errorf("the schema was read (%s) though no value holds a comma nor a name a dot", r.RequestURI)
		}
	}
}
