package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

const genHelp = `
Usage: hubform gen [--package NAME] [--type NAME] [--out FILE] FORM.json
       hubform gen --site SITE --form SLUG [--hub-url URL] [flags]

Writes Go source declaring a struct for the values of one form, for
handlers.Bind to fill in OnSuccess: a field per form field, typed as the
submit route types its values (text, e-mail, select, radio, date, … string;
number float64; checkbox bool; checkboxes []string; file
[]*multipart.FileHeader), honeypots left out, each with the form tag Bind
reads. Constants name the fields (TypeFieldName = "name") and the values of
their options (TypeFieldValue = "value").

The schema comes from a form file (a hub's DIR/<site>/<slug>.json) or, with
--site and --form, from a hub. The source goes to standard output, or to
--out, which //go:generate needs: it has no shell to redirect.
`

const genExample = `
Exit status: 0 when the source was written, 1 when the schema could not be
read, 2 for a bad command line.

Examples:
  hubform gen --package forms forms/demo/contact.json > forms/contact.go
  hubform gen --hub-url https://hub.example.com/v1 --site acme --form contact

  //go:generate hubform gen --package forms --out contact.go ../forms/demo/contact.json

  var c forms.Contact
  err := handlers.Bind(values, &c) // in OnSuccess
`

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gen", genHelp, genExample, stderr)
	pkg := fs.String("package", "forms", "`NAME` of the generated file's package")
	typ := fs.String("type", "", "`NAME` of the struct; empty: the form's slug in Go's style (job-application: JobApplication)")
	out := fs.String("out", "", "write to `FILE` instead of standard output")
	hubURL := fs.String("hub-url", hubclient.DefaultHubURL, "hub endpoint base `URL`, with --site and --form (HUBFORM_HUB_URL)")
	site := fs.String("site", "", "`SITE` id of the form on the hub")
	slug := fs.String("form", "", "`SLUG` of the form on the hub")
	timeout := fs.Duration("timeout", 30*time.Second, "give up fetching the schema after this long")
	args, status, ok := fs.parse(args, stdout)
	if !ok {
		return status
	}
	fromHub := *site != "" || *slug != ""
	switch {
	case fromHub && (*site == "" || *slug == ""):
		fmt.Fprintln(stderr, "hubform gen: --site and --form go together (see hubform gen --help)")
		return 2
	case fromHub && len(args) > 0:
		fmt.Fprintln(stderr, "hubform gen: give a form file or --site and --form, not both")
		return 2
	case !fromHub && len(args) != 1:
		fmt.Fprintln(stderr, "hubform gen: give one form file, or --site and --form (see hubform gen --help)")
		return 2
	}

	var schema *hubclient.Schema
	var err error
	g := goSource{Package: *pkg, Type: *typ}
	if fromHub {
		g.From = *site + "/" + *slug + " at " + *hubURL
		ctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		schema, err = (&hubclient.Client{HubURL: *hubURL}).Schema(ctx, *site, *slug)
	} else {
		g.From = filepath.ToSlash(args[0])
		schema, err = readSchemaFile(args[0])
	}
	if g.Type == "" {
		name := *slug
		if !fromHub {
			name = strings.TrimSuffix(filepath.Base(args[0]), ".json")
		}
		g.Type = exportedName(name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hubform gen: %v\n", err)
		return 1
	}
	src, err := g.generate(schema)
	if err != nil {
		fmt.Fprintf(stderr, "hubform gen: %s: %v\n", g.From, err)
		return 1
	}
	if *out == "" {
		stdout.Write(src)
		return 0
	}
	if err := writeFileAtomic(*out, src); err != nil {
		fmt.Fprintf(stderr, "hubform gen: %v\n", err)
		return 1
	}
	return 0
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
		return nil, fmt.Errorf("%s: not a form's JSON: %v", path, err)
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
