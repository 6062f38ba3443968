package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// everyType is a form with a field of each type over two steps, honeypots,
// names that collide in Go, a name Go cannot start with, and options whose
// values collide or cannot start a Go name.
const everyType = `{
  "title": "Every type",
  "fields": [
    {"name": "full_name", "type": "text", "label": "Full name", "required": true},
    {"name": "fullName", "type": "text", "label": "Full name, again"},
    {"name": "email", "type": "email", "label": "E-mail"},
    {"name": "tel", "type": "tel"},
    {"name": "homepage-url", "type": "url"},
    {"name": "age", "type": "number"},
    {"name": "bio", "type": "textarea", "label": "About you\nin short"},
    {"name": "plan", "type": "select", "options": [{"value": "", "label": "Choose"}, {"value": "pro"}, {"value": "pro plan"}, {"value": "1st"}, {"value": "pro"}]},
    {"name": "langs", "type": "select", "multiple": true, "options": ["go", "Go"]},
    {"name": "size", "type": "radio", "options": [{"value": "s", "label": "Small"}, {"value": "S", "label": "Small, too"}]},
    {"name": "agree", "type": "checkbox"},
    {"name": "tags", "type": "checkboxes", "options": [{"value": "a-b"}, {"value": "€"}]},
    {"name": "since", "type": "date"},
    {"name": "cv", "type": "file"},
    {"name": "utm_source", "type": "hidden"},
    {"name": "2nd", "type": "text"},
    {"name": "field", "type": "radio", "options": ["name"]},
    {"name": "name", "type": "text"},
    {"name": "stars", "type": "rating"},
    {"name": "ease", "type": "scale"},
    {"name": "nps", "type": "nps"},
    {"name": "budget", "type": "slider", "min": 0, "max": 10},
    {"name": "at", "type": "time"},
    {"name": "meeting", "type": "datetime"},
    {"name": "order", "type": "ranking", "options": ["x", "y"]},
    {"name": "grid", "type": "matrix", "rows": ["r"], "columns": ["c"]},
    {"name": "slots", "type": "matrix", "multiple": true, "rows": ["r"], "columns": ["c"]},
    {"name": "ship", "type": "address"},
    {"name": "sign", "type": "signature"},
    {"name": "guests", "type": "group", "fields": [{"name": "full_name", "type": "text"}, {"name": "age", "type": "number"}, {"name": "diets", "type": "checkboxes", "options": ["veg"]}]},
    {"name": "intro", "type": "paragraph", "text": "Hello"},
    {"name": "_hp", "type": "text"},
    {"name": "_hp_company", "type": "text"}
  ],
  "steps": [{"id": "one", "fields": ["full_name", "fullName", "email", "tel", "homepage-url", "age", "bio", "_hp"]},
            {"id": "two", "fields": ["plan", "langs", "size", "agree", "tags", "since", "cv", "utm_source", "2nd", "field", "name", "stars", "ease", "nps", "budget", "at", "meeting", "order", "grid", "slots", "ship", "sign", "guests", "intro", "_hp_company"]}]
}`

