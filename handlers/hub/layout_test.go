package hub_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// servers are the packages that serve HTTP on Echo: the library an app
// mounts, the hub's surfaces, the command that assembles them, and the
// harness that starts a hub for tests. No other package of the module may
// depend on Echo, directly or through another: the domain and the storage
// adapters stay free of the HTTP framework.
var servers = []string{
	"cmd/hubform",
	"handlers",
	"handlers/hub/admin",
	"handlers/hub/console",
	"handlers/hub/hosted",
	"handlers/hub/hubhttp",
	"handlers/hub/hubserver",
	"handlers/hub/metrics",
	"handlers/hub/protocol",
	"handlers/hub/hubtest",
}

func TestOnlyServersDependOnEcho(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module's packages with the go command")
	}
	const module, echo = "github.com/hubform/hubform/", "github.com/labstack/echo/v4"
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for line := range strings.Lines(string(out)) {
		pkg, deps, _ := strings.Cut(strings.TrimSpace(line), " ")
		checked++
		if slices.Contains(servers, strings.TrimPrefix(pkg, module)) {
			continue
		}
		if slices.Contains(strings.Fields(deps), echo) {
			t.Errorf("%s depends on Echo: only the servers may (see servers)", pkg)
		}
	}
	if checked < 30 {
		t.Fatalf("go list named %d packages: the module was not listed", checked)
	}
}

// TestOneS3Client checks that the module reaches object storage through
// aws-sdk-go-v2 alone: no package of it depends on gocloud.dev, whose
// blob layer the stores once went through, and past it, to the SDK.
func TestOneS3Client(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module's dependencies with the go command")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/hubform/hubform/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for pkg := range strings.Lines(string(out)) {
		if strings.HasPrefix(pkg, "gocloud.dev/") {
			t.Errorf("the module depends on %s: the stores use aws-sdk-go-v2 directly", strings.TrimSpace(pkg))
		}
	}
	if !strings.Contains(string(out), "github.com/aws/aws-sdk-go-v2/service/s3\n") {
		t.Error("no package depends on aws-sdk-go-v2's S3 client: the dependencies were not listed")
	}
}
