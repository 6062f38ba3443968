package hubserver

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestSigningSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := signingSecret("", dir)
	if err != nil || len(first) != 32 {
		t.Fatalf("made key %d bytes, %v", len(first), err)
	}
	again, err := signingSecret("", dir)
	if err != nil || string(again) != string(first) {
		t.Errorf("second start read another key (%v)", err)
	}
	if info, err := os.Stat(filepath.Join(dir, "signing.key")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file %v, %v; want mode 0600", info, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".signing.key-*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	// Hubs starting together on one data directory agree on one key.
	shared := t.TempDir()
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() { keys[i], _ = signingSecret("", shared) })
	}
	wg.Wait()
	for i := range keys {
		if len(keys[i]) != 32 || string(keys[i]) != string(keys[0]) {
			t.Fatalf("concurrent starts got different keys")
		}
	}

	short := t.TempDir()
	os.WriteFile(filepath.Join(short, "signing.key"), []byte("too short"), 0o600)
	if _, err := signingSecret("", short); err == nil || !strings.Contains(err.Error(), "fewer than the 32") {
		t.Errorf("a short key file: %v, want a clear error", err)
	}
	if key, err := signingSecret(strings.Repeat("k", 40), short); err != nil || len(key) != 40 {
		t.Errorf("a configured secret: %d bytes, %v", len(key), err)
	}
}