// generateEveryType returns what hubform gen writes for everyType.
func generateEveryType(t *testing.T) []byte {
	t.Helper()
	var s hubclient.Schema
	if err := json.Unmarshal([]byte(everyType), &s); err != nil {
		t.Fatal(err)
	}
	src, err := goSource{Package: "forms", Type: "EveryType", From: "every.json"}.generate(&s)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestGenTypesEachField(t *testing.T) {
	t.Parallel()
	src := generateEveryType(t)
	fields, _ := genDeclarations(t, src)
	want := map[string]string{ // Go field → type and tag
		"FullName":    "string `form:\"full_name\"`",
		"FullName2":   "string `form:\"fullName\"`",
		"Email":       "string `form:\"email\"`",
		"Tel":         "string `form:\"tel\"`",
		"HomepageURL": "string `form:\"homepage-url\"`",
		"Age":         "float64 `form:\"age\"`",
		"Bio":         "string `form:\"bio\"`",
		"Plan":        "string `form:\"plan\"`",
		"Langs":       "string `form:\"langs\"`",
		"Size":        "string `form:\"size\"`",
		"Agree":       "bool `form:\"agree\"`",
		"Tags":        "[]string `form:\"tags\"`",
		"Since":       "string `form:\"since\"`",
		"Cv":          "[]hubclient.Attachment `form:\"cv\"`",
		"UTMSource":   "string `form:\"utm_source\"`",
		"X2nd":        "string `form:\"2nd\"`",
		"Field":       "string `form:\"field\"`",
		"Name":        "string `form:\"name\"`",
		"Stars":       "int `form:\"stars\"`",
		"Ease":        "int `form:\"ease\"`",
		"Nps":         "int `form:\"nps\"`",
		"Budget":      "float64 `form:\"budget\"`",
		"At":          "string `form:\"at\"`",
		"Meeting":     "string `form:\"meeting\"`",
		"Order":       "[]string `form:\"order\"`",
		"Grid":        "map[string]string `form:\"grid\"`",
		"Slots":       "map[string][]string `form:\"slots\"`",
		"Ship":        "hubclient.Address `form:\"ship\"`",
		"Sign":        "hubclient.Signature `form:\"sign\"`",
		"Guests":      "[]EveryTypeGuestsItem `form:\"guests\"`",
		"Diets":       "[]string `form:\"diets\"`", // of EveryTypeGuestsItem, with FullName and Age
	}
	for name, typeAndTag := range want {
		if fields[name] != typeAndTag {
			t.Errorf("field %s is %q, want %q", name, fields[name], typeAndTag)
		}
	}
	for name, typeAndTag := range fields {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected field %s %s (honeypots stay out)", name, typeAndTag)
		}
	}
	for _, doc := range []string{
		"\t// FullName is the text field \"Full name\" (required).\n\tFullName string",
		"\t// Bio is the textarea field \"About you\\nin short\".\n",
		"\t// Tel is the tel field \"tel\".\n",
		"\t// Langs is the select field \"langs\"; its options are the EveryTypeLangs… constants.\n",
	} {
		if !strings.Contains(string(src), doc) {
			t.Errorf("the source lacks the comment %q:\n%s", doc, src)
		}
	}
}

func TestGenConstants(t *testing.T) {
	t.Parallel()
	src := generateEveryType(t)
	_, consts := genDeclarations(t, src)
	want := map[string]string{
		// the fields' names, every field's, honeypots aside
		"EveryTypeFieldFullName": "full_name", "EveryTypeFieldFullName2": "fullName", "EveryTypeFieldEmail": "email",
		"EveryTypeFieldTel": "tel", "EveryTypeFieldHomepageURL": "homepage-url", "EveryTypeFieldAge": "age",
		"EveryTypeFieldBio": "bio", "EveryTypeFieldPlan": "plan", "EveryTypeFieldLangs": "langs", "EveryTypeFieldSize": "size",
		"EveryTypeFieldAgree": "agree", "EveryTypeFieldTags": "tags", "EveryTypeFieldSince": "since", "EveryTypeFieldCv": "cv",
		"EveryTypeFieldUTMSource": "utm_source", "EveryTypeFieldX2nd": "2nd", "EveryTypeFieldField": "field",
		"EveryTypeFieldName": "name", "EveryTypeFieldStars": "stars", "EveryTypeFieldEase": "ease", "EveryTypeFieldNps": "nps",
		"EveryTypeFieldBudget": "budget", "EveryTypeFieldAt": "at", "EveryTypeFieldMeeting": "meeting",
		"EveryTypeFieldOrder": "order", "EveryTypeFieldGrid": "grid", "EveryTypeFieldSlots": "slots", "EveryTypeFieldShip": "ship", "EveryTypeFieldSign": "sign", "EveryTypeFieldGuests": "guests", "EveryTypeOrderX": "x", "EveryTypeOrderY": "y",
		// the options' values: none for the empty choice or a value again,
		// a number for a collision, an X for a value with no Go letters
		"EveryTypePlanPro": "pro", "EveryTypePlanProPlan": "pro plan", "EveryTypePlan1st": "1st",
		"EveryTypeLangsGo": "go", "EveryTypeLangsGo2": "Go", "EveryTypeSizeS": "s", "EveryTypeSizeS2": "S",
		"EveryTypeTagsAB": "a-b", "EveryTypeTagsX": "€",
		// an option's constant that a field's name took first
		"EveryTypeFieldName2": "name",
	}
	for name, value := range want {
		if got, ok := consts[name]; !ok || got != value {
			t.Errorf("const %s = %q, want %q", name, got, value)
		}
	}
	for name, value := range consts {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected const %s = %q", name, value)
		}
	}
	if !strings.Contains(string(src), "\t// EveryTypeSizeS2 is the option \"Small, too\".\n") {
		t.Errorf("the option's label is not its constant's comment:\n%s", src)
	}
}

