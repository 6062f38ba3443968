package main

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/formsource"
)

func TestExampleFormsAreValid(t *testing.T) {
	t.Parallel()
	n := 0
	fs.WalkDir(exampleForms, "example-forms", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, _ := exampleForm(p, "http://localhost:8080")
		site := path.Base(path.Dir(p))
		if _, err := formsource.Parse(site, strings.TrimSuffix(path.Base(p), ".json"), data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		return nil
	})
	if n < 3 {
		t.Errorf("%d example forms, want at least contact, survey and unconfigured", n)
	}
}
