package conformance_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyHubclient keeps the kit usable from any hub's tests: it
// depends on hubclient and the standard library, never on this project's
// hub.
func TestImportsOnlyHubclient(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, path := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(path, "/")
		if path != "github.com/hubform/hubform/hubclient" && strings.Contains(first, ".") {
			t.Errorf("the package imports %s; it may import only hubclient and the standard library", path)
		}
	}
}