func TestGenStableAndFormatted(t *testing.T) {
	t.Parallel()
	src := generateEveryType(t)
	for range 5 {
		if again := generateEveryType(t); !bytes.Equal(src, again) {
			t.Fatalf("the same schema gave different source:\n%s\n---\n%s", src, again)
		}
	}
	if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
		t.Errorf("the source is not gofmt'd (%v):\n%s", err, src)
	}
	const head = "// Code generated by hubform gen. DO NOT EDIT.\n// Source: every.json\n\npackage forms\n"
	if !strings.HasPrefix(string(src), head) {
		t.Errorf("the source does not start with %q:\n%s", head, src)
	}
}

// TestGenTypeChecks checks that the source compiles: what gen writes for
// a form with a field of each type, and for each demo form.
func TestGenTypeChecks(t *testing.T) {
	t.Parallel()
	sources := map[string][]byte{"every.json": generateEveryType(t)}
	for _, name := range []string{"contact", "survey"} {
		_, src, _ := hubform(t, "gen", "example-forms/demo/"+name+".json")
		sources[name] = []byte(src)
	}
	fset := token.NewFileSet()
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	for name, src := range sources {
		f, err := parser.ParseFile(fset, name+".go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := conf.Check("forms", fset, []*ast.File{f}, nil); err != nil {
			t.Errorf("the source for %s does not compile: %v\n%s", name, err, src)
		}
	}
}

// genDeclarations parses src, failing the test unless it parses, and
// returns its struct's fields (type and tag by name) and its string
// constants (value by name).
func genDeclarations(t *testing.T, src []byte) (fields, consts map[string]string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("the source does not parse: %v\n%s", err, src)
	}
	fields, consts = map[string]string{}, map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StructType:
			for _, field := range n.Fields.List {
				fields[field.Names[0].Name] = string(src[field.Type.Pos()-1:field.Type.End()-1]) + " " + field.Tag.Value
			}
		case *ast.ValueSpec:
			if lit, ok := n.Values[0].(*ast.BasicLit); ok {
				consts[n.Names[0].Name], _ = strconv.Unquote(lit.Value)
			}
		}
		return true
	})
	return fields, consts
}

func TestGenExportedName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"name": "Name", "first_name": "FirstName", "first-name": "FirstName", "firstName": "FirstName",
		"FirstName": "FirstName", "job-application": "JobApplication", "user_id": "UserID", "userId": "UserID",
		"URL": "URL", "page2Title": "Page2Title", "2nd": "X2nd", "_": "X", "": "X", "ñandú": "Ñandú",
		"名前": "X名前", "a b": "AB", "e-mail": "EMail", "email": "Email",
	} {
		if got := exportedName(in); got != want {
			t.Errorf("exportedName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGenTagBinds checks that the tag written for a field name handlers.Bind
// would misread as an option ("-", a comma) or a raw string cannot hold
// (a backquote) still binds the field's value.
func TestGenTagBinds(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"name", "-", "a,b", "a,omitempty", "x`y", `q"uote`, "a.b", "first name"} {
		tag, err := strconv.Unquote(formTag(name))
		if err != nil {
			t.Fatalf("formTag(%q) = %s: %v", name, formTag(name), err)
		}
		typ := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(tag)}})
		v := reflect.New(typ)
		if err := handlers.Bind(map[string]any{name: "yes", "other": "no"}, v.Interface()); err != nil {
			t.Errorf("%q: %v", name, err)
		}
		if got := v.Elem().Field(0).String(); got != "yes" {
			t.Errorf("tag %s binds %q from the field %q, want yes", formTag(name), got, name)
		}
	}
}

func TestGenCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	form := write("job-application.json", everyType)
	status, stdout, stderr := hubform(t, "gen", "--package", "apply", form)
	if status != 0 || stderr != "" || !strings.Contains(stdout, "\npackage apply\n") || !strings.Contains(stdout, "\ntype JobApplication struct {") {
		t.Fatalf("gen: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
	if !strings.Contains(stdout, "\n// Source: "+filepath.ToSlash(form)+"\n") {
		t.Errorf("the source does not name the file:\n%s", stdout)
	}
	out := filepath.Join(dir, "apply.go")
	for _, flag := range []string{"--out", "-o"} {
		os.Remove(out)
		if status, stdout, stderr := hubform(t, "gen", "--package", "apply", flag, out, form); status != 0 || stdout != "" || stderr != "" {
			t.Fatalf("gen %s: status %d, stdout %q, stderr %q", flag, status, stdout, stderr)
		}
		if written, _ := os.ReadFile(out); string(written) != stdout {
			t.Errorf("%s wrote other bytes than standard output got", flag)
		}
	}
	if status, stdout, _ := hubform(t, "gen", "--type", "Application", form); status != 0 || !strings.Contains(stdout, "\ntype Application struct {") ||
		!strings.Contains(stdout, "\tApplicationFieldAge ") || !strings.Contains(stdout, "\npackage forms\n") {
		t.Errorf("gen --type: status %d\n%s", status, stdout)
	}

	for _, tt := range []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"no file", []string{"gen"}, 2, "give one form file"},
		{"two files", []string{"gen", form, form}, 2, "give one form file"},
		{"file and hub", []string{"gen", "--site", "acme", "--form", "contact", form}, 2, "not both"},
		{"site alone", []string{"gen", "--site", "acme"}, 2, "--site and --form go together"},
		{"bad package", []string{"gen", "--package", "my-forms", form}, 2, `package name "my-forms" is not a Go identifier`},
		{"keyword package", []string{"gen", "--package", "type", form}, 2, `package name "type"`},
		{"bad type", []string{"gen", "--type", "contact", form}, 2, `type name "contact" is not an exported Go identifier (say Contact)`},
		{"bad timeout", []string{"gen", "--timeout", "0s", form}, 2, "--timeout"},
		{"missing file", []string{"gen", filepath.Join(dir, "nope.json")}, 1, "nope.json: no such file"},
		{"not JSON", []string{"gen", write("broken.json", "{\n\"fields\": [\n}")}, 1, "broken.json:3: invalid JSON"},
		{"not a form", []string{"gen", write("list.json", `[1, 2]`)}, 1, "list.json: not a form file"},
		{"no fields", []string{"gen", "example-forms/demo/unconfigured.json"}, 1, "example-forms/demo/unconfigured.json: the form has no fields"},
		{"only honeypots", []string{"gen", write("hp.json", `{"fields": [{"name": "_hp", "type": "text"}]}`)}, 1, "the form has no fields"},
		{"a nameless field", []string{"gen", write("nameless.json", `{"fields": [{"name": "a", "type": "text"}, {"type": "text"}]}`)}, 1, "field 2 has no name"},
		{"out in a missing directory", []string{"gen", "--out", filepath.Join(dir, "no", "such.go"), form}, 1, "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := hubform(t, tt.args...)
			if status != tt.status || stdout != "" || !strings.HasPrefix(stderr, "hubform gen: ") || !strings.Contains(stderr, tt.want) {
				t.Errorf("status %d, stdout %q, stderr %q; want %d and %q", status, stdout, stderr, tt.status, tt.want)
			}
		})
	}

	// A failed generation leaves the file --out names as it was.
	write("kept.go", "package kept\n")
	if status, _, _ := hubform(t, "gen", "--out", filepath.Join(dir, "kept.go"), filepath.Join(dir, "broken.json")); status != 1 {
		t.Errorf("gen of broken JSON: status %d", status)
	}
	if kept, _ := os.ReadFile(filepath.Join(dir, "kept.go")); string(kept) != "package kept\n" {
		t.Errorf("a failed gen changed the --out file to %q", kept)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 7 {
		t.Errorf("gen left files behind: %v", entries)
	}

	status, stdout, _ = hubform(t, "gen", "--help")
	for _, want := range []string{"//go:generate go run github.com/hubform/hubform/cmd/hubform gen --out ", "handlers.Bind(values, &c)", "--package NAME", "--hub-url URL"} {
		if status != 0 || !strings.Contains(stdout, want) {
			t.Errorf("gen --help: status %d, lacks %q:\n%s", status, want, stdout)
		}
	}
}

