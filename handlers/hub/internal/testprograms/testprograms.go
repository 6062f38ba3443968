// Package testprograms finds the programs that test servers run: a gateway, a
// mail server, installed by make into GOPATH/bin. It starts none of them;
// s3test and mailpittest do.
//
// It holds no hub: handlers/hub/hubtest runs a real one, hubclient/fakehub
// imitates one in memory for client tests, and handlers/hub/testkit has
// small parts tests share (a clock, a log buffer, a free port).
package testprograms

import (
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	mu    sync.Mutex
	found = map[string]string{}
)

// Find returns the path of the program name: on PATH, else where go
// install puts it (GOPATH/bin). A path found once is remembered.
func Find(name string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := found[name]; ok {
		return p, nil
	}
	if p, err := exec.LookPath(name); err == nil {
		found[name] = p
		return p, nil
	}
	for _, dir := range filepath.SplitList(build.Default.GOPATH) {
		p := filepath.Join(dir, "bin", name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			found[name] = p
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH or in GOPATH/bin", name)
}
