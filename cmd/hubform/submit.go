package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hubform/hubform/hubclient"
)

const submitHelp = `
Usage: hubform submit --site SITE --form FORM [flags] NAME=VALUE... FIELD=@PATH...

Sends one submission to a hub, as a browser posting the form would: every file
is uploaded first (POST upload-url, then a PUT of its body to the presigned
address), then the values go to the submit route. Prints the submission's id.

Arguments:
  NAME=VALUE        a form value; a NAME given more than once becomes a list
  RANK=B,A,C        a ranking's options, most wanted first, separated by commas
                    (RANK=B RANK=A RANK=C says the same); the form's schema is
                    read to know that RANK is a ranking
  NAME.PART=VALUE   a part of a matrix, an address or a group, joined into the
                    field's one value as a form posting it is read:
                    address.city=Paris, grid.speed=good (a row's column),
                    team.0.name=Ada (a group's first item); the form's schema
                    is read to know the field
  FIELD=@PATH       the file at PATH; its type comes from the extension, else
                    from its content; give FIELD again for several files; a
                    signature's drawing goes the same way: sig=@sig.png
  NAME=@@TEXT       the value "@TEXT" (a leading @@ stands for one @)
  _captchaToken=T   a captcha token, sent as captchaToken
  _idempotencyKey=K the same as --idempotency-key K
  _hp...=VALUE      a honeypot value, sent at the top level of the body
`

const submitExample = `
Environment:
  HUBFORM_HUB_URL, HUBFORM_SITE and HUBFORM_FORM stand in for the flags.

Exit status: 0 when the hub accepted the submission, 1 when it failed (the
error, starting "upload-url failed: ", "upload PUT to R2 failed: " or
"submit failed: ", goes to standard error), 2 for a bad command line.

Example:
  hubform submit --hub-url http://127.0.0.1:8081/v1 --site acme --form contact \
      name=Jane email=jane@example.com topic=sales \
      files=@report.pdf files=@photo.png
`

func runSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("submit", submitHelp, submitExample, stderr)
	hubURL := fs.String("hub-url", hubclient.DefaultHubURL, "hub endpoint base `URL`, ending in the protocol version")
	site := fs.String("site", "", "`SITE` id the form belongs to, required")
	form := fs.String("form", "", "`SLUG` of the form within the site, required")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long, uploads included")
	concurrency := fs.Int("concurrency", hubclient.DefaultUploadConcurrency, "files uploaded at once")
	asJSON := fs.Bool("json", false, "print the hub's whole JSON answer instead of the id")
	key := fs.String("idempotency-key", "", "send `KEY` as the submission's idempotencyKey: a hub that keeps keys answers\n"+
		"the same KEY sent again for the form, say after a timeout, with the first\n"+
		"submission's id and stores nothing; at most 128 printable ASCII characters")
	args, status, ok := fs.parse(args, stdout)
	if !ok {
		return status
	}
	if *site == "" || *form == "" {
		fmt.Fprintln(stderr, "hubform submit: --site and --form are required (see hubform submit --help)")
		return 2
	}
	if *timeout <= 0 || *concurrency <= 0 {
		fmt.Fprintln(stderr, "hubform submit: --timeout and --concurrency must be positive")
		return 2
	}
	values, err := parseValues(args)
	if err != nil {
		fmt.Fprintf(stderr, "hubform submit: %v\n", err)
		return 2
	}
	if err := takeKey(values, *key); err != nil {
		fmt.Fprintf(stderr, "hubform submit: %v\n", err)
		return 2
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := shapeValues(ctx, &hubclient.Client{HubURL: *hubURL}, *site, *form, values); err != nil {
		fmt.Fprintf(stderr, "hubform submit: %v\n", err)
		return 1
	}
	res, err := hubclient.NewSubmitter(hubclient.SubmitOptions{
		HubURL: *hubURL, SiteID: *site, FormSlug: *form, UploadConcurrency: *concurrency,
	}).Submit(ctx, hubclient.Submission{Values: values})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *asJSON {
		out, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	fmt.Fprintln(stdout, orOK(res.SubmissionID))
	return 0
}

// takeKey puts the idempotency key given by flag, if any, among the values
// and checks the key the values then hold: one string the protocol allows.
func takeKey(values map[string]any, flag string) error {
	v, given := values[hubclient.IdempotencyKeyField]
	if flag != "" {
		if given {
			return fmt.Errorf("give the idempotency key once, as --idempotency-key or as %s=", hubclient.IdempotencyKeyField)
		}
		v, given = flag, true
		values[hubclient.IdempotencyKeyField] = flag
	}
	if !given {
		return nil
	}
	key, ok := v.(string)
	if !ok {
		return fmt.Errorf("give the idempotency key once, as one text value")
	}
	return hubclient.CheckIdempotencyKey(key)
}

// parseValues turns NAME=VALUE and FIELD=@PATH arguments into form values.
// A repeated name becomes a list: []string, or []hubclient.File for files.
func parseValues(args []string) (map[string]any, error) {
	texts := map[string][]string{}
	files := map[string][]hubclient.File{}
	for _, arg := range args {
		name, value, ok := strings.Cut(arg, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("argument %q: want NAME=VALUE or FIELD=@PATH", arg)
		}
		switch {
		case strings.HasPrefix(value, "@@"):
			texts[name] = append(texts[name], value[1:])
		case strings.HasPrefix(value, "@"):
			f, err := hubclient.FileFromPath(value[1:])
			if err != nil {
				return nil, fmt.Errorf("argument %q: %w", arg, err)
			}
			files[name] = append(files[name], f)
		default:
			texts[name] = append(texts[name], value)
		}
		if len(texts[name]) > 0 && len(files[name]) > 0 {
			return nil, fmt.Errorf("argument %q: %s mixes files and text", arg, name)
		}
	}
	values := make(map[string]any, len(texts)+len(files))
	for name, list := range texts {
		if len(list) == 1 {
			values[name] = list[0]
		} else {
			values[name] = list
		}
	}
	for name, list := range files {
		if len(list) == 1 {
			values[name] = list[0]
		} else {
			values[name] = list
		}
	}
	return values, nil
}

// shapeValues gives values the shapes the form's fields take: a value
// given as one text with commas, B,A,C, becomes the list of its parts when
// the field of that name is a ranking (the options in the order given), and
// the parts of a matrix, an address or a group, given as NAME.PART=VALUE
// (address.city=Paris, grid.speed=good, team.0.name=Ada), become the
// field's one value, read as a form posting them is. The schema is read
// only when some value holds a comma or some name a dot.
func shapeValues(ctx context.Context, client *hubclient.Client, site, form string, values map[string]any) error {
	var listed, parted []string
	for name, v := range values {
		if s, ok := v.(string); ok && strings.Contains(s, ",") {
			listed = append(listed, name)
		}
		if strings.Contains(name, ".") {
			parted = append(parted, name)
		}
	}
	if len(listed)+len(parted) == 0 {
		return nil
	}
	schema, err := client.Schema(ctx, site, form)
	if err != nil {
		return fmt.Errorf("reading the form, to know its rankings and its fields of parts: %w", err)
	}
	for _, name := range listed {
		if f := schema.Field(name); f != nil && f.Type == hubclient.FieldRanking {
			values[name] = strings.Split(values[name].(string), ",")
		}
	}
	posted := map[string][]string{}
	for _, key := range parted {
		switch v := values[key].(type) {
		case string:
			posted[key] = []string{v}
		case []string:
			posted[key] = v
		default:
			return fmt.Errorf("%s: a part of a field takes text, not a file", key)
		}
	}
	for i := range schema.Fields {
		f := &schema.Fields[i]
		if f.Parts() == nil && !f.TypeOf().IsGroup() {
			continue
		}
		if v, ok := f.ValueIn(posted); ok {
			values[f.Name] = v
			for _, key := range parted {
				if strings.HasPrefix(key, f.Name+".") {
					delete(values, key)
				}
			}
		}
	}
	return nil
}

func orOK(id string) string {
	if id == "" {
		return "ok"
	}
	return id
}
