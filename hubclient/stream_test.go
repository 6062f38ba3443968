package hubclient_test

import (
	"context"
	"crypto/sha256"
	"io"
	"runtime"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// patternReader yields n bytes of a repeating pattern without holding them.
type patternReader struct{ left int64 }

func (r *patternReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	for i := range n {
		p[i] = byte(r.left - i)
	}
	r.left -= n
	return int(n), nil
}

func (r *patternReader) Close() error { return nil }

// TestLargeFileStreams sends a 256 MiB file through the whole pipeline and
// checks that it arrives intact while the process allocates far less than
// the file's size.
func TestLargeFileStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 256 MiB")
	}
	const size = 256 << 20
	h := newHub(t)
	big := hubclient.NewFile("big.bin", "application/octet-stream", size, func() (io.ReadCloser, error) {
		return &patternReader{left: size}, nil
	})
	want := sha256.New()
	io.Copy(want, &patternReader{left: size})

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{"file": big})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// TotalAlloc counts every byte allocated, freed or not, by the client
	// and the in-process hub alike: an upper bound of the heap's growth.
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB while streaming %d MiB", grew>>10, size>>20)
	if grew > 16<<20 {
		t.Errorf("allocated %d MiB while streaming a %d MiB file, want under 16 MiB", grew>>20, size>>20)
	}
	u, _ := h.Upload(h.Submissions()[0].Request.Attachments[0].Key)
	if !res.OK || u.Size != size || u.SHA256 != [32]byte(want.Sum(nil)) {
		t.Errorf("stored %d bytes, sha %x; want %d bytes, sha %x", u.Size, u.SHA256, size, want.Sum(nil))
	}
}
