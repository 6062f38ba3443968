package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"
)

// testKeys asks two handles, as two hubs starting at once, for the same
// key many times: all get one key, of its size, and another name gets
// another.
func testKeys(t *testing.T, open Open) {
	dbs := open(t, 2)
	ctx := context.Background()
	keys := make([][]byte, 20)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := dbs[i%2].Key(ctx, "stamp", 32)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i, k := range keys {
		if len(k) != 32 || !bytes.Equal(k, keys[0]) {
			t.Fatalf("key %d is %x, want the 32 bytes of key 0, %x", i, k, keys[0])
		}
	}
	other, err := dbs[0].Key(ctx, "other", 32)
	if err != nil || bytes.Equal(other, keys[0]) {
		t.Errorf("another name's key %x, %v: want one of its own", other, err)
	}
	if _, err := dbs[1].Key(ctx, "stamp", 16); err == nil {
		t.Error("the key asked for at another size: no error")
	}
}
