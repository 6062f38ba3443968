// Package testkit holds small parts that the tests of several packages
// share: a settable clock, a log buffer safe for concurrent writes, a free
// loopback address for a server a test starts, waiting until it answers,
// and the peak of the heap while an operation runs. It holds no hub and
// starts no server.
//
// For a hub, handlers/hub/hubtest runs a real one and hubclient/fakehub
// imitates one in memory for client tests; handlers/hub/internal/testprograms
// finds the programs that test servers run.
package testkit

import (
	"net"
	"strings"
	"sync"
	"time"
)

// Clock is a settable clock, safe to read from a server's goroutines. Its
// zero value reads the zero time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set sets the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Buffer collects what is written to it, from any goroutine: a program's
// output, a logger's lines.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// FreeAddr returns a loopback address, host:port, whose port nothing
// listened on a moment ago.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// WaitReady calls ready every 20 ms until it reports true, and returns
// true; or returns false once exited is closed (the server's process
// ended) or timeout has passed.
func WaitReady(timeout time.Duration, exited <-chan struct{}, ready func() bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-exited:
			return false
		default:
		}
		if ready() {
			return true
		}
	}
	return false
}
