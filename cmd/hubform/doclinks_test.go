package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a Markdown link's target, inline: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading is a Markdown heading's text.
var mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*$`)

// TestDocLinksResolve checks every relative link of every Markdown file
// the repository holds: the file it names exists, and so does the heading
// its fragment names, as GitHub makes anchors of headings.
func TestDocLinksResolve(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*.md").Output()
	if err != nil {
		t.Skipf("no git checkout to list the Markdown files of: %v", err)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		a := map[string]bool{}
		for _, m := range mdHeading.FindAllStringSubmatch(withoutCode(string(b)), -1) {
			a[headingAnchor(m[1])] = true
		}
		anchors[path] = a
		return a
	}
	checked := 0
	for _, file := range strings.Fields(string(out)) {
		path := filepath.Join("../..", file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			name, fragment, _ := strings.Cut(target, "#")
			linked := path
			if name != "" {
				linked = filepath.Join(filepath.Dir(path), name)
			}
			checked++
			info, err := os.Stat(linked)
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", file, target)
				continue
			}
			if fragment != "" && !info.IsDir() && !anchorsOf(linked)[fragment] {
				t.Errorf("%s links to %s, whose file has no heading #%s", file, target, fragment)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found in the Markdown files")
	}
}

// withoutCode is md without its fenced code blocks, whose lines are
// neither headings nor links.
func withoutCode(md string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return b.String()
}

// headingAnchor is the fragment GitHub gives a heading: in lower case,
// without punctuation but hyphens and underscores, spaces made hyphens.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxReadmeLines is how long the README may grow: it is the front door,
// and what does not fit belongs in a guide beside its package.
const maxReadmeLines = 300

// TestReadmeIsAFrontDoor checks that the README stays short and links to
// every guide: each Markdown file of the repository but a README.
func TestReadmeIsAFrontDoor(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*.md").Output()
	if err != nil {
		t.Skipf("no git checkout to list the Markdown files of: %v", err)
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move what is not the front door into a guide", n, maxReadmeLines)
	}
	linked := map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(withoutCode(readme), -1) {
		name, _, _ := strings.Cut(m[1], "#")
		linked[filepath.Clean(name)] = true
	}
	guides := 0
	for _, file := range strings.Fields(string(out)) {
		if filepath.Base(file) == "README.md" {
			continue
		}
		guides++
		if !linked[filepath.Clean(file)] {
			t.Errorf("README.md does not link to the guide %s", file)
		}
	}
	if guides == 0 {
		t.Fatal("found no guide beside the README")
	}
}
