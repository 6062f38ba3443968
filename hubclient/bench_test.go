package hubclient_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// BenchmarkParallelUploads submits 8 files of 1 MiB to a hub that adds
// 20 ms to every upload-url and PUT, and reports the wall time against a
// submission of one such file measured in the same run: with uploads in
// parallel the ratio stays near 1 (goal: at most 1.3).
func BenchmarkParallelUploads(b *testing.B) {
	h := newHub(b)
	h.Latency = 20 * time.Millisecond
	submit := submitter(h, hubclient.SubmitOptions{})
	body := strings.Repeat("x", 1<<20)
	files := func(n int) map[string]any {
		list := make([]hubclient.File, n)
		for i := range list {
			list[i] = hubclient.NewFile(fmt.Sprintf("f%d.bin", i), "", int64(len(body)), func() (io.ReadCloser, error) {
				return io.NopCloser(strings.NewReader(body)), nil
			})
		}
		return map[string]any{"files": list}
	}
	one, eight := files(1), files(8)
	run := func(values map[string]any) time.Duration {
		start := time.Now()
		if _, err := submit.OnSubmit(context.Background(), values); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var tOne, tEight time.Duration
	b.SetBytes(8 << 20)
	for b.Loop() {
		tOne += run(one)
		tEight += run(eight)
	}
	b.ReportMetric(float64(tEight.Milliseconds())/float64(b.N), "ms/8-files")
	b.ReportMetric(float64(tOne.Milliseconds())/float64(b.N), "ms/1-file")
	b.ReportMetric(float64(tEight)/float64(tOne), "x-of-1-file")
}
