// Package forms is the hub's forms directory: the forms it serves, one JSON
// file each, laid out as DIR/<site>/<slug>.json.
//
// A file is the schema exactly as the schema route serves it, plus an
// optional member "hub" with the form's server-only settings (hub.Settings),
// which is removed before the schema is served:
//
//	{
//	  "fields": [{"name": "email", "type": "email", "required": true}],
//	  "steps": [{"id": "main", "fields": ["email"]}],
//	  "hub": {"captchaSecret": "…", "allowedOrigins": ["https://example.com"]}
//	}
//
// Files are read when first asked for and re-read when they change, so
// forms can be edited while the hub runs. A file that does not parse or
// validate is never served in part: its form answers with an
// [InvalidError] until the file is fixed.
package forms
