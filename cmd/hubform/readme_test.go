package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeExampleBuilds builds the complete app the README shows, so the
// example and the code cannot drift apart.
func TestReadmeExampleBuilds(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md shows no complete Go program (a ```go block starting with package main)")
	}
	// Inside the module, so that it builds against this very code.
	dir, err := os.MkdirTemp(".", "_readme-example-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), block[1], 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, "./"+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's example does not build: %v\n%s", err, out)
	}
}

// TestExampleDataIgnored checks that git ignores the data directories the
// README's, the guides' and the help's examples write, so that
// running an example in a checkout leaves nothing to commit by mistake.
func TestExampleDataIgnored(t *testing.T) {
	t.Parallel()
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	docs := []string{"../../README.md", "../../handlers/GUIDE.md", "../../handlers/hub/OPERATIONS.md", "../../handlers/hub/admin/API.md", "main.go", "hub.go", "submissions.go"}
	dataFlag := regexp.MustCompile(`--data (\.?/?[A-Za-z][\w./-]*)`)
	seen := map[string]bool{}
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range dataFlag.FindAllSubmatch(text, -1) {
			dir := filepath.Clean(string(m[1]))
			if dir == "DIR" || seen[dir] {
				continue
			}
			seen[dir] = true
			// A file inside, as the directory need not exist.
			cmd := exec.Command("git", "check-ignore", "-q", filepath.Join(dir, "submissions.db"))
			cmd.Dir = strings.TrimSpace(string(root))
			if err := cmd.Run(); err != nil {
				t.Errorf("%s runs with --data %s, which git does not ignore (.gitignore)", doc, m[1])
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("found no --data directory in the examples")
	}
}

// TestMakefileInstallsLean checks that make installs Debian packages
// without their recommendations, which for Chromium are over a hundred,
// and that the browser target names a font for the screenshots' text,
// which Chromium only recommends.
func TestMakefileInstallsLean(t *testing.T) {
	t.Parallel()
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	installs := regexp.MustCompile(`apt-get install [^;)\n]*`).FindAllString(string(makefile), -1)
	if len(installs) == 0 {
		t.Fatal("the Makefile installs no Debian package")
	}
	fonts := false
	for _, install := range installs {
		if !strings.Contains(install, " --no-install-recommends") {
			t.Errorf("%q installs recommended packages too: add --no-install-recommends", install)
		}
		if strings.Contains(install, " chromium") && strings.Contains(install, " fonts-") {
			fonts = true
		}
	}
	if !fonts {
		t.Errorf("no apt-get install of chromium names a font package: %q", installs)
	}
}

// TestReadmeInstallsTheCommand checks that the README tells how to get the
// hubform command by the module path go.mod declares, and that make build,
// which it names too, builds it.
func TestReadmeInstallsTheCommand(t *testing.T) {
	t.Parallel()
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod declares no module")
	}
	module := string(m[1])
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go install " + module + "/cmd/hubform@latest", "go get " + module, "make build", "hubform --version"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not say %q", want)
		}
	}
	out, err := exec.Command("make", "-C", "../..", "-n", "build").Output()
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	if !regexp.MustCompile(`go build -o bin/hubform \./cmd/hubform\n`).Match(out) {
		t.Errorf("make build does not build ./cmd/hubform into bin/hubform:\n%s", out)
	}
}

// TestReadmeNamesTheTemplVersion checks that the README names the templ
// release go.mod requires, which the generated code needs at run time.
func TestReadmeNamesTheTemplVersion(t *testing.T) {
	t.Parallel()
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/a-h/templ (v\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod does not require github.com/a-h/templ")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"built with templ " + string(m[1]), "go get github.com/a-h/templ@" + string(m[1])} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not say %q", want)
		}
	}
}
