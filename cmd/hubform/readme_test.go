package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestReadmeExampleBuilds builds the complete app the README shows, so the
// example and the code cannot drift apart.
func TestReadmeExampleBuilds(t *testing.T) {
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
