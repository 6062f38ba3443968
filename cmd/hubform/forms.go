package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub/templates"
	"github.com/hubform/hubform/hubclient"
)

const formsHelp = `
Usage: hubform forms push --hub-url URL --token T --site S --form F FILE.json [--publish]
       hubform forms pull --hub-url URL --token T --site S --form F [--version N] [> FILE.json]
       hubform forms new --template NAME FILE.json [--force]
       hubform forms new --template list

Keeps a hub's database forms in files, so that they can live in git, through
the hub's admin API (an API token that hubform tokens create made, which
acts on its workspace's sites alone).

push saves FILE.json, a form file as in a forms directory (the schema plus an
optional member "hub" of server-only settings), as the form's newest version,
not yet live, creating the form on its first push. The hub validates it as it
validates a forms directory, and refuses it with every problem listed. With
--publish the new version is made live at once: every hub on the database
serves it from its next request, without a restart.

pull prints a version's file exactly as it was pushed: the live version, or
--version N (or latest).

new writes a template, a ready-made form (a contact form, a feedback
survey with NPS, an order with its total, a quiz…), to FILE.json, to put in
a forms directory as <forms>/<site>/<slug>.json and edit. It refuses to
replace a file that exists unless --force is given. --template list names
the templates with a line on each. new needs no hub and no token.

Publishing an earlier version again (a rollback) is a pull of that version
and a push with --publish, or the admin API's publish route.
`

const formsTail = `
Environment:
  HUBFORM_HUB_URL, HUBFORM_TOKEN, HUBFORM_SITE and HUBFORM_FORM stand in for
  the flags; prefer HUBFORM_TOKEN to --token, which other users may see.

Exit status: 0 on success, 1 when the hub refused or could not be reached, 2
for a bad command line.

Examples:
  export HUBFORM_TOKEN=hft_…   # printed once by hubform tokens create --workspace default --name ci
  hubform forms push --hub-url https://forms.example.com/v1 --site acme --form contact \
      forms/acme/contact.json --publish
  hubform forms pull --hub-url https://forms.example.com/v1 --site acme --form contact \
      > forms/acme/contact.json
  hubform forms pull --hub-url https://forms.example.com/v1 --site acme --form contact --version 3
  hubform forms new --template list
  hubform forms new --template feedback forms/acme/feedback.json
`

