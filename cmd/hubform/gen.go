package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

const genHelp = `
Usage: hubform gen [--package NAME] [--type NAME] [--out FILE] FORM.json
       hubform gen --hub-url URL --site SITE --form SLUG [--package NAME] [--type NAME] [--out FILE]

Writes Go source declaring a struct for the values of one form, which
handlers.Bind fills in OnSuccess: a field per form field of every step,
typed as the submit route types its values (text, email, tel, url,
textarea, select, radio, date and hidden: string; a select with
"multiple": []string; number: float64; checkbox: bool; checkboxes:
[]string; file: []hubclient.Attachment), honeypots (_hp…) left out, each
with the form tag Bind reads and a doc comment from its label. A
calculation of the form is a read-only field of type any, tagged form:"-":
the hub works it out, and Bind leaves it.

Names: the struct is --type, else the form's slug (or the file's name) in
Go's style: job-application is JobApplication. Its fields are the form
fields' names in Go's style (first_name, first-name and firstName are
FirstName; user_id is UserID). Constants name the fields, as
<Type>Field<Field> (ContactFieldEmail = "email"), and the values of their
options, as <Type><Field><Value> (ContactTopicSales = "sales"). A name that
would not start with a capital letter gets an X in front (2nd: X2nd); a
name taken already gets a number (FullName2). The same schema always gives
the same bytes.

The schema comes from a form file (a hub's DIR/<site>/<slug>.json) or, with
--site and --form, from a hub. The source goes to standard output, or to
--out, written whole or not at all; //go:generate needs --out, as it has no
shell to redirect.
`

const genExample = `
Environment:
  HUBFORM_HUB_URL stands in for --hub-url.

Exit status: 0 when the source was written, 1 when the schema could not be
read or has no fields, or the file not written, 2 for a bad command line.

Examples:
  hubform gen --package forms forms/demo/contact.json > forms/contact.go
  hubform gen --hub-url https://hub.example.com/v1 --site acme --form job-application --out forms/apply.go

  In a Go file of package forms (go generate ./... runs it):
  //go:generate go run github.com/hubform/hubform/cmd/hubform gen --out contact.go ../forms/demo/contact.json

  In OnSuccess:
  var c forms.Contact
  if err := handlers.Bind(values, &c); err != nil { … }
`

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gen", genHelp, genExample, stderr)
	pkg := fs.String("package", "forms", "`NAME` of the generated file's package")
	typ := fs.String("type", "", "`NAME` of the struct, an exported Go name; empty: from the form's slug or file name")
	out := fs.String("out", "", "write to `FILE` instead of standard output")
	fs.StringVar(out, "o", "", "short for --out `FILE`")
	hubURL := fs.String("hub-url", hubclient.DefaultHubURL, "hub endpoint base `URL`, ending in the protocol version, with --site and --form")
	site := fs.String("site", "", "`SITE` id of the form on the hub")
	slug := fs.String("form", "", "`SLUG` of the form within the site")
	timeout := fs.Duration("timeout", 30*time.Second, "give up fetching the schema after this long")
	args, status, ok := fs.parse(args, stdout)
	if !ok {
		return status
	}
	fail := fs.fail
	fromHub := *site != "" || *slug != ""
	switch {
	case fromHub && (*site == "" || *slug == ""):
		return fail(2, "--site and --form go together (see hubform gen --help)")
	case fromHub && len(args) > 0:
		return fail(2, "give a form file or --site and --form, not both")
	case !fromHub && len(args) != 1:
		return fail(2, "give one form file, or --site and --form (see hubform gen --help)")
	case *timeout <= 0:
		return fail(2, "--timeout must be positive")
	}
	g := goSource{Package: *pkg, Type: *typ}
	if g.Type == "" {
		name := *slug
		if !fromHub {
			name = strings.TrimSuffix(filepath.Base(args[0]), ".json")
		}
		g.Type = exportedName(name)
	}
	if err := checkGoNames(g.Package, g.Type); err != nil {
		return fail(2, "%v", err)
	}

	var schema *hubclient.Schema
	var err error
	if fromHub {
		g.From = hubSource(*hubURL, *site, *slug)
		ctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		schema, err = (&hubclient.Client{HubURL: *hubURL, Timeout: *timeout}).Schema(ctx, *site, *slug)
	} else {
		g.From = filepath.ToSlash(args[0])
		schema, err = readSchemaFile(args[0])
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	src, err := g.generate(schema)
	if err != nil {
		return fail(1, "%s: %v", g.From, err)
	}
	if *out == "" {
		if _, err := stdout.Write(src); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}
	if err := writeFileAtomic(*out, src); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// hubSource names a form on a hub for the generated header, without the
// credentials the URL may hold.
func hubSource(hubURL, site, slug string) string {
	if u, err := url.Parse(hubURL); err == nil && u.User != nil {
		u.User = nil
		hubURL = u.String()
	}
	return fmt.Sprintf("site %s, form %s, at %s", site, slug, hubURL)
}

// readSchemaFile reads a form file: a schema, with the hub's own settings
// beside it, which the schema keeps among its extra members.
func readSchemaFile(path string) (*hubclient.Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s hubclient.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			line := 1 + bytes.Count(data[:syntax.Offset], []byte("\n"))
			return nil, fmt.Errorf("%s:%d: invalid JSON: %v", path, line, err)
		}
		return nil, fmt.Errorf("%s: not a form file: %v", path, err)
	}
	return &s, nil
}

// writeFileAtomic writes data to path through a temporary file beside it,
// so that path holds the old source or the new, never a part.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
