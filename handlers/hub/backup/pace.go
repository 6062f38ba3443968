package backup

import (
	"context"
	"io"

	"golang.org/x/time/rate"
)

// pace holds a backup's writes to a rate in bytes a second. A nil *pace
// does not hold them.
type pace struct {
	ctx     context.Context
	limiter *rate.Limiter
}

// newPace returns the pace of bytesPerSecond, nil for 0 (no limit).
func newPace(ctx context.Context, bytesPerSecond int64) *pace {
	if bytesPerSecond <= 0 {
		return nil
	}
	// A chunk at most at once: the disk gets no burst larger than what
	// pacedCopy writes before it waits.
	return &pace{ctx: ctx, limiter: rate.NewLimiter(rate.Limit(bytesPerSecond), pacedChunk)}
}

// wait waits until n more bytes, at most pacedChunk, are within the pace.
func (p *pace) wait(n int64) error {
	if p == nil || n <= 0 {
		return nil
	}
	return p.limiter.WaitN(p.ctx, int(n))
}

// reader returns r read at the pace p.
func (p *pace) reader(r io.ReadSeeker) io.ReadSeeker {
	if p == nil {
		return r
	}
	return pacedReader{r, p}
}

// pacedReader is a reader whose reads wait for its pace.
type pacedReader struct {
	io.ReadSeeker
	pace *pace
}

// Read reads at most pacedChunk bytes, and none when it may not wait for
// them: a reader with what it asked for would not see the error
// (io.ReadFull).
func (r pacedReader) Read(b []byte) (int, error) {
	n, err := r.ReadSeeker.Read(b[:min(len(b), pacedChunk)])
	if werr := r.pace.wait(int64(n)); werr != nil {
		return 0, werr
	}
	return n, err
}
