package formsource

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// maxFileSize is the largest form file accepted, in bytes. Forms are small;
// the limit keeps a stray large file from being read into memory.
const maxFileSize = 1 << 20

// settingsMember is the member of a form file that holds hub.Settings.
const settingsMember = "hub"

// InvalidError reports a form file that exists but cannot be served.
type InvalidError struct {
	// Path is the file's path.
	Path string
	// Err holds every problem found, joined with errors.Join.
	Err error
}

func (e *InvalidError) Error() string {
	// Joined errors are one per line; a log line reads better as one line.
	return "invalid form " + e.Path + ": " + strings.ReplaceAll(e.Err.Error(), "\n", "; ")
}

func (e *InvalidError) Unwrap() error { return e.Err }

// Parse parses and validates the bytes of the form file for site and slug.
// It returns every problem it finds, joined; a form is returned only when
// there are none. The form's ModTime is left zero; its Tag is a hash of
// the schema as served.
func Parse(site, slug string, data []byte) (*hub.Form, error) {
	var errs []error
	if !hub.ValidName(site) {
		errs = append(errs, fmt.Errorf("site %q is not a valid name", site))
	}
	if site == hub.ReservedSite {
		errs = append(errs, fmt.Errorf("site %q is reserved: the admin API is served at /v1/%s/", site, site))
	}
	if !hub.ValidName(slug) {
		errs = append(errs, fmt.Errorf("slug %q is not a valid name", slug))
	}
	if len(data) > maxFileSize {
		errs = append(errs, fmt.Errorf("file is larger than %d bytes", maxFileSize))
		return nil, errors.Join(errs...)
	}
	if b := bytes.TrimLeft(data, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		errs = append(errs, errors.New("file is not a JSON object"))
		return nil, errors.Join(errs...)
	}
	var s hubclient.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		errs = append(errs, fmt.Errorf("schema: %w", err))
		return nil, errors.Join(errs...)
	}

	var settings hub.Settings
	for _, name := range sortedKeys(s.Extra) {
		// Any other spelling would be kept as an unknown member and served,
		// secret and all.
		if name != settingsMember && strings.EqualFold(name, settingsMember) {
			errs = append(errs, &Problem{Path: name, Err: fmt.Errorf("member %q: server-only settings belong in %q; this member would be served", name, settingsMember)})
		}
	}
	if raw, ok := s.Extra[settingsMember]; ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&settings); err != nil {
			errs = append(errs, &Problem{Path: settingsMember, Err: fmt.Errorf("%s: %w", settingsMember, err)})
		}
		delete(s.Extra, settingsMember)
		if len(s.Extra) == 0 {
			s.Extra = nil
		}
	}

	// The hub says whether it keeps drafts; a file cannot.
	s.Meta.Resume = settings.Resumable(len(s.Steps))
	if err := Validate(&s, settings); err != nil {
		// Flatten, so that the caller sees one list of problems.
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, j.Unwrap()...)
		} else {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	js, err := json.Marshal(&s)
	if err != nil {
		return nil, fmt.Errorf("encoding schema: %w", err)
	}
	sum := sha256.Sum256(js)
	return &hub.Form{Site: site, Slug: slug, Schema: &s, JSON: js, Settings: settings, Tag: hex.EncodeToString(sum[:12])}, nil
}
