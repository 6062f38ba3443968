package main

import "embed"

// exampleForms are the forms shipped with hubform, laid out as a hub's forms
// directory: forms/<site>/<slug>.json.
//
//go:embed forms
var exampleForms embed.FS