func runForms(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("forms", formsHelp, formsTail, stderr)
	hubURL := fs.String("hub-url", hubclient.DefaultHubURL, "hub endpoint base `URL`, ending in the protocol version")
	token := fs.String("token", "", "API `TOKEN`, required")
	site := fs.String("site", "", "`SITE` id of the form, required")
	form := fs.String("form", "", "`SLUG` of the form within the site, required")
	publish := fs.Bool("publish", false, "push: make the pushed version live")
	version := fs.String("version", "live", "pull: the version `N` to print, live or latest")
	timeout := fs.Duration("timeout", time.Minute, "give up after this long")
	template := fs.String("template", "", "new: the template's `NAME`, or list to name them all")
	force := fs.Bool("force", false, "new: replace FILE.json if it exists")
	verb, args, status, ok := fs.parseVerb(args, stdout, "push", "pull", "new")
	if !ok {
		return status
	}
	fail := fs.fail
	if verb == "new" {
		return newForm(fs, *template, *force, args, stdout)
	}
	switch {
	case verb == "push" && len(args) != 1:
		return fail(2, "push takes one FILE.json")
	case verb == "pull" && len(args) != 0:
		return fail(2, "pull takes no file: its output goes to standard output")
	case *token == "":
		return fail(2, "--token or HUBFORM_TOKEN is required")
	case *site == "" || *form == "":
		return fail(2, "--site and --form are required")
	case strings.Contains(*site, "/") || strings.Contains(*form, "/"):
		return fail(2, "--site and --form are names, without '/'")
	}
	base, err := url.Parse(strings.TrimRight(*hubURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fail(2, "--hub-url %q: want an http:// or https:// URL", *hubURL)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	c := &adminClient{base: base.String() + "/admin/forms/" + url.PathEscape(*site) + "/" + url.PathEscape(*form), token: *token}
	if verb == "pull" {
		body, err := c.do(ctx, http.MethodGet, "/versions/"+url.PathEscape(*version), nil, nil)
		if err != nil {
			return fail(1, "pull %s/%s: %v", *site, *form, err)
		}
		// Byte for byte, so that a pull into a file under git shows no change
		// where there was none.
		if _, err := stdout.Write(body); err != nil {
			return fail(1, "writing the form: %v", err)
		}
		return 0
	}

	file, err := os.ReadFile(args[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	var saved struct {
		Version int64 `json:"version"`
	}
	if _, err := c.do(ctx, http.MethodPut, "/version", file, &saved); err != nil {
		return fail(1, "push %s to %s/%s: %v", args[0], *site, *form, err)
	}
	fmt.Fprintf(stdout, "%s/%s: saved version %d\n", *site, *form, saved.Version)
	if *publish {
		n := strconv.FormatInt(saved.Version, 10)
		if _, err := c.do(ctx, http.MethodPost, "/versions/"+n+"/publish", nil, nil); err != nil {
			return fail(1, "publish %s/%s version %s: %v", *site, *form, n, err)
		}
		fmt.Fprintf(stdout, "%s/%s: published version %d\n", *site, *form, saved.Version)
	}
	return 0
}

// newForm writes the template name to the one file of args, or lists the
// templates when name is "list".
func newForm(fs *flagSet, name string, force bool, args []string, stdout io.Writer) int {
	fail := fs.fail
	if name == "list" {
		if len(args) != 0 {
			return fail(2, "--template list takes no file")
		}
		for _, t := range templates.List() {
			fmt.Fprintf(stdout, "%-22s %s\n", t.Name, t.Description)
		}
		return 0
	}
	switch {
	case name == "":
		return fail(2, "new needs --template NAME (--template list names them)")
	case len(args) != 1:
		return fail(2, "new takes one FILE.json")
	case !strings.HasSuffix(args[0], ".json"):
		return fail(2, "%s: the file's name must end in .json, as in a forms directory", args[0])
	}
	body, err := templates.Get(name)
	if err != nil {
		return fail(2, "%v", err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(args[0], flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fail(1, "%s exists: give --force to replace it", args[0])
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return fail(1, "writing %s: %v", args[0], err)
	}
	if err := f.Close(); err != nil {
		return fail(1, "writing %s: %v", args[0], err)
	}
	fmt.Fprintf(stdout, "%s: written from the template %s\n", args[0], name)
	return 0
}

// adminClient calls the admin API's routes of one form.
type adminClient struct {
	base, token string
}

// maxAnswer caps what is read of an answer: a form file is at most 1 MiB.
const maxAnswer = 2 << 20

// do sends a request to base+path and returns the answer's body, decoded
// into out when out is set. An answer other than 2xx is an error with the
// hub's message and, for a form that does not validate, every problem.
func (c *adminClient) do(ctx context.Context, method, path string, body []byte, out any) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("reading the hub's answer: %w", err)
	}
	if res.StatusCode/100 != 2 {
		var e struct {
			Error    string   `json:"error"`
			Problems []string `json:"problems"`
			Errors   []struct {
				Path    string `json:"path"`
				Message string `json:"message"`
			} `json:"errors"`
		}
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			return nil, fmt.Errorf("the hub answered %s, not the admin API's JSON (is --hub-url the hub's, ending in /v1?)", res.Status)
		}
		msg := fmt.Sprintf("%s (%d)", e.Error, res.StatusCode)
		// Each problem with the JSON path of its member where the hub
		// gives one; an older hub gives messages alone.
		for _, p := range e.Errors {
			if p.Path != "" {
				msg += "\n  " + p.Path + ": " + p.Message
			} else {
				msg += "\n  " + p.Message
			}
		}
		if len(e.Errors) == 0 {
			for _, p := range e.Problems {
				msg += "\n  " + p
			}
		}
		return nil, errors.New(msg)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("the hub's answer is not the admin API's JSON: %w", err)
		}
	}
	return data, nil
}
