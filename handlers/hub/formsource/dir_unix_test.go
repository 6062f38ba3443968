//go:build unix

package formsource

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestLookupNamedPipe(t *testing.T) {
	td := newTestDir(t)
	td.write("acme/contact.json", titled("contact"))
	if err := syscall.Mkfifo(filepath.Join(td.path, "acme", "pipe.json"), 0o644); err != nil {
		t.Skip(err)
	}
	// Opening the pipe would block until a writer came.
	td.wantInvalid("acme", "pipe")
	forms, errs := td.Forms()
	if len(forms) != 1 || len(errs) != 1 {
		t.Errorf("Forms = %d forms, errors %v; want 1 form and the pipe's error", len(forms), errs)
	}
}
