package hubclient

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProtocolSectionsCited checks that every section of PROTOCOL.md that
// the module's code cites ("§4", "§2.6") is there, so that the references
// lead somewhere.
func TestProtocolSectionsCited(t *testing.T) {
	doc, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#{2,3} (\d+(?:\.\d+)?)\.? `).FindAllStringSubmatch(string(doc), -1) {
		sections[m[1]] = true
	}
	cited := regexp.MustCompile(`§(\d+(?:\.\d+)?)`)
	n := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cited.FindAllStringSubmatch(string(src), -1) {
			n++
			if !sections[m[1]] {
				t.Errorf("%s cites §%s, which PROTOCOL.md does not have", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no code cites PROTOCOL.md")
	}
}