// TestGenFromHub checks that a schema read from a hub gives the same
// source as its form file, but for the line naming where it came from, and
// that the type is named after the form's slug.
func TestGenFromHub(t *testing.T) {
	files := exampleFormFiles(t)
	files["acme/job-application"] = files["demo/contact"]
	hub := hubtest.Start(t, files)
	status, fromHub, stderr := hubform(t, "gen", "--hub-url", hub.URL, "--site", "demo", "--form", "contact")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	_, fromFile, _ := hubform(t, "gen", "example-forms/demo/contact.json")
	hubLines, fileLines := strings.SplitAfter(fromHub, "\n"), strings.SplitAfter(fromFile, "\n")
	if want := "// Source: site demo, form contact, at " + hub.URL + "\n"; hubLines[1] != want {
		t.Errorf("second line %q, want %q", hubLines[1], want)
	}
	hubLines[1], fileLines[1] = "", ""
	if strings.Join(hubLines, "") != strings.Join(fileLines, "") {
		t.Errorf("from the hub:\n%s\nfrom the file:\n%s", fromHub, fromFile)
	}

	t.Setenv("HUBFORM_HUB_URL", hub.URL)
	if status, src, stderr := hubform(t, "gen", "--site", "acme", "--form", "job-application"); status != 0 || !strings.Contains(src, "\ntype JobApplication struct {") {
		t.Errorf("gen of acme/job-application from HUBFORM_HUB_URL: status %d, stderr %q\n%s", status, stderr, src)
	}
	if status, stdout, stderr := hubform(t, "gen", "--site", "demo", "--form", "nope"); status != 1 || stdout != "" || !strings.HasPrefix(stderr, "hubform gen: ") {
		t.Errorf("a form the hub lacks: status %d, stderr %q", status, stderr)
	}
}

// genApp is a program that binds every submission its forms take into the
// types hubform gen wrote, and prints them as JSON, a line each.
const genApp = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"example.com/app/forms"
	"github.com/hubform/hubform/handlers"
)

