package console

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestStylesheetsClose fails on a style sheet whose blocks do not close:
// a lost brace silently moves every rule after it into the block above,
// a media query's say, and no browser test of another page would notice.
func TestStylesheetsClose(t *testing.T) {
	comments := regexp.MustCompile(`(?s)/\*.*?\*/`)
	err := fs.WalkDir(assetFiles, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".css") {
			return err
		}
		b, err := fs.ReadFile(assetFiles, path)
		if err != nil {
			return err
		}
		depth := 0
		for i, line := range strings.Split(comments.ReplaceAllStringFunc(string(b), func(c string) string {
			return strings.Repeat("\n", strings.Count(c, "\n"))
		}), "\n") {
			for _, r := range line {
				switch r {
				case '{':
					depth++
				case '}':
					depth--
				}
				if depth < 0 {
					t.Fatalf("%s:%d: a block closes that never opened", path, i+1)
				}
			}
		}
		if depth != 0 {
			t.Errorf("%s: %d blocks left open", path, depth)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDesignFonts: the Design tab names each font of a theme in that
// font, with the stack a form of that theme is given.
func TestDesignFonts(t *testing.T) {
	b, err := fs.ReadFile(assetFiles, "assets/builder.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range hubclient.ThemeFonts {
		if rule := ".design-font-" + f.Name + " > span {\n  font-family: " + f.CSS + ";\n}"; !strings.Contains(string(b), rule) {
			t.Errorf("builder.css lacks\n%s", rule)
		}
	}
}
