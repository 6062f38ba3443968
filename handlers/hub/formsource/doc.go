// Package formsource is where the hub finds the forms it serves: a forms
// directory ([Dir], one JSON file per form, laid out as
// DIR/<site>/<slug>.json), the published versions kept in the database
// ([Stored]), or both, the directory winning a clash ([Layered]). Each is a
// [hub.FormSource], and each reads a form file with [Parse].
//
// A form file is the schema exactly as the schema route serves it, plus an
// optional member "hub" with the form's server-only settings (hub.Settings),
// which is removed before the schema is served:
//
//	{
//	  "fields": [{"name": "email", "type": "email", "required": true}],
//	  "steps": [{"id": "main", "fields": ["email"]}],
//	  "hub": {"captchaSecret": "…", "allowedOrigins": ["https://example.com"]}
//	}
//
// A directory's files are read when first asked for and re-read when they
// change, so forms can be edited while the hub runs. A file that does not
// parse or validate is never served in part: its form answers with an
// [InvalidError] until the file is fixed. Given a workspace with
// [Dir.Own], a directory makes each of its sites that workspace's from the
// moment it sees the site, so that no other workspace claims it first, and
// serves no form of a site the database gives to another workspace.
package formsource
