package sqldb

import "sync"

// maxBatch is how many submissions one transaction stores at most.
const maxBatch = 64

// writeBatch gathers the submissions that arrive while one transaction is
// being written, so that the next stores them all with one commit. On a
// database with one writer, such as SQLite, each commit waits for the disk
// in turn: batching pays that wait once per batch rather than once per
// submission. The zero value is ready to use.
type writeBatch struct {
	mu      sync.Mutex
	pending []*batchEntry
	// writing is true while a goroutine writes a batch; the others wait
	// until theirs is written or they are asked to write the next.
	writing bool
}

type batchEntry struct {
	r *storeRequest
	// done is closed once r is written, lead when its goroutine is to
	// write the next batch.
	done, lead chan struct{}
}

// store has r written by write, in a batch with those waiting alongside it,
// and returns r's error.
func (b *writeBatch) store(r *storeRequest, write func([]*storeRequest)) error {
	e := &batchEntry{r: r, done: make(chan struct{}), lead: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, e)
	if b.writing {
		b.mu.Unlock()
		select {
		case <-e.done:
			return r.err
		case <-e.lead:
		}
	} else {
		b.writing = true
		b.mu.Unlock()
	}
	// This goroutine writes the next batch, its own submission in it, then
	// hands the writing on to a goroutine still waiting, so that none
	// writes for others for long.
	b.mu.Lock()
	n := min(len(b.pending), maxBatch)
	batch := b.pending[:n:n]
	b.pending = b.pending[n:]
	b.mu.Unlock()
	rs := make([]*storeRequest, len(batch))
	for i, e := range batch {
		rs[i] = e.r
	}
	write(rs)
	for _, e := range batch {
		close(e.done)
	}
	b.mu.Lock()
	if len(b.pending) > 0 {
		close(b.pending[0].lead)
	} else {
		b.writing = false
	}
	b.mu.Unlock()
	return r.err
}
