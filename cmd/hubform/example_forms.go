package main

import "embed"

// exampleForms are the forms shipped with hubform, laid out as a hub's forms
// directory: example-forms/<site>/<slug>.json.
//
//go:embed example-forms
var exampleForms embed.FS