func main() {
	h := handlers.New(handlers.Config{
		HubURL: os.Getenv("HUB_URL"),
		OnSuccess: func(ctx context.Context, f handlers.Form, values map[string]any) {
			var v any = &forms.Contact{}
			if f.Slug == "survey" {
				v = &forms.Survey{}
			}
			if err := handlers.Bind(values, v); err != nil {
				fmt.Println("bind:", err)
				return
			}
			out, _ := json.Marshal(v)
			fmt.Printf("%s %s\n", f.Slug, out)
		},
	})
	panic(http.ListenAndServe(os.Getenv("ADDR"), h))
}
`

// TestGenBindsASubmission generates the demo's forms with //go:generate
// lines that run hubform with go run and go tool, in a module of its own that requires hubform
// (replaced by this repository), builds an app on the types, and posts a
// submission of each form through the submit route to a real hub: Bind
// fills the generated structs.
func TestGenBindsASubmission(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an app")
	}
	app := t.TempDir()
	demo, err := filepath.Glob("example-forms/demo/*.json")
	if err != nil || len(demo) == 0 {
		t.Fatalf("no demo forms: %v", err)
	}
	directives := "// Package forms holds the types of the demo's forms.\npackage forms\n\n"
	var generated []string
	for _, path := range demo {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		genWriteFile(t, filepath.Join(app, "formfiles", name), string(data))
		if name == "unconfigured.json" {
			continue // no fields: TestGenCommand sees it refused
		}
		// Both ways to run a command of a required module: go run, and go
		// tool after go get -tool (the go.mod below names it a tool).
		run := "go run github.com/hubform/hubform/cmd/hubform"
		if len(generated)%2 == 1 {
			run = "go tool hubform"
		}
		out := strings.TrimSuffix(name, ".json") + ".go"
		directives += "//go:generate " + run + " gen --out " + out + " ../formfiles/" + name + "\n"
		generated = append(generated, name)
	}
	if strings.Join(generated, " ") != "contact.json price.json quiz.json survey.json" {
		t.Fatalf("the demo's forms are %v; the app below binds contact and survey, and compiles the others", generated)
	}
	genWriteFile(t, filepath.Join(app, "forms", "forms.go"), directives)
	genWriteFile(t, filepath.Join(app, "main.go"), genApp)
	goOffline(t, app, "generate", "./...")
	for _, name := range generated {
		got, err := os.ReadFile(filepath.Join(app, "forms", strings.TrimSuffix(name, ".json")+".go"))
		if err != nil {
			t.Fatal(err)
		}
		_, want, _ := hubform(t, "gen", "example-forms/demo/"+name)
		want = strings.Replace(want, "// Source: example-forms/demo/", "// Source: ../formfiles/", 1)
		if string(got) != want {
			t.Errorf("go generate wrote for %s:\n%s\nhubform gen writes:\n%s", name, got, want)
		}
	}
	goOffline(t, app, "build", "-o", "app", ".")

	hub := hubtest.Start(t, exampleFormFiles(t))
	addr := freeAddr(t)
	t.Setenv("HUB_URL", hub.URL)
	t.Setenv("ADDR", addr)
	log := runApp(t, filepath.Join(app, "app"))

	post := func(slug string, values [][2]string, file string) {
		t.Helper()
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		for _, v := range values {
			w.WriteField(v[0], v[1])
		}
		part, _ := w.CreatePart(textproto.MIMEHeader{
			"Content-Disposition": {`form-data; name="` + file + `"; filename="shot.png"`},
			"Content-Type":        {"image/png"},
		})
		part.Write(pngBytes())
		w.Close()
		var res *http.Response
		waitFor(t, func() bool {
			var err error
			res, err = http.Post("http://"+addr+"/hubform/demo/"+slug+"/submit", w.FormDataContentType(), bytes.NewReader(body.Bytes()))
			return err == nil
		})
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("post to %s: %s; log:\n%s", slug, res.Status, log)
		}
	}
	post("contact", [][2]string{{"name", "Jane"}, {"email", "jane@example.com"}, {"topic", "support"}, {"message", "Hello"}, {"_hp", ""}}, "files")
	post("survey", [][2]string{{"name", "Jane"}, {"email", "jane@example.com"}, {"age", "42"}, {"plan", "pro"},
		{"features", "forms"}, {"features", "uploads"}, {"country", "de"}, {"newsletter", "on"}, {"source", "newsletter"}, {"_hp_company", ""}}, "screenshot")

	var contact struct {
		Name, Email, Topic, Message string
		Files                       []struct {
			Filename string
			Size     int64
		}
	}
	var survey struct {
		Name, Plan, Country, Source string
		Age                         float64
		Features                    []string
		Newsletter                  bool
		Screenshot                  []struct{ Filename string }
	}
	waitFor(t, func() bool { return strings.Count(log.String(), "\n") >= 2 })
	for line := range strings.Lines(log.String()) {
		slug, data, _ := strings.Cut(strings.TrimSpace(line), " ")
		var dst any = &contact
		if slug == "survey" {
			dst = &survey
		}
		if err := json.Unmarshal([]byte(data), dst); err != nil {
			t.Fatalf("the app printed %q: %v", line, err)
		}
	}
	if contact.Name != "Jane" || contact.Email != "jane@example.com" || contact.Topic != "support" || contact.Message != "Hello" ||
		len(contact.Files) != 1 || contact.Files[0].Filename != "shot.png" || contact.Files[0].Size != int64(len(pngBytes())) {
		t.Errorf("bound contact %+v", contact)
	}
	if survey.Name != "Jane" || survey.Age != 42 || survey.Plan != "pro" || strings.Join(survey.Features, ",") != "forms,uploads" ||
		survey.Country != "de" || !survey.Newsletter || survey.Source != "newsletter" ||
		len(survey.Screenshot) != 1 || survey.Screenshot[0].Filename != "shot.png" {
		t.Errorf("bound survey %+v", survey)
	}
}

// goOffline runs the go command in dir, a module that requires hubform
// replaced by this repository, and has its command as a tool, with only the
// module cache to draw on: the module gets a go.mod saying so and this
// repository's go.sum first.
func goOffline(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); os.IsNotExist(err) {
		root, err := filepath.Abs("../..")
		if err != nil {
			t.Fatal(err)
		}
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		genWriteFile(t, filepath.Join(dir, "go.sum"), string(sum))
		genWriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/app\n\ngo 1.26.0\n\nrequire github.com/hubform/hubform v0.0.0\n\ntool github.com/hubform/hubform/cmd/hubform\n\nreplace github.com/hubform/hubform => "+root+"\n")
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// genWriteFile writes data to path, making its directory.
func genWriteFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGenGuide keeps the app guide's excerpt of what hubform gen writes
// for the demo's contact form the same as what it writes.
func TestGenGuide(t *testing.T) {
	t.Parallel()
	guide, err := os.ReadFile("../../handlers/GUIDE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, src, _ := hubform(t, "gen", "example-forms/demo/contact.json")
	start := strings.Index(src, "// Contact holds")
	if start < 0 {
		t.Fatalf("hubform gen wrote no Contact struct:\n%s", src)
	}
	m := regexp.MustCompile("(?s)\n## Forms as Go types: `hubform gen`\n(.*?)\n## ").FindStringSubmatch(string(guide))
	if m == nil {
		t.Fatal("handlers/GUIDE.md has no section on hubform gen")
	}
	section := m[1]
	if !strings.Contains(section, "```go\n"+src[start:]+"```") {
		t.Errorf("the guide's section on hubform gen does not show what it writes for the contact form:\n%s", src[start:])
	}
	for _, want := range []string{
		"hubform gen --package forms forms/demo/contact.json > ",
		"hubform gen --hub-url http://127.0.0.1:8081/v1 --site demo --form contact",
		"//go:generate go run github.com/hubform/hubform/cmd/hubform gen --out contact.go ",
		"handlers.Bind(values, &c)",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("the guide's section on hubform gen lacks %q", want)
		}
	}
}

// TestGenCalculations: a calculation is a read-only field, of any type,
// that Bind leaves, with a constant for its name; the source compiles.
func TestGenCalculations(t *testing.T) {
	t.Parallel()
	var s hubclient.Schema
	src := `{"fields": [{"name": "guests", "type": "number"}], "steps": [{"id": "s", "fields": ["guests"]}],
	  "calculations": [{"name": "total", "label": "Total", "expr": {"*": [{"var": "guests"}, 35]}}, {"name": "guests_2", "expr": 1}]}`
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	out, err := goSource{Package: "forms", Type: "Party", From: "party.json"}.generate(&s)
	if err != nil {
		t.Fatal(err)
	}
	fields, consts := genDeclarations(t, out)
	if fields["Total"] != "any `form:\"-\"`" || fields["Guests2"] != "any `form:\"-\"`" || fields["Guests"] != "float64 `form:\"guests\"`" {
		t.Errorf("fields %q\n%s", fields, out)
	}
	if consts["PartyFieldTotal"] != "total" || !strings.Contains(string(out), `the calculation "Total", read-only`) {
		t.Errorf("constants %q\n%s", consts, out)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "party.go", out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&types.Config{}).Check("forms", fset, []*ast.File{f}, nil); err != nil {
		t.Errorf("the source does not compile: %v\n%s", err, out)
	}
	// Bind leaves the calculation, whatever the values hold.
	var p struct {
		Guests float64 `form:"guests"`
		Total  any     `form:"-"`
	}
	if err := handlers.Bind(map[string]any{"guests": 3.0, "total": 1.0}, &p); err != nil || p.Total != nil || p.Guests != 3 {
		t.Errorf("Bind = %+v, %v", p, err)
	}
}
