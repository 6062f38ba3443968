package main

import (
	"bytes"
	"embed"
)

// exampleForms are the forms shipped with hubform, laid out as a hub's forms
// directory: example-forms/<site>/<slug>.json.
//
//go:embed example-forms
var exampleForms embed.FS

// demoPictures are the pictures of the demo's survey, which the demo
// serves at /pictures/.
//
//go:embed demo-pictures
var demoPictures embed.FS

// exampleForm returns the example form at path (in exampleForms) with its
// pictures' addresses, "{demo}/pictures/…", on the demo app at demoURL.
func exampleForm(path, demoURL string) ([]byte, error) {
	data, err := exampleForms.ReadFile(path)
	return bytes.ReplaceAll(data, []byte("{demo}"), []byte(demoURL)), err
}
