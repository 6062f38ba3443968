package hubclient

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProtocolSectionsCited checks that every section the module's code
// cites ("PROTOCOL.md §4", "§2.6") is in PROTOCOL.md and that none is cited
// from "the spec", so that the references lead somewhere.
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
		for _, m := range cited.FindAllStringSubmatchIndex(string(src), -1) {
			n++
			section := string(src[m[2]:m[3]])
			if !sections[section] {
				t.Errorf("%s cites §%s, which PROTOCOL.md does not have", path, section)
			}
			// A bare "spec" citation would send the reader to a document the module
			// does not hold.
			if before := strings.ToLower(string(src[max(0, m[0]-5):m[0]])); before == "spec " {
				t.Errorf("%s cites spec §%s: cite PROTOCOL.md §%s", path, section, section)
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
